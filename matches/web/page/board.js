// The board: 64 squares drawn from the server's game JSON, with the input a person expects of an
// online board. Squares carry data-square="b1" and, when occupied, data-piece="b"|"w" (the
// contract the browser test reads). Coordinates stand outside the squares, so that they never
// cover a piece.
//
// Input, for a board made with onSquare: a click on a piece then on a target, or a drag from
// one to the other (the piece follows the pointer), or the keyboard (arrow keys move between
// squares, Enter or Space acts as a click). onSquare(name, "down"|"up") is told of each press
// and release; it returns true when the press picked up a piece that may be dragged.
//
// As on lichess: a move that leads on from the position shown slides its piece (unless it was
// dropped there, or the reader asked for reduced motion) and tells the page ("board-move", for
// its sound); the right button draws the reader's own shapes (a click: a circle; a drag: an
// arrow; green, with Shift red, with Alt blue), which a left click or a new position clears.

export const FILES = "abcdefgh";
const SVG = "http://www.w3.org/2000/svg";
const PIECE_NAMES = { b: "black piece", w: "white piece" };

export class Board {
  constructor(frame, { onSquare = null, label = "board" } = {}) {
    this.frame = frame;
    this.flipped = false;
    this.onSquare = onSquare;
    this.squares = {};
    this.focused = "a1";

    frame.classList.add("board-frame");
    this.grid = document.createElement("div");
    this.grid.className = "board";
    this.grid.setAttribute("role", "grid");
    this.grid.setAttribute("aria-label", label);
    this.rows = [];
    for (let row = 0; row < 8; ++row) {
      const r = document.createElement("div");
      r.setAttribute("role", "row");
      r.className = "board-row";
      this.rows.push(r);
      this.grid.appendChild(r);
    }
    for (let rank = 1; rank <= 8; ++rank) {
      for (let file = 0; file < 8; ++file) {
        const name = FILES[file] + rank;
        const square = document.createElement("div");
        square.className = "square " + ((file + rank) % 2 === 0 ? "light" : "dark");
        square.dataset.square = name;
        square.setAttribute("role", "gridcell");
        square.tabIndex = -1;
        this.squares[name] = square;
      }
    }
    this.ranks = document.createElement("div");
    this.ranks.className = "coords ranks";
    this.ranks.setAttribute("aria-hidden", "true");
    this.files = document.createElement("div");
    this.files.className = "coords files";
    this.files.setAttribute("aria-hidden", "true");
    const layer = (name) => {
      const svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("class", name);
      svg.setAttribute("viewBox", "0 0 8 8");
      svg.setAttribute("aria-hidden", "true");
      return svg;
    };
    this.arrows = layer("arrows");
    this.userShapes = layer("user-shapes");
    this.shapes = [];  // the reader's: {from, to, colour}, a circle when from === to
    this.shown = null;  // the pieces drawn last, to tell a move played on from a jump elsewhere
    this.inner = document.createElement("div");
    this.inner.className = "board-inner";
    this.inner.append(this.grid, this.arrows, this.userShapes);
    frame.append(this.ranks, this.inner, this.files);
    this.place();
    if (onSquare) this.listen();
    this.listenForShapes();
  }

  // Squares in reading order for the side at the bottom (White at the bottom unless flipped).
  place() {
    for (let row = 0; row < 8; ++row) {
      const rank = this.flipped ? row + 1 : 8 - row;
      this.rows[row].replaceChildren(...[...Array(8).keys()].map((col) => this.squares[FILES[this.flipped ? 7 - col : col] + rank]));
    }
    const ranks = [...Array(8).keys()].map((row) => (this.flipped ? row + 1 : 8 - row));
    const files = [...FILES];
    if (this.flipped) files.reverse();
    this.ranks.innerHTML = ranks.map((r) => `<span>${r}</span>`).join("");
    this.files.innerHTML = files.map((f) => `<span>${f}</span>`).join("");
    this.squares[this.focused].tabIndex = 0;  // one square is the board's stop in the tab order
  }

  flip(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.place();
    this.clearLine();
    this.drawShapes();
  }

  // A square's centre in the layers' 8x8 coordinates, as the board is turned.
  centre(square) {
    const file = FILES.indexOf(square[0]), rank = Number(square[1]);
    return this.flipped ? [7 - file + 0.5, rank - 1 + 0.5] : [file + 0.5, 8 - rank + 0.5];
  }

  // Pointer and keyboard input.
  listen() {
    const squareAt = (x, y) => this.squareAt(x, y);
    this.grid.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      this.clearShapes();
      const name = squareAt(e.clientX, e.clientY);
      if (!name) return;
      this.moveFocus(name, false);
      if (this.onSquare(name, "down")) this.startDrag(name, e);
    });
    this.grid.addEventListener("pointermove", (e) => this.followPointer(e));
    const release = (e) => {
      if (e.button !== 0) return;
      const dragged = this.endDrag();
      const name = squareAt(e.clientX, e.clientY);
      this.droppedOn = dragged ? name : null;  // a dropped piece is where it goes: no slide
      if (name) this.onSquare(name, "up");
    };
    this.grid.addEventListener("pointerup", release);
    this.grid.addEventListener("pointercancel", () => this.endDrag());
    this.grid.addEventListener("keydown", (e) => {
      const [file, rank] = [FILES.indexOf(this.focused[0]), Number(this.focused[1])];
      const sign = this.flipped ? -1 : 1;
      const step = { ArrowLeft: [-sign, 0], ArrowRight: [sign, 0], ArrowUp: [0, sign], ArrowDown: [0, -sign] }[e.key];
      if (step) {
        e.preventDefault();
        e.stopPropagation();  // the page's own arrow keys (move list) are not for the board
        const f = Math.min(7, Math.max(0, file + step[0])), r = Math.min(8, Math.max(1, rank + step[1]));
        this.moveFocus(FILES[f] + r, true);
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.onSquare(this.focused, "down");
      }
    });
  }

  // The square under a point of the window, if it is one of this board's.
  squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const square = el && el.closest("[data-square]");
    return square && this.grid.contains(square) ? square.dataset.square : null;
  }

  moveFocus(name, focus) {
    this.squares[this.focused].tabIndex = -1;
    this.focused = name;
    this.squares[name].tabIndex = 0;
    if (focus) this.squares[name].focus();
  }

  // The piece under the pointer while a move is dragged: a copy that follows it, its square
  // showing the piece faded until the release.
  startDrag(name, e) {
    this.endDrag();  // a second finger: one piece under the pointer at a time
    const square = this.squares[name];
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.dataset.piece = square.dataset.piece;
    const size = square.getBoundingClientRect().width;
    ghost.style.width = ghost.style.height = `${size}px`;
    document.body.appendChild(ghost);
    square.classList.add("dragged");
    this.drag = { ghost, square, size, moved: false };
    this.grid.setPointerCapture?.(e.pointerId);
    this.followPointer(e);
  }

  followPointer(e) {
    if (!this.drag) return;
    this.drag.ghost.style.transform = `translate(${e.clientX - this.drag.size / 2}px, ${e.clientY - this.drag.size / 2}px)`;
  }

  endDrag() {
    if (!this.drag) return false;
    this.drag.ghost.remove();
    this.drag.square.classList.remove("dragged");
    this.drag = null;
    return true;
  }

  // The right button: press on a square, release on the same (a circle) or another (an arrow).
  // Drawing the same shape again takes it away.
  listenForShapes() {
    const squareAt = (x, y) => this.squareAt(x, y);
    this.grid.addEventListener("contextmenu", (e) => e.preventDefault());
    this.grid.addEventListener("pointerdown", (e) => {
      if (e.button === 2) this.shapeStart = squareAt(e.clientX, e.clientY);
    });
    this.grid.addEventListener("pointerup", (e) => {
      if (e.button !== 2 || !this.shapeStart) return;
      const to = squareAt(e.clientX, e.clientY);
      const from = this.shapeStart;
      this.shapeStart = null;
      if (!to) return;
      const colour = e.shiftKey ? "red" : e.altKey ? "blue" : "green";
      const same = this.shapes.findIndex((s) => s.from === from && s.to === to);
      if (same >= 0 && this.shapes[same].colour === colour) this.shapes.splice(same, 1);
      else if (same >= 0) this.shapes[same].colour = colour;
      else this.shapes.push({ from, to, colour });
      this.drawShapes();
    });
  }

  clearShapes() {
    if (!this.shapes.length) return;
    this.shapes = [];
    this.drawShapes();
  }

  drawShapes() {
    const colours = { green: "rgba(21,120,27,0.8)", red: "rgba(136,32,32,0.8)", blue: "rgba(0,48,136,0.8)" };
    let svg = `<defs><marker id="user-head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>`;
    for (const { from, to, colour } of this.shapes) {
      const [x1, y1] = this.centre(from), [x2, y2] = this.centre(to);
      const data = `data-from="${from}" data-to="${to}" data-colour="${colour}"`;
      svg += from === to
        ? `<circle ${data} cx="${x1}" cy="${y1}" r="0.45" fill="none" stroke="${colours[colour]}" stroke-width="0.07"/>`
        : `<line ${data} x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colours[colour]}" stroke-width="0.16" marker-end="url(#user-head)"/>`;
    }
    this.userShapes.innerHTML = svg;
  }

  // The last move leads on from the position drawn before (its piece left `from`, arrived at
  // `to`, nothing else changed but a capture there): slide it, and say so to the page.
  showMove(before, game) {
    const m = game.last_move;
    if (!before || !m) return;
    const mover = game.pieces[m.to];
    if (!mover || before[m.from] !== mover || game.pieces[m.from]) return;
    for (const name of Object.keys(this.squares))
      if (name !== m.from && name !== m.to && before[name] !== game.pieces[name]) return;
    const capture = before[m.to] !== undefined;
    this.frame.dispatchEvent(new CustomEvent("board-move", { bubbles: true, detail: { capture } }));
    const dropped = this.droppedOn === m.to;
    this.droppedOn = null;
    if (dropped || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const [x1, y1] = this.centre(m.from), [x2, y2] = this.centre(m.to);
    const piece = document.createElement("div");
    piece.className = "move-anim";
    piece.dataset.piece = mover;
    piece.style.left = `${(x1 - 0.5) * 12.5}%`;
    piece.style.top = `${(y1 - 0.5) * 12.5}%`;
    const target = this.squares[m.to];
    target.classList.add("arriving");
    this.frame.dataset.slides = String(Number(this.frame.dataset.slides || 0) + 1);  // for the browser test
    this.inner.appendChild(piece);
    const done = () => {
      piece.remove();
      target.classList.remove("arriving");
    };
    const slide = piece.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${(x2 - x1) * 100}%, ${(y2 - y1) * 100}%)` }],
      { duration: 180, easing: "ease-out" });
    slide.onfinish = slide.oncancel = done;
  }

  // Pieces from the server's game JSON; marks: last move, selection, targets, a premove's
  // squares, and at the end of a game the connected group(s) of the winner(s).
  render(game, marks = {}) {
    const winners = new Set(marks.connected || []);
    const before = this.shown;
    this.shown = { ...game.pieces };
    const changed = !before || Object.keys(this.squares).some((name) => before[name] !== game.pieces[name]);
    if (changed) this.clearShapes();
    for (const [name, square] of Object.entries(this.squares)) {
      const piece = game.pieces[name];
      if (piece) square.dataset.piece = piece;
      else delete square.dataset.piece;
      square.classList.remove("last", "selected", "target", "capture", "winner", "arriving", "premove");
      if (piece && winners.has(piece)) square.classList.add("winner");
      square.setAttribute("aria-label", `${name}${piece ? ", " + PIECE_NAMES[piece] : ""}`);
      square.removeAttribute("aria-selected");
    }
    if (game.last_move) {
      this.squares[game.last_move.from].classList.add("last");
      this.squares[game.last_move.to].classList.add("last");
    }
    if (marks.selected) {
      this.squares[marks.selected].classList.add("selected");
      this.squares[marks.selected].setAttribute("aria-selected", "true");
    }
    for (const m of marks.targets || []) {
      this.squares[m.to].classList.add("target");
      if (m.capture) this.squares[m.to].classList.add("capture");
      this.squares[m.to].setAttribute("aria-label", this.squares[m.to].getAttribute("aria-label") + ", a target");
    }
    for (const name of marks.premove || []) this.squares[name].classList.add("premove");
    for (const el of this.inner.querySelectorAll(".move-anim")) el.remove();
    if (changed) this.showMove(before, game);
  }

  // The engine's line as numbered arrows (at most four moves), the mover's in blue, the
  // reply's in red; `others`: the first moves of the other lines (MultiPV), thinner and grey.
  // A move over a segment already drawn (there and back, or the same move again) is drawn
  // beside it, so that both stay visible.
  drawLine(moves, others = []) {
    const centre = (square) => this.centre(square);
    let svg = `<defs><marker id="head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>`;
    const drawn = new Map();  // a segment (either direction) -> arrows on it so far
    const arrow = (text, colour, width) => {
      let [x1, y1] = centre(text.slice(0, 2)), [x2, y2] = centre(text.slice(3, 5));
      const key = [text.slice(0, 2), text.slice(3, 5)].sort().join("");
      const before = drawn.get(key) || 0;
      drawn.set(key, before + 1);
      if (before > 0) {  // beside the earlier arrow: a shift across the segment
        const length = Math.hypot(x2 - x1, y2 - y1) || 1, shift = 0.22 * before;
        const dx = ((y2 - y1) / length) * shift, dy = (-(x2 - x1) / length) * shift;
        [x1, y1, x2, y2] = [x1 + dx, y1 + dy, x2 + dx, y2 + dy];
      }
      svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colour}" stroke-width="${width}" marker-end="url(#head)"/>`;
      return [x1, y1];
    };
    moves.filter((m) => m !== "pass").slice(0, 4).forEach((text, i) => {
      const [x1, y1] = arrow(text, i % 2 === 0 ? "rgba(42,122,226,0.8)" : "rgba(217,83,79,0.8)", 0.13);
      svg += `<text x="${x1}" y="${y1 + 0.12}" font-size="0.34" text-anchor="middle" fill="#fff" stroke="#000" stroke-width="0.02">${i + 1}</text>`;
    });
    for (const text of others) if (text && text !== "pass") arrow(text, "rgba(90,90,90,0.55)", 0.08);
    this.arrows.innerHTML = svg;
  }

  clearLine() { this.arrows.innerHTML = ""; }
}
