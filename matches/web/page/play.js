// Play and analyse: a game against the engine (or both sides by hand), with a clock if chosen,
// and an analysis that follows the position on the board. The page holds the game (start,
// moves, rules); the server replays it under the rules for every view and runs the engine.

import { $, api, showMessage, streamSearch } from "./api.js";
import { Board } from "./board.js";
import { GameClock, parseTimeControl } from "./clock.js";
import { renderMoveList, resultLine } from "./move_list.js";
import { blackView } from "./score.js";

const SIDE = { b: "Black", w: "White" };
const other = (side) => (side === "b" ? "w" : "b");

const play = {
  generation: 0,    // raised by every change of what is shown: answers to older requests are dropped
  start: "startpos",
  moves: [],        // the game's moves
  ply: 0,           // the position shown: after this many of them
  game: null,       // the server's view of the position shown
  end: null,        // the game's result when it has ended by the rules: {result, description}
  selected: null,
  search: null,     // {controller, kind: "move"|"analysis", generation, side}
  analysing: false, // analysis mode: every position shown is analysed until Stop
  board: null,
  clock: null,      // a GameClock when the game is played on a clock
  flag: null,       // the side whose flag fell
  timeControl: "",  // the clock's "minutes+seconds", as chosen when the game began
};

const humanSide = () => $("human-side").value;
const atEnd = () => play.ply === play.moves.length;
const startSide = () => (play.game ? play.game.start.slice(-1) : "b");
const sideAfter = (plies) => (plies % 2 === 0 ? startSide() : other(startSide()));  // a pass is a move too
const over = () => Boolean(play.game && (play.game.over || (play.flag && atEnd())));
const gameRequest = (moves) => ({ start: play.start, moves, rules: $("rules").value });

function engineToMove() {
  const human = humanSide();
  return Boolean(play.game) && atEnd() && !over() && human !== "both" && play.game.side_to_move !== human;
}

// A word under the board about the last thing the user tried (not an error: those are red).
function hint(text) { $("play-hint").textContent = text; }

function stopSearch() {
  if (play.search) play.search.controller.abort();
  play.search = null;
  updateButtons();
}

function updateButtons() {
  $("analyse").textContent = play.analysing ? "Stop" : "Analyse";
  $("analyse").setAttribute("aria-pressed", String(play.analysing));
  const onlyPass = play.game && play.game.legal.length === 1 && play.game.legal[0].text === "pass";
  $("pass").hidden = !onlyPass || engineToMove() || over();
  $("movetime").disabled = Boolean(play.clock);
}

// ---- showing the position ----

function clearEnginePanel(text = "idle") {
  document.querySelector("#iterations tbody").innerHTML = "";
  $("lines-table").tBodies[0].innerHTML = "";
  $("lines-table").hidden = true;
  $("engine-summary").textContent = text;
  $("eval-bar").hidden = true;
  play.board.clearLine();
}

function gameOverText() {
  if (play.flag) return `${SIDE[play.flag]}'s flag fell: ${SIDE[other(play.flag)]} wins on time`;
  return play.end ? `Game over: ${play.end.description}` : "";
}

function statusText() {
  const game = play.game;
  if (over()) return gameOverText();
  let text = `${SIDE[game.side_to_move]} to move`;
  if (game.legal.length === 1 && game.legal[0].text === "pass") text += " (no legal move: pass)";
  if (engineToMove()) text += ": the engine is thinking";
  if (!atEnd()) text += ` · move ${play.ply} of ${play.moves.length} (▶ or End: back to the game)`;
  return text;
}

function draw() {
  const game = play.game;
  const connected = game.over && game.termination.includes("connection") ? game.connected : [];
  play.board.render(game, { selected: play.selected, connected,
    targets: play.selected ? game.legal.filter((m) => m.from === play.selected) : [] });
  const endText = play.flag ? resultLine(play.flag === "b" ? "1-0" : "0-1", `${SIDE[play.flag]} loses on time`)
    : play.end ? resultLine(play.end.result, play.end.description) : "";
  renderMoveList($("move-list"), { moves: play.moves, startSide: startSide(), current: play.ply, result: endText, onSelect: goTo });
  $("play-status").textContent = statusText();
  $("play-status").classList.toggle("over", over());
  updateButtons();
  drawClocks();
}

// Fetches the position shown, draws it, and starts what it calls for: the engine's move, or
// the analysis when analysis is on.
async function refresh() {
  const generation = ++play.generation;
  stopSearch();  // a search of the previous position must not report into this one
  let game;
  try {
    game = await api("/api/game", gameRequest(play.moves.slice(0, play.ply)));
  } catch (e) {
    if (generation === play.generation) showMessage(e.message);
    return;
  }
  if (generation !== play.generation) return;  // the game changed meanwhile
  play.game = game;
  play.selected = null;
  if (atEnd()) play.end = game.over ? { result: game.result, description: game.description } : null;
  clearEnginePanel();
  runClock();
  draw();
  updateAddress();
  if (engineToMove()) {
    runSearch("move");
  } else if (play.analysing) {
    if (!over()) runSearch("analysis");
    else $("engine-summary").textContent = `no analysis: ${gameOverText().toLowerCase()}`;
  }
}

function goTo(ply) {
  ply = Math.max(0, Math.min(play.moves.length, ply));
  if (ply === play.ply) return;
  play.ply = ply;
  hint("");
  refresh();
}

// ---- moves ----

async function playMove(text) {
  if (!atEnd() && play.clock) {
    hint("The clock is running: go to the last move (End) to play on.");
    return;
  }
  const before = play.moves.slice(0, play.ply);  // a move played at an earlier position starts a new line
  const mover = play.game.side_to_move;
  const generation = ++play.generation;
  stopSearch();
  let game;
  try {
    // Checked by the server before the page takes it: an illegal move changes nothing.
    game = await api("/api/game", gameRequest([...before, text]));
  } catch (e) {
    if (generation === play.generation) showMessage(e.message);
    return;
  }
  if (generation !== play.generation) return;  // new game, undo, ... meanwhile
  if (play.clock) play.clock.press(mover);
  play.moves = game.moves;
  play.ply = play.moves.length;
  showMessage("");
  hint("");
  refresh();
}

// Why the board takes no move now, said when the user tries.
function explainNoInput() {
  if (over()) hint(`${gameOverText()}. New game starts another.`);
  else if (engineToMove()) hint("The engine is thinking: wait for its move, or Undo.");
}

function onPlaySquare(name, phase) {
  const game = play.game;
  if (!game) return false;
  if (over() || engineToMove()) {
    if (phase === "down") explainNoInput();
    return false;
  }
  const targets = game.legal.filter((m) => m.from === play.selected && m.to === name);
  if (play.selected && targets.length) {
    play.selected = null;  // at once: the release that follows must not play it again
    playMove(targets[0].text);
    return false;
  }
  if (phase === "up") {
    if (play.selected && name !== play.selected) illegal(play.selected, name);  // a drag to a square it cannot reach
    return false;
  }
  if (game.pieces[name] === game.side_to_move) {
    play.selected = name;
    hint("");
    draw();
    return true;  // the piece may be dragged
  }
  if (play.selected) illegal(play.selected, name);
  else if (game.pieces[name]) hint(`${SIDE[game.side_to_move]} is to move: that is a ${SIDE[game.pieces[name]].toLowerCase()} piece.`);
  play.selected = null;
  draw();
  return false;
}

function illegal(from, to) {
  const reachable = play.game.legal.filter((m) => m.from === from).map((m) => m.to);
  hint(`${from}-${to} is not a legal move: a piece moves exactly as many squares as there are pieces on its line, ` +
    `over its own pieces but not the opponent's. ${from} can reach ${reachable.length ? reachable.join(", ") : "no square"}.`);
}

function undo() {
  if (play.flag) {
    hint("The game ended on time: New game starts another.");
    return;
  }
  let n = play.moves.length - 1;
  if (n < 0) {
    hint("There is no move to take back.");
    return;
  }
  // Against the engine: back to the last position where it was the user's turn. The engine's
  // first move stays (taking it back would only make the engine play it again).
  const human = humanSide();
  if (human !== "both") {
    while (n > 0 && sideAfter(n) !== human) --n;
    if (sideAfter(n) !== human) {
      hint("The engine's first move stays: there is no move of yours to take back.");
      return;
    }
  }
  play.moves = play.moves.slice(0, n);
  play.ply = n;
  showMessage("");
  hint("");
  refresh();
}

// ---- the engine ----

function showIteration(info, side, kind) {
  const view = blackView(info.score, side);
  if (info.multipv) {
    const table = $("lines-table");
    table.hidden = false;
    const body = table.tBodies[0];
    if (info.multipv === 1) body.innerHTML = "";  // a new depth: its lines arrive in a row, best first
    const row = body.insertRow();
    for (const value of [info.multipv, info.depth, view.text, info.pv.join(" ")]) row.insertCell().textContent = value;
    if (info.multipv > 1) return;
  }
  const row = document.querySelector("#iterations tbody").insertRow(0);
  for (const value of [info.depth, view.text, info.nodes.toLocaleString(), info.nps.toLocaleString(), info.time_ms, info.pv.join(" ")])
    row.insertCell().textContent = value;
  row.cells[2].className = row.cells[3].className = row.cells[4].className = "wide-only";
  const body = document.querySelector("#iterations tbody");
  while (body.rows.length > 40) body.deleteRow(-1);
  $("engine-summary").textContent = `depth ${info.depth} · ${view.text} · ${info.nodes.toLocaleString()} nodes · ${info.pv.slice(0, 6).join(" ")}`;
  showEvaluation(view);
  const arrows = $("arrows").value;
  if (arrows === "always" || (arrows === "analysis" && kind === "analysis")) play.board.drawLine(info.pv);
  else play.board.clearLine();
}

// The evaluation bar: Black's share, the score in Black's view or the proven result.
function showEvaluation(view) {
  const bar = $("eval-bar");
  bar.hidden = false;
  bar.querySelector(".eval-black").style.width = `${(view.black * 100).toFixed(1)}%`;
  const label = view.proven ? view.text : `${view.text} (Black's view)`;
  $("eval-text").textContent = label;
  bar.setAttribute("aria-label", `evaluation: ${label}`);
}

async function runSearch(kind) {
  stopSearch();
  const controller = new AbortController();
  const generation = play.generation;
  const side = play.game.side_to_move;
  play.search = { controller, kind, generation, side };
  updateButtons();
  clearEnginePanel(kind === "move" ? "thinking…" : "analysing…");
  const params = { start: play.start, moves: play.moves.slice(0, play.ply).join(" "), rules: $("rules").value, variant: $("variant").value };
  if (kind === "move" && play.clock) {
    // The engine plans its own time (the tournament time manager) from both clocks.
    params.btime = Math.round(Math.max(0, play.clock.remaining("b")));
    params.wtime = Math.round(Math.max(0, play.clock.remaining("w")));
    params.binc = params.winc = Math.round(play.clock.increment);
  } else if (kind === "move") {
    params.movetime = Math.max(10, Number($("movetime").value) || 1000);
  } else if (Number($("lines").value) > 1) {
    params.multipv = $("lines").value;  // analysis: the best N moves
  }
  const current = () => generation === play.generation && play.search && play.search.controller === controller;
  let best = null;
  let memory = "";  // what the search's tables claim, as the server says
  try {
    await streamSearch(params, controller.signal, (name, data) => {
      if (!current()) return;
      if (name === "start") memory = data.memory;
      if (name === "info") showIteration(data, side, kind);
      if (name === "bestmove") best = data;
      if (name === "error") showMessage(`engine: ${data.error}`);
      if (memory && name !== "bestmove") $("engine-summary").textContent += ` (${memory})`;
    });
  } catch (e) {
    if (e.name !== "AbortError" && current()) showMessage(`engine: ${e.message}`);
    return;
  } finally {
    if (play.search && play.search.controller === controller) {
      play.search = null;
      if (kind === "analysis") play.analysing = false;  // it ended by itself (depth, proof or the server's cap)
      updateButtons();
    }
  }
  if (!best || generation !== play.generation) return;
  $("engine-summary").textContent = `${kind === "move" ? "played" : "best"} ${best.move} (${blackView(best.score, side).text}, depth ${best.depth}, ` +
    `${best.nodes.toLocaleString()} nodes)`;
  if (kind === "move") playMove(best.move);
}

function analyse() {
  if (play.analysing) {
    play.analysing = false;
    stopSearch();
    if (engineToMove()) runSearch("move");  // an analysis begun while the engine thought
    return;
  }
  if (over()) {
    hint(`${gameOverText()}: there is nothing to analyse.`);
    return;
  }
  play.analysing = true;
  hint("");
  runSearch("analysis");
}

function engineMoveNow() {
  if (over()) hint(`${gameOverText()}: the engine has no move to make.`);
  else if (!atEnd()) hint("Go to the last move (End) first: the engine plays on from there.");
  else runSearch("move");
}

// ---- the clock ----

function runClock() {
  if (!play.clock || play.flag) return;
  if (atEnd() && play.game.over) play.clock.pause();  // the game ended by the rules
  else if (atEnd()) play.clock.start(play.game.side_to_move);
}

function drawClocks() {
  const box = $("play-clocks");
  box.hidden = !play.clock;
  if (!play.clock) return;
  // The clocks in the board's order: the side at the top first.
  const top = play.board.flipped ? "w" : "b";
  for (const [slot, side] of [["clock-top", top], ["clock-bottom", other(top)]]) {
    const el = $(slot);
    el.dataset.side = side;
    el.textContent = `${SIDE[side]} ${GameClock.format(play.clock.remaining(side))}`;
    el.classList.toggle("running", play.clock.running === side);
    el.classList.toggle("flagged", play.flag === side);
  }
}

function tick() {
  if (!play.clock) return;
  const flagged = play.clock.running && play.clock.flagged();
  if (flagged && !play.flag) {
    play.flag = flagged;
    play.clock.pause();
    play.clock.left[flagged] = 0;
    play.analysing = false;
    stopSearch();
    if (!atEnd()) play.ply = play.moves.length;
    draw();
    updateAddress();
    return;
  }
  drawClocks();
}

// ---- games, positions, links ----

function newGame(start = $("start-kind").value) {
  stopSearch();
  showMessage("");
  hint("");
  play.start = start;
  play.moves = [];
  play.ply = 0;
  play.flag = null;
  play.end = null;
  play.timeControl = parseTimeControl($("clock").value.trim()) ? $("clock").value.trim() : "";
  const tc = parseTimeControl(play.timeControl);
  play.clock = tc ? new GameClock(tc.base, tc.increment) : null;
  return refresh();
}

async function setPosition() {
  const text = $("position-text").value.trim() || "startpos";
  try {
    await api("/api/game", { start: text, moves: [], rules: $("rules").value });
  } catch (e) {
    showMessage(e.message);  // the server names the fault ("position: 7 ranks given, ...")
    return;
  }
  newGame(text);
}

// The game in the address (#start=...&moves=...&rules=...&ply=...), so that a link opens it.
function updateAddress() {
  const params = new URLSearchParams();
  if (play.start !== "startpos") params.set("start", play.start);
  if (play.moves.length) params.set("moves", play.moves.join(" "));
  if ($("rules").value !== "olympiad") params.set("rules", $("rules").value);
  if (!atEnd()) params.set("ply", String(play.ply));
  const hash = params.toString();
  if (location.hash.slice(1) !== hash && !$("play").hidden) history.replaceState(null, "", hash ? `#${hash}` : location.pathname);
}

export async function openGameFromAddress(params) {
  const rules = params.get("rules") || "olympiad";
  const start = params.get("start") || "startpos";
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  try {
    if (![...$("rules").options].some((o) => o.value === rules)) throw new Error(`unknown rule set '${rules}'`);
    $("rules").value = rules;
    const game = await api("/api/game", { start, moves, rules });
    $("human-side").value = "both";  // a game opened from a link is looked at, not played against
    play.board.flip(false);
    newGameState(start, game.moves);
    const ply = Number(params.get("ply"));
    play.ply = params.has("ply") && Number.isInteger(ply) ? Math.max(0, Math.min(game.moves.length, ply)) : game.moves.length;
  } catch (e) {
    showMessage(`link: ${e.message}`);
    return;
  }
  await refresh();
}

function newGameState(start, moves) {
  stopSearch();
  play.start = start;
  play.moves = moves;
  play.ply = moves.length;
  play.flag = null;
  play.end = null;
  play.clock = null;
  $("clock").value = "";
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    hint(`${what} copied.`);
  } catch {
    hint(`${what}: ${text}`);  // no clipboard here (an insecure page, a headless browser): shown instead
  }
}

function copyPosition() {
  if (!play.game) return;
  $("position-text").value = play.game.position;
  copyText(play.game.position, "Position");
}

async function downloadPgn() {
  const human = humanSide();
  const engine = `loa (${$("variant").value})`;
  const name = (side) => (human === "both" ? "?" : human === side ? "user" : engine);
  const today = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  const tc = parseTimeControl(play.timeControl);
  let reply;
  try {
    reply = await api("/api/pgn", { ...gameRequest(play.moves), black: name("b"), white: name("w"), date: today,
      time_control: play.clock ? `${tc.base / 1000}+${tc.increment / 1000}` : "", time_forfeit: play.flag || "" });
  } catch (e) {
    showMessage(`PGN: ${e.message}`);
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([reply.pgn], { type: "application/vnd.chess-pgn" }));
  link.download = `loa-${today.replaceAll(".", "")}.pgn`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  hint(`Game saved as ${link.download}.`);
}

// The arrow keys and Home / End walk through the game (the board keeps its own arrow keys).
function onKey(e) {
  if ($("play").hidden || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const to = { ArrowLeft: play.ply - 1, ArrowRight: play.ply + 1, Home: 0, End: play.moves.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
}

export async function initPlay(config) {
  play.board = new Board($("play-board"), { onSquare: onPlaySquare, label: "game board" });
  for (const preset of config.presets) $("variant").add(new Option(preset, preset, false, preset === config.variant));
  for (const r of config.rules) $("rules").add(new Option(r.name, r.name, false, r.name === "olympiad"));
  $("rules").title = config.rules.map((r) => `${r.name}: ${r.description}`).join("\n");
  $("new-game").onclick = () => newGame();
  $("undo").onclick = undo;
  $("pass").onclick = () => playMove("pass");
  $("engine-move").onclick = engineMoveNow;
  $("analyse").onclick = analyse;
  $("flip").onclick = () => { play.board.flip(!play.board.flipped); draw(); };
  $("set-position").onclick = setPosition;
  $("position-text").onkeydown = (e) => { if (e.key === "Enter") setPosition(); };
  $("copy-position").onclick = copyPosition;
  $("copy-link").onclick = () => { updateAddress(); copyText(location.href, "Link"); };
  $("download-pgn").onclick = downloadPgn;
  $("play-move-text").onclick = () => {
    const text = $("move-text").value.trim();
    if (!text || !play.game) return;
    if (over() || engineToMove()) {
      explainNoInput();
      return;
    }
    $("move-text").value = "";
    playMove(text);
  };
  $("move-text").onkeydown = (e) => { if (e.key === "Enter") $("play-move-text").click(); };
  $("human-side").onchange = () => {
    play.board.flip(humanSide() === "w");  // the user's pieces at the bottom
    refresh();
  };
  $("rules").onchange = () => { newGame(); hint(`A new game under the ${$("rules").value} rules.`); };
  $("start-kind").onchange = () => newGame();
  $("clock").onchange = () => {
    const text = $("clock").value.trim();
    if (text && !parseTimeControl(text)) {
      hint(`'${text}' is not a clock: minutes + seconds a move, e.g. 5+3 (empty: a fixed time a move).`);
      return;
    }
    newGame().then(() => hint(play.clock ? `A new game on a ${text} clock (minutes + seconds a move).` : "A new game without a clock."));
  };
  $("arrows").onchange = () => { if (!play.search || $("arrows").value === "never") play.board.clearLine(); };
  document.addEventListener("keydown", onKey);
  setInterval(tick, 100);
  await newGame();
}

export function playVisible() { updateAddress(); }
