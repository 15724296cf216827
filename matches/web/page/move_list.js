// A move list as PGN numbers it: one row per move pair, counted from the standard start's first
// mover (Black), "1. … a2-c2" when a game starts with White to move. Each move is a button that
// goes to the position after it; the game's result closes the list.

// `marks` (optional): each move's computer-analysis mark ("inaccuracy", "mistake", "blunder" or
// ""), shown as ?!, ?, ?? after it.
export const MarkSymbols = { inaccuracy: "?!", mistake: "?", blunder: "??" };

export function renderMoveList(list, { moves, startSide = "b", current = moves.length, result = "", onSelect = null, marks = null }) {
  list.innerHTML = "";
  const offset = startSide === "b" ? 0 : 1;  // a game White begins leaves the first half-row empty
  let row = null;
  let currentButton = null;
  for (let i = 0; i < moves.length; ++i) {
    const half = (i + offset) % 2;
    if (!row || half === 0) {
      row = document.createElement("li");
      row.className = "move-pair";
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${Math.floor((i + offset) / 2) + 1}.`;
      row.appendChild(number);
      if (half === 1) {
        const gap = document.createElement("span");
        gap.className = "move gap";
        gap.textContent = "…";
        row.appendChild(gap);
      }
      list.appendChild(row);
    }
    const move = document.createElement(onSelect ? "button" : "span");
    move.className = "move";
    const mark = marks && marks[i] ? marks[i] : "";
    move.textContent = moves[i] + (mark ? MarkSymbols[mark] : "");
    move.dataset.ply = String(i + 1);
    if (mark) {
      move.classList.add(`mark-${mark}`);
      move.dataset.mark = mark;
    }
    if (onSelect) {
      move.type = "button";
      move.onclick = () => onSelect(i + 1);
      move.setAttribute("aria-label", `move ${Math.floor((i + offset) / 2) + 1}, ${half === 0 ? "Black" : "White"}: ${moves[i]}` +
        (mark ? ` (${mark})` : ""));
    }
    if (i + 1 === current) {
      move.classList.add("current");
      move.setAttribute("aria-current", "step");
      currentButton = move;
    }
    row.appendChild(move);
  }
  if (result) {
    const end = document.createElement("li");
    end.className = "move-result";
    end.textContent = result;
    list.appendChild(end);
  }
  scrollToCurrent(list, currentButton, current >= moves.length);
}

// The current move in view inside the list's own box (the page itself does not scroll); with
// none, the list's end when `atEnd`, else its start.
function scrollToCurrent(list, currentButton, atEnd) {
  if (currentButton) {
    const top = currentButton.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - currentButton.offsetHeight)
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  } else {
    list.scrollTop = atEnd ? list.scrollHeight : 0;
  }
}

// Whether a key pressed in `target` is the page's to take: everywhere but where text is typed.
// A menu with the focus (the last one changed) does not keep the arrow keys from the moves.
export function keyForPage(target) {
  if (target.tagName === "TEXTAREA" || target.isContentEditable) return false;
  return target.tagName !== "INPUT" || ["checkbox", "radio", "button", "file", "submit"].includes(target.type);
}

// The mouse wheel over `element` steps through the moves (lichess's habit): `step(+1 | -1)`,
// one step a notch, however fine the wheel's deltas.
export function wheelSteps(element, step) {
  let pending = 0;
  element.addEventListener("wheel", (e) => {
    e.preventDefault();
    pending += e.deltaY;
    if (Math.abs(pending) < 40 && Math.abs(e.deltaY) < 40) return;  // a touchpad's small deltas add up to a notch
    step(pending > 0 ? 1 : -1);
    pending = 0;
  }, { passive: false });
}

// The server's description of an ending ("black wins by connection") as the page writes it:
// the colours are names ("Black wins by connection").
export function ending(description) {
  return (description || "").replace(/\b(black|white)\b/g, (colour) => colour[0].toUpperCase() + colour.slice(1));
}

// "0-1 · Black wins by connection" for the end of a list.
export function resultLine(result, description) {
  return `${result} · ${ending(description)}`;
}

// A game with its variations (move_tree.js), as lichess writes one: the main line in numbered
// pairs, each variation in parentheses on a line of its own under the move it is an
// alternative to, variations inside it in parentheses inline. Every move is a button that
// selects its line (onSelect(path)); the main line's moves carry data-ply as renderMoveList's,
// a variation's data-path (its moves from the start). `current`: the path of the position shown;
// `marks`: a Map from a path's key (its moves joined by spaces) to a computer-analysis mark.
export function renderMoveTree(list, { tree, startSide = "b", current = [], result = "", onSelect, marks = null }) {
  list.innerHTML = "";
  const offset = startSide === "b" ? 0 : 1;
  const currentKey = current.join(" ");
  const number = (ply) => Math.floor((ply + offset) / 2) + 1;
  const firstOfPair = (ply) => (ply + offset) % 2 === 0;
  let currentButton = null;
  const span = (className, text) => {
    const s = document.createElement("span");
    s.className = className;
    s.textContent = text;
    return s;
  };
  const moveButton = (path, ply, main) => {
    const key = path.join(" ");
    const move = path[path.length - 1];
    const mark = marks ? marks.get(key) || "" : "";
    const b = document.createElement("button");
    b.type = "button";
    b.className = main ? "move" : "move var-move";
    b.textContent = move + (mark ? MarkSymbols[mark] : "");
    if (main) b.dataset.ply = String(ply + 1);
    else b.dataset.path = key;
    if (mark) {
      b.classList.add(`mark-${mark}`);
      b.dataset.mark = mark;
    }
    b.onclick = () => onSelect(path);
    b.setAttribute("aria-label", `${main ? "" : "variation, "}move ${number(ply)}, ${firstOfPair(ply) ? "Black" : "White"}: ${move}` +
      (mark ? ` (${mark})` : ""));
    if (key === currentKey) {
      b.classList.add("current");
      b.setAttribute("aria-current", "step");
      currentButton = b;
    }
    return b;
  };
  // A variation inline: the line from `parent` (whose first child begins it) at `ply`, with the
  // variations inside it in parentheses after the move each is an alternative to.
  const inline = (box, parentPath, parent, ply) => {
    let path = parentPath, node = parent, numbered = false;
    while (node.children.length) {
      const child = node.children[0];
      const childPath = [...path, child.move];
      if (!numbered || firstOfPair(ply)) box.append(span("move-number", `${number(ply)}.${firstOfPair(ply) ? "" : ".."}`));
      box.append(moveButton(childPath, ply, false));
      numbered = true;
      for (const alternative of node.children.slice(1)) {
        const nested = span("variation", "(");
        inline(nested, path, { children: [alternative] }, ply);
        nested.append(")");
        box.append(nested);
        numbered = false;
      }
      node = child;
      path = childPath;
      ++ply;
    }
  };
  let node = tree.root, path = [], ply = 0, row = null;
  while (node.children.length) {
    const child = node.children[0];
    const childPath = [...path, child.move];
    if (!row || firstOfPair(ply)) {
      row = document.createElement("li");
      row.className = "move-pair";
      row.append(span("move-number", `${number(ply)}.`));
      if (!firstOfPair(ply)) row.append(span("move gap", "…"));
      list.append(row);
    }
    row.append(moveButton(childPath, ply, true));
    const alternatives = node.children.slice(1);
    if (alternatives.length) {
      const line = document.createElement("li");
      line.className = "variations";
      for (const alternative of alternatives) {
        const box = span("variation", "(");
        inline(box, path, { children: [alternative] }, ply);
        box.append(")");
        line.append(box);
      }
      list.append(line);
      row = null;  // the main line goes on in a row of its own
    }
    node = child;
    path = childPath;
    ++ply;
  }
  if (result) {
    const end = document.createElement("li");
    end.className = "move-result";
    end.textContent = result;
    list.append(end);
  }
  scrollToCurrent(list, currentButton, false);
}
