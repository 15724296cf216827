// The web board's page: drawing and input only. Rules, legal moves, results and the engine
// are the server's (see matches/web/server.hpp for the API).
"use strict";

const FILES = "abcdefgh";
const $ = (id) => document.getElementById(id);

// ---- talking to the server ----

async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

// A search streamed as server-sent events, read with fetch so that an error keeps its JSON
// message and aborting the request (stop, undo, leaving the page) ends the search.
async function streamSearch(params, signal, onEvent) {
  const response = await fetch("/api/search?" + new URLSearchParams(params), { signal });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new Error(data.error || `${response.status} ${response.statusText}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
}

// ---- the board ----

class Board {
  constructor(frame, onSquareClick) {
    this.frame = frame;
    this.grid = document.createElement("div");
    this.grid.className = "board";
    this.squares = {};
    for (let rank = 8; rank >= 1; --rank) {
      for (let file = 0; file < 8; ++file) {
        const name = FILES[file] + rank;
        const square = document.createElement("div");
        square.className = "square " + ((file + rank) % 2 === 0 ? "light" : "dark");
        square.dataset.square = name;
        if (rank === 1) square.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[file]}</span>`);
        if (file === 0) square.insertAdjacentHTML("beforeend", `<span class="coord rank">${rank}</span>`);
        this.grid.appendChild(square);
        this.squares[name] = square;
      }
    }
    // Pressing and releasing: a click on a piece then on a target, or a drag from one to the
    // other, both play the move. The square is the one under the pointer (a touch keeps
    // sending its events to the square where it began).
    if (onSquareClick) {
      const squareAt = (e) => {
        const el = document.elementFromPoint(e.clientX, e.clientY);
        const square = el && el.closest("[data-square]");
        return square && this.grid.contains(square) ? square.dataset.square : null;
      };
      this.grid.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        const name = squareAt(e);
        if (name) onSquareClick(name, "down");
      });
      this.grid.addEventListener("pointerup", (e) => {
        const name = squareAt(e);
        if (name) onSquareClick(name, "up");
      });
    }
    this.arrows = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.arrows.setAttribute("class", "arrows");
    this.arrows.setAttribute("viewBox", "0 0 8 8");
    frame.append(this.grid, this.arrows);
  }

  // Pieces from the server's game JSON; marks: last move, selection, targets.
  render(game, marks = {}) {
    for (const [name, square] of Object.entries(this.squares)) {
      const piece = game.pieces[name];
      if (piece) square.dataset.piece = piece;
      else delete square.dataset.piece;
      square.classList.remove("last", "selected", "target", "capture");
    }
    if (game.last_move) {
      this.squares[game.last_move.from].classList.add("last");
      this.squares[game.last_move.to].classList.add("last");
    }
    if (marks.selected) this.squares[marks.selected].classList.add("selected");
    for (const m of marks.targets || []) {
      this.squares[m.to].classList.add("target");
      if (m.capture) this.squares[m.to].classList.add("capture");
    }
  }

  // The engine's line as numbered arrows (at most four moves).
  drawLine(moves) {
    const centre = (sq) => [FILES.indexOf(sq[0]) + 0.5, 8 - Number(sq[1]) + 0.5];
    let svg = `<defs><marker id="head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>`;
    moves.filter((m) => m !== "pass").slice(0, 4).forEach((text, i) => {
      const [from, to] = [text.slice(0, 2), text.slice(3, 5)];
      const [x1, y1] = centre(from), [x2, y2] = centre(to);
      const colour = i % 2 === 0 ? "rgba(42,122,226,0.8)" : "rgba(217,83,79,0.8)";
      svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colour}" stroke-width="0.13" marker-end="url(#head)"/>` +
        `<text x="${x1}" y="${y1 + 0.12}" font-size="0.34" text-anchor="middle" fill="#fff" stroke="#000" stroke-width="0.02">${i + 1}</text>`;
    });
    this.arrows.innerHTML = svg;
  }

  clearLine() { this.arrows.innerHTML = ""; }
}

function renderMoveList(list, moves, current) {
  list.innerHTML = "";
  moves.forEach((text, i) => {
    const item = document.createElement("li");
    item.textContent = text;
    if (i === current) item.className = "current";
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
}

function describeGame(game) {
  if (game.over) return `Game over: ${game.description}`;
  const side = game.side_to_move === "b" ? "Black" : "White";
  return `${side} to move` + (game.legal.length === 1 && game.legal[0].text === "pass" ? " (no legal move: pass)" : "");
}

// ---- play and analyse ----

const play = {
  generation: 0,  // raised by every change of the game: answers to older requests are dropped
  start: "startpos",
  moves: [],
  game: null,
  selected: null,
  search: null,  // {controller, kind: "move"|"analysis"}
  board: null,
};

function sideAfter(moves) {
  const startSide = play.game ? play.game.start.slice(-1) : "b";
  return moves.length % 2 === 0 ? startSide : (startSide === "b" ? "w" : "b");
}

function engineToMove() {
  const human = $("human-side").value;
  return play.game && !play.game.over && human !== "both" && play.game.side_to_move !== human;
}

function stopSearch() {
  if (play.search) play.search.controller.abort();
  play.search = null;
  $("analyse").textContent = "Analyse";
}

async function refreshPlay() {
  const generation = ++play.generation;
  let game;
  try {
    game = await api("/api/game", { start: play.start, moves: play.moves });
  } catch (e) {
    if (generation === play.generation) showMessage(e.message);
    return;
  }
  if (generation !== play.generation) return;  // the game changed meanwhile
  play.game = game;
  play.selected = null;
  play.board.render(play.game);
  play.board.clearLine();
  renderMoveList($("move-list"), play.game.moves);
  $("play-status").textContent = describeGame(play.game);
  $("pass").hidden = !(play.game.legal.length === 1 && play.game.legal[0].text === "pass") || engineToMove();
  if (engineToMove()) engineMove();
}

async function playMove(text) {
  stopSearch();
  const generation = ++play.generation;
  try {
    // Checked by the server before the page takes it: an illegal move changes nothing.
    const game = await api("/api/game", { start: play.start, moves: [...play.moves, text] });
    if (generation !== play.generation) return;  // new game, undo, ... meanwhile
    play.moves = game.moves;
    showMessage("");
  } catch (e) {
    if (generation === play.generation) showMessage(e.message);
    return;
  }
  refreshPlay();
}

function onPlaySquare(name, phase) {
  const game = play.game;
  if (!game || game.over || engineToMove()) return;
  const targets = game.legal.filter((m) => m.from === play.selected && m.to === name);
  if (play.selected && targets.length) {
    play.selected = null;  // at once: the release that follows must not play it again
    playMove(targets[0].text);
    return;
  }
  if (phase === "up") return;  // released where it was pressed, or off the targets
  play.selected = game.pieces[name] === game.side_to_move ? name : null;
  play.board.render(game, { selected: play.selected, targets: game.legal.filter((m) => m.from && m.from === play.selected) });
}

// A line of a MultiPV analysis: each depth's lines arrive in a row, best first; line 1 also
// goes to the iterations table and the arrows.
function showLine(info) {
  const table = $("lines-table");
  table.hidden = false;
  const body = table.tBodies[0];
  if (info.multipv === 1) body.innerHTML = "";  // a new depth
  const row = body.insertRow();
  for (const value of [info.multipv, info.depth, info.score, info.pv.join(" ")]) row.insertCell().textContent = value;
}

function showIteration(info) {
  if (info.multipv) {
    showLine(info);
    if (info.multipv > 1) return;
  }
  const row = document.createElement("tr");
  for (const value of [info.depth, info.score, info.nodes.toLocaleString(), info.nps.toLocaleString(), info.time_ms, info.pv.join(" ")]) {
    const cell = document.createElement("td");
    cell.textContent = value;
    row.appendChild(cell);
  }
  const body = document.querySelector("#iterations tbody");
  body.prepend(row);
  while (body.rows.length > 40) body.deleteRow(-1);
  $("engine-summary").textContent = `depth ${info.depth}, ${info.score}, ${info.nodes.toLocaleString()} nodes: ${info.pv.slice(0, 6).join(" ")}`;
  play.board.drawLine(info.pv);
}

async function runSearch(kind) {
  stopSearch();
  const controller = new AbortController();
  const generation = play.generation;
  play.search = { controller, kind };
  if (kind === "analysis") $("analyse").textContent = "Stop";
  document.querySelector("#iterations tbody").innerHTML = "";
  $("lines-table").tBodies[0].innerHTML = "";
  $("lines-table").hidden = true;
  $("engine-summary").textContent = kind === "move" ? "thinking…" : "analysing…";
  const params = { start: play.start, moves: play.moves.join(" "), variant: $("variant").value };
  if (kind === "move") params.movetime = Math.max(10, Number($("movetime").value) || 1000);
  else if (Number($("lines").value) > 1) params.multipv = $("lines").value;  // analysis: the best N moves
  let best = null;
  let memory = "";  // what the search's tables claim, as the server says
  const withMemory = () => {
    if (memory) $("engine-summary").textContent += ` (${memory})`;
  };
  try {
    await streamSearch(params, controller.signal, (name, data) => {
      if (name === "start") {
        memory = data.memory;
        withMemory();
      }
      if (name === "info") {
        showIteration(data);
        withMemory();
      }
      if (name === "bestmove") best = data;
      if (name === "error") showMessage(`engine: ${data.error}`);
    });
  } catch (e) {
    if (e.name !== "AbortError") showMessage(`engine: ${e.message}`);
    return;
  } finally {
    if (play.search && play.search.controller === controller) {
      play.search = null;
      $("analyse").textContent = "Analyse";
    }
  }
  if (!best || generation !== play.generation) return;
  $("engine-summary").textContent = `${kind === "move" ? "played" : "best"} ${best.move} (${best.score}, depth ${best.depth}, ${best.nodes.toLocaleString()} nodes)`;
  withMemory();
  if (kind === "move") playMove(best.move);
}

function engineMove() { runSearch("move"); }

function undo() {
  stopSearch();
  if (!play.moves.length) return;
  play.moves = play.moves.slice(0, -1);
  // Against the engine: back to a position where it is the human's turn.
  const human = $("human-side").value;
  if (human !== "both" && play.moves.length && sideAfter(play.moves) !== human) play.moves = play.moves.slice(0, -1);
  showMessage("");
  refreshPlay();
}

async function setPosition() {
  const text = $("position-text").value.trim() || "startpos";
  try {
    await api("/api/game", { start: text, moves: [] });
  } catch (e) {
    showMessage(`position: ${e.message}`);
    return;
  }
  stopSearch();
  showMessage("");
  play.start = text;
  play.moves = [];
  refreshPlay();
}

async function initPlay(config) {
  play.board = new Board($("play-board"), onPlaySquare);
  for (const preset of config.presets) $("variant").add(new Option(preset, preset, false, preset === config.variant));
  $("new-game").onclick = () => { stopSearch(); showMessage(""); play.moves = []; refreshPlay(); };
  $("undo").onclick = undo;
  $("pass").onclick = () => playMove("pass");
  $("engine-move").onclick = () => { if (play.game && !play.game.over) engineMove(); };
  $("analyse").onclick = () => {
    if (play.search && play.search.kind === "analysis") {
      stopSearch();
      if (engineToMove()) engineMove();  // an analysis begun while the engine thought
      return;
    }
    if (!play.game || play.game.over) return;
    runSearch("analysis");
  };
  $("set-position").onclick = setPosition;
  $("play-move-text").onclick = () => {
    const text = $("move-text").value.trim();
    if (!text || !play.game || play.game.over || engineToMove()) return;
    $("move-text").value = "";
    playMove(text);
  };
  $("move-text").onkeydown = (e) => { if (e.key === "Enter") $("play-move-text").click(); };
  $("human-side").onchange = () => { stopSearch(); refreshPlay(); };
  await refreshPlay();
}

// ---- replay ----

const replay = { board: null, games: [], game: null, ply: 0, cache: new Map(), opening: 0 };

async function fileOptions(select, kind) {
  select.innerHTML = "";
  let listing;
  try {
    listing = await api("/api/files");
  } catch (e) {
    select.add(new Option(e.message.includes("--records") ? "(start loa serve with --records DIR)" : e.message, ""));
    return false;
  }
  const files = listing.files.filter((f) => f.kind === kind);
  if (!files.length) select.add(new Option("(none in the records directory)", ""));
  for (const f of files) select.add(new Option(f.name, f.name));
  return files.length > 0;
}

// A file of the records directory by name, or the text of a file the user opened.
async function openRecords(name, text) {
  if (!name) return;
  const token = ++replay.opening;
  try {
    const reply = text === undefined ? await api(`/api/records/${encodeURIComponent(name)}`)
      : await fetch("/api/records", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text })
        .then(async (r) => { const d = await r.json(); if (!r.ok) throw new Error(d.error); return d; });
    if (token !== replay.opening) return;  // another file was chosen meanwhile
    replay.games = reply.games;
    showMessage("");
  } catch (e) {
    showMessage(`records: ${e.message}`);
    return;
  }
  const select = $("records-game");
  select.innerHTML = "";
  replay.games.forEach((g, i) => {
    const t = g.tags;
    select.add(new Option(`${i + 1}. ${t.Black || "?"} (b) – ${t.White || "?"} (w) ${t.Result || ""}`, String(i)));
  });
  openGame(0);
}

function openGame(index) {
  replay.game = replay.games[index];
  replay.cache.clear();
  if (!replay.game) return;
  const body = document.querySelector("#replay-tags tbody");
  body.innerHTML = "";
  for (const [tag, value] of Object.entries(replay.game.tags)) {
    const row = body.insertRow();
    row.insertCell().textContent = tag;
    row.insertCell().textContent = value;
  }
  showPly(replay.game.moves.length);
}

async function showPly(ply) {
  const g = replay.game;
  if (!g) return;
  ply = Math.max(0, Math.min(g.moves.length, ply));
  replay.ply = ply;
  let state = replay.cache.get(ply);
  if (!state) {
    try {
      state = await api("/api/game", { start: g.start, moves: g.moves.slice(0, ply) });
    } catch (e) {
      showMessage(`replay: ${e.message}`);
      return;
    }
    if (replay.game !== g) return;  // another game was opened meanwhile
    replay.cache.set(ply, state);
  }
  if (replay.game !== g || replay.ply !== ply) return;  // a later step or another game came first
  replay.board.render(state);
  $("replay-ply").textContent = `ply ${ply} / ${g.moves.length}`;
  $("replay-status").textContent = describeGame(state);
  renderMoveList($("replay-moves"), g.moves, ply - 1);
}

async function initReplay() {
  replay.board = new Board($("replay-board"));
  $("records-file").onchange = (e) => openRecords(e.target.value);
  $("records-game").onchange = (e) => openGame(Number(e.target.value));
  $("replay-first").onclick = () => showPly(0);
  $("replay-back").onclick = () => showPly(replay.ply - 1);
  $("replay-forward").onclick = () => showPly(replay.ply + 1);
  $("replay-last").onclick = () => showPly(Infinity);
  document.addEventListener("keydown", (e) => {
    if ($("replay").hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step) showPly(replay.ply + step);
    if (e.key === "Home") showPly(0);
    if (e.key === "End") showPly(Infinity);
  });
  $("records-upload").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) openRecords(file.name, await file.text());
  };
  const listed = await fileOptions($("records-file"), "records");
  window.addEventListener("hashchange", openFromAddress);
  if (!(await openFromAddress()) && listed) openRecords($("records-file").value);
}

// A link to a record: #replay=NAME opens it (on load, or when the address changes).
async function openFromAddress() {
  const wanted = new URLSearchParams(location.hash.slice(1)).get("replay");
  if (!wanted) return false;
  showTab("replay");
  await openRecords(wanted);
  return true;
}

// ---- watch a match ----

const watch = { timer: null, busy: false };

function cells(row, values) {
  for (const v of values) row.insertCell().textContent = v;
}

async function refreshWatch() {
  const name = $("match-file").value;
  if (!name || $("watch").hidden || watch.busy) return;
  let m;
  watch.busy = true;
  try {
    m = await api(`/api/match/${encodeURIComponent(name)}`);
  } catch (e) {
    showMessage(`match: ${e.message}`);
    return;
  } finally {
    watch.busy = false;
  }
  if (name !== $("match-file").value) return;
  const fmt = (x, digits = 1) => (typeof x === "number" && isFinite(x) ? x.toFixed(digits) : "–");
  $("watch-summary").textContent = `${m.event}: ${m.played_games} of ${m.scheduled_games} games` +
    (m.running ? " (running)" : m.source === "state" ? " (stopped: the same command resumes it)" : " (finished)") +
    (m.stopped_by_sprt ? ", stopped by SPRT" : "");
  const pairings = document.querySelector("#watch-pairings tbody");
  pairings.innerHTML = "";
  for (const p of m.pairings || []) {
    const sprt = p.sprt ? `LLR ${fmt(p.sprt.llr, 2)} [${fmt(p.sprt.lower, 2)}, ${fmt(p.sprt.upper, 2)}] ${p.sprt.decision}` : "";
    cells(pairings.insertRow(), [p.first, p.second, p.wins, p.draws, p.losses, fmt(p.score, 3),
      `${fmt(p.elo)} [${fmt(p.elo_low)}, ${fmt(p.elo_high)}]`, (p.pentanomial || []).join(" "), sprt]);
  }
  const ratings = document.querySelector("#watch-ratings tbody");
  ratings.innerHTML = "";
  $("watch-ratings").hidden = !m.ratings;
  for (const r of m.ratings || []) cells(ratings.insertRow(), [r.engine, fmt(r.elo), fmt(r.error), r.points, r.games]);
  const live = $("watch-live");
  live.innerHTML = "";
  for (const g of m.in_progress || []) {
    const figure = document.createElement("figure");
    const frame = document.createElement("div");
    frame.className = "board-frame";
    figure.appendChild(frame);
    new Board(frame).render(g);
    const caption = document.createElement("figcaption");
    caption.textContent = `game ${g.game}: ${g.black} (b) – ${g.white} (w), ply ${g.plies}, ${g.side_to_move === "b" ? "Black" : "White"} to move`;
    figure.appendChild(caption);
    live.appendChild(figure);
  }
  if (!(m.in_progress || []).length) live.textContent = m.running ? "none at the moment" : m.source === "state" ? "none: the run is not playing" : "none: the match is over";
  const games = document.querySelector("#watch-games tbody");
  games.innerHTML = "";
  for (const g of (m.games || []).slice().reverse()) cells(games.insertRow(), [g.game, g.black, g.white, g.result, g.termination, g.plies]);
  $("watch-updated").textContent = `updated ${new Date().toLocaleTimeString()}` + (m.running ? ", every 2 s" : "");
}

async function initWatch() {
  $("match-file").onchange = refreshWatch;
  await fileOptions($("match-file"), "match");
  watch.timer = setInterval(refreshWatch, 2000);
}

// ---- experiments ----

async function showTreesize(name) {
  if (!name) return;
  let t;
  try {
    t = await api(`/api/treesize/${encodeURIComponent(name)}`);
  } catch (e) {
    showMessage(`tree size: ${e.message}`);
    return;
  }
  const names = t.variants.map((v) => v.name);
  $("treesize-summary").textContent = `${t.positions} positions, evaluation ${t.eval}; ratio = nodes / nodes of ${t.baseline}`;
  const head = document.querySelector("#treesize-table thead");
  head.innerHTML = "";
  cells(head.insertRow(), ["depth", ...names.flatMap((n) => [`${n} nodes`, "ratio"])]);
  const body = document.querySelector("#treesize-table tbody");
  body.innerHTML = "";
  for (const row of t.depths) {
    cells(body.insertRow(), [row.depth, ...row.variants.flatMap((v) => [v.nodes.toLocaleString(), v.ratio.toFixed(3)])]);
  }
  // Nodes against depth on a log scale, one line per variant.
  const svg = $("treesize-plot");
  const W = 720, H = 360, left = 70, right = 230, top = 20, bottom = 40;
  const depths = t.depths.map((r) => r.depth);
  const all = t.depths.flatMap((r) => r.variants.map((v) => Math.max(1, v.nodes)));
  const lo = Math.floor(Math.log10(Math.min(...all))), hi = Math.ceil(Math.log10(Math.max(...all)));
  const x = (d) => left + (depths.length > 1 ? (d - depths[0]) / (depths[depths.length - 1] - depths[0]) : 0.5) * (W - left - right);
  const y = (n) => top + (1 - (Math.log10(Math.max(1, n)) - lo) / Math.max(1, hi - lo)) * (H - top - bottom);
  const colours = ["#2a7ae2", "#d9534f", "#5cb85c", "#f0ad4e", "#6f42c1", "#17a2b8", "#333", "#e83e8c"];
  let out = "";
  for (let e = lo; e <= hi; ++e) {
    out += `<line x1="${left}" x2="${W - right}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/>` +
      `<text x="${left - 6}" y="${y(10 ** e) + 4}" font-size="11" text-anchor="end">1e${e}</text>`;
  }
  for (const d of depths) out += `<text x="${x(d)}" y="${H - bottom + 16}" font-size="11" text-anchor="middle">${d}</text>`;
  out += `<text x="${(left + W - right) / 2}" y="${H - 6}" font-size="12" text-anchor="middle">depth</text>`;
  names.forEach((n, i) => {
    const points = t.depths.map((r) => `${x(r.depth)},${y(r.variants[i].nodes)}`).join(" ");
    const c = colours[i % colours.length];
    out += `<polyline points="${points}" fill="none" stroke="${c}" stroke-width="2"/>` +
      `<text x="${W - right + 8}" y="${top + 14 * (i + 1)}" font-size="11" fill="${c}">${n}</text>`;
  });
  svg.innerHTML = out;
  showMessage("");
}

async function initExperiments() {
  $("treesize-file").onchange = (e) => showTreesize(e.target.value);
  if (await fileOptions($("treesize-file"), "treesize")) showTreesize($("treesize-file").value);
}

// ---- tabs ----

function showTab(name) {
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== name;
  showMessage("");
  if (name === "watch") refreshWatch();
}

async function main() {
  for (const button of document.querySelectorAll("#tabs button")) button.onclick = () => showTab(button.dataset.tab);
  let config;
  try {
    config = await api("/api/config");
  } catch (e) {
    showMessage(`server: ${e.message}`);
    return;
  }
  await initPlay(config);
  await Promise.all([initReplay(), initWatch(), initExperiments()]);
  document.body.dataset.ready = "true";  // for tests: the page has loaded its first game and its lists
}

main();
