// The operator's mode, for over-the-board tournaments (a Computer Olympiad): the operator relays
// moves between the engine and the opponent's operator. Both clocks are on the page, each side
// with its own time and increment; the operator enters the opponent's move, the engine thinks
// on its own time and ponders on the opponent's; the game is saved on the server after every
// move (matches/web/operator_games.hpp), so that the same address (#operator=ID) resumes it,
// clocks as they stood, after a browser or a server restart. A finished game is a PGN record
// with both clocks' times after every move ({[%clk 0:04:31]}).

import { $, api, copyText, downloadText, showMessage, streamSearch } from "./api.js";
import { Board } from "./board.js";
import { GameClock } from "./clock.js";
import { renderMoveList, resultLine } from "./move_list.js";
import { blackView } from "./score.js";

const SIDE = { b: "Black", w: "White" };
const other = (side) => (side === "b" ? "w" : "b");

const op = {
  id: "",           // the saved game's id ("" while no game is open)
  revision: 0,      // the last revision this page saved or read
  info: {},         // event, round, site, opponent, engine (the names in the record)
  engineSide: "b",
  variant: "full",
  start: "startpos",
  rules: "olympiad",
  moves: [],
  clockAfter: [],   // the mover's time left after each move (ms)
  clocks: null,     // {b: {base_ms, increment_ms}, w: {...}} as set
  clock: null,      // the running GameClock
  ending: { time_forfeit: "", resigned: "", draw_agreed: false },
  game: null,       // the server's view of the position after the moves
  selected: null,
  line: 0,          // raised by every change of the moves: answers about older ones are dropped
  search: null,     // {controller, kind: "move"|"ponder", line, predicted, ponderId, best}
  lastPv: null,     // the engine's last line: its second move is the reply it ponders on
  paused: false,    // the clocks stopped by the operator (an arbiter's pause): the engine waits
  saving: Promise.resolve(),
  unsaved: false,   // a save failed (the server is away): tried again until it lands
  board: null,
};

const opponentSide = () => other(op.engineSide);
const endedOffBoard = () => Boolean(op.ending.time_forfeit || op.ending.resigned || op.ending.draw_agreed);
const over = () => Boolean(op.game && (op.game.over || endedOffBoard()));
const engineToMove = () => Boolean(op.game) && !over() && op.game.side_to_move === op.engineSide;
const gameRequest = (moves = op.moves) => ({ start: op.start, moves, rules: op.rules });
const names = () => ({
  engine: op.info.engine || `loa (${op.variant})`,
  opponent: op.info.opponent || "opponent",
});

function hint(text) { $("op-hint").textContent = text; }

// ---- saving: after every change, in order, until it lands ----

function state() {
  const left = { b: Math.round(op.clock.remaining("b")), w: Math.round(op.clock.remaining("w")) };
  return { revision: op.revision, ...op.info, engine_side: op.engineSide, start: op.start, rules: op.rules,
    moves: op.moves, clocks: op.clocks, clock_after_ms: op.clockAfter, left_ms: left, running: over() ? "" : op.clock.running || "",
    ending: op.ending };
}

// A save whose answer was lost (the server saved, then went away) is known by what it saved:
// the game on the server is this page's.
const sameGame = (saved, sent) => ["moves", "clock_after_ms", "ending"].every((key) => JSON.stringify(saved[key]) === JSON.stringify(sent[key]));

function save() {
  const id = op.id;
  if (!id) return op.saving;
  op.saving = op.saving.then(async () => {
    for (let attempt = 1; id === op.id; ++attempt) {
      const sent = state();
      try {
        const saved = await api(`/api/operator/${id}`, sent);
        if (id !== op.id) return;
        op.revision = saved.revision;
        op.unsaved = false;
        showSaved();
        return;
      } catch (e) {
        if (id !== op.id) return;
        op.unsaved = true;
        if (e.status === 409) {
          // Saved meanwhile: by this page (its answer lost), then go on from that revision; by
          // another tab, then this one stops rather than overwrite it.
          try {
            const there = await api(`/api/operator/${id}`);
            if (sameGame(there, sent)) {
              op.revision = there.revision;
              continue;
            }
          } catch {
            // not readable now: tried again below
          }
          showSaved(`not saved: ${e.message}`);
          showMessage(`operator: ${e.message}`);
          return;
        }
        if (e.status >= 400 && e.status < 500) {  // refused: trying again would not help
          showSaved(`not saved: ${e.message}`);
          showMessage(`operator: the game could not be saved: ${e.message}`);
          return;
        }
        showSaved(`not saved (${e.message}): trying again`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * attempt)));
      }
    }
  });
  return op.saving;
}

function showSaved(text = "") {
  const box = $("op-saved");
  box.textContent = text || `saved on the server (revision ${op.revision})`;
  box.classList.toggle("unsaved", op.unsaved);
  box.dataset.revision = String(op.revision);
}

// ---- the engine: its move on its own time, pondering on the opponent's ----

function stopSearch() {
  if (op.search) op.search.controller.abort();
  op.search = null;
}

function clockParams() {
  const params = {};
  for (const side of ["b", "w"]) {
    params[`${side}time`] = Math.round(Math.max(1, op.clock.remaining(side)));
    params[`${side}inc`] = Math.round(op.clocks[side].increment_ms);
  }
  return params;
}

function showIteration(info, kind) {
  const view = blackView(info.score, op.engineSide);
  const row = document.querySelector("#op-iterations tbody").insertRow(0);
  for (const value of [info.depth, view.text, info.nodes.toLocaleString(), info.time_ms, info.pv.slice(0, 8).join(" ")])
    row.insertCell().textContent = value;
  const body = document.querySelector("#op-iterations tbody");
  while (body.rows.length > 30) body.deleteRow(-1);
  $("op-engine").textContent = `${kind === "ponder" ? `pondering on ${op.search.predicted}` : "thinking"}: depth ${info.depth} · ${view.text} (Black's view) · ` +
    `${info.nodes.toLocaleString()} nodes · ${info.pv.slice(0, 6).join(" ")}`;
}

// One search stream: the engine's move, or its ponder on the move it expects of the opponent.
// A ponder hit turns the search into the move's (kind and line follow the game), and its stream
// then ends as a move search's does.
async function runSearch(kind, attempt = 1) {
  stopSearch();
  const controller = new AbortController();
  const search = { controller, kind, line: op.line, predicted: null, ponderId: null, best: null };
  const moves = op.moves.slice();
  if (kind === "ponder") {
    search.predicted = op.lastPv && op.lastPv[1];
    if (!search.predicted) return;  // no expected reply: nothing to ponder on
    moves.push(search.predicted);
  }
  op.search = search;
  $("operator").dataset.ponder = search.predicted || "";  // what it ponders on (the browser test plays it)
  if (kind === "move") document.querySelector("#op-iterations tbody").innerHTML = "";
  const params = { ...gameRequest(moves), moves: moves.join(" "), variant: op.variant, ...clockParams() };
  if (kind === "ponder") params.ponder = "1";
  let failure = "";
  try {
    await streamSearch(params, controller.signal, (name, data) => {
      if (op.search !== search) return;
      if (name === "ponder") search.ponderId = data.id;
      if (name === "info") showIteration(data, search.kind);
      if (name === "bestmove") search.best = data;
      if (name === "error") failure = data.error;
    });
  } catch (e) {
    if (e.name === "AbortError" || op.search !== search) return;
    failure = e.message;
  }
  if (op.search !== search) return;
  if (search.kind === "ponder") {
    // It ended before the opponent moved (a proof, the server's cap, the server gone): its move
    // is kept for a hit, and nothing is retried: the move's own search follows the opponent's.
    if (!search.best) op.search = null;
    return;
  }
  op.search = null;
  const line = search.line;
  if (line !== op.line || !engineToMove()) return;
  if (!search.best) {
    // The engine's move is never lost to a busy or restarting server: asked again until it comes.
    hint(`The engine could not search (${failure || "no answer"}): trying again.`);
    setTimeout(() => { if (line === op.line && engineToMove() && !op.search) runSearch("move", attempt + 1); },
      Math.min(5000, 500 * attempt));
    return;
  }
  engineMoved(search.best);
}

async function engineMoved(best) {
  const line = op.line;
  let game;
  try {
    game = await api("/api/game", gameRequest([...op.moves, best.move]));
  } catch (e) {
    showMessage(`engine: ${e.message}`);
    return;
  }
  if (line !== op.line || over() || op.paused) return;
  if (op.clock.remaining(op.engineSide) <= 0) {  // its flag fell first
    tick();
    return;
  }
  op.lastPv = best.pv;
  $("op-engine").textContent = `played ${best.move} (${blackView(best.score, op.engineSide).text}, depth ${best.depth}, ` +
    `${best.nodes.toLocaleString()} nodes)`;
  $("op-relay").textContent = `${names().engine} plays ${best.move}: relay it`;
  $("op-relay").dataset.move = best.move;
  addMove(game, op.engineSide);
}

// A move on the board: the mover's clock stops (its increment added), the other's runs, and
// the game is saved before anything else happens.
function addMove(game, mover) {
  ++op.line;
  op.clock.press(mover);
  op.clockAfter.push(Math.max(0, Math.round(op.clock.remaining(mover))));
  op.moves = game.moves;
  save();
  show(game);
}

// The opponent's move, as their operator announced it. A hit on the ponder move turns the
// pondering search into the move's own; a miss stops it and the engine thinks afresh.
async function opponentMove(text) {
  if (!op.game || over() || engineToMove()) return;
  if (op.paused) {
    hint("The clocks are stopped: Start clocks first.");
    return;
  }
  const line = op.line;
  let game;
  try {
    game = await api("/api/game", gameRequest([...op.moves, text]));  // an illegal move changes nothing
  } catch (e) {
    if (line === op.line) showMessage(e.message);
    return;
  }
  if (line !== op.line || over() || op.paused) return;
  // A move made after the flag fell (the tick that sees it comes every 100 ms) is not a move.
  if (op.moves.length && op.clock.remaining(opponentSide()) <= 0) {
    tick();
    return;
  }
  showMessage("");
  $("op-relay").textContent = "";
  delete $("op-relay").dataset.move;
  const move = game.moves[game.moves.length - 1];
  const ponder = op.search && op.search.kind === "ponder" ? op.search : null;
  const hit = ponder && ponder.predicted === move;
  if (ponder && !hit) {
    stopSearch();  // a miss: the move's own search starts with the move
    hint(`Ponder miss: the engine expected ${ponder.predicted}.`);
  }
  addMove(game, opponentSide());  // (a hit keeps its search: none other starts)
  if (!hit) return;
  ponder.line = op.line;
  ponder.kind = "move";  // its stream's end plays its move from now on
  if (ponder.best) {  // the ponder search had finished: its move stands
    op.search = null;
    hint("Ponder hit: the engine had finished its search.");
    engineMoved(ponder.best);
    return;
  }
  hint(`Ponder hit: ${move} was expected.`);
  try {
    if (ponder.ponderId === null) throw new Error("no ponder id yet");
    await api("/api/ponderhit", { id: ponder.ponderId });
    $("operator").dataset.ponderhits = String(Number($("operator").dataset.ponderhits || 0) + 1);  // (for the browser test)
  } catch {
    // Not turned (it ended meanwhile, and its stream's end deals with that; or the server did
    // not answer): a search of its own unless it has ended with a move.
    if (op.search === ponder && !ponder.best) {
      stopSearch();
      refresh();
    }
  }
}

// ---- showing the game ----

function gameOverText() {
  const e = op.ending;
  if (e.time_forfeit) return `${SIDE[e.time_forfeit]}'s flag fell: ${SIDE[other(e.time_forfeit)]} wins on time`;
  if (e.resigned) return `${SIDE[e.resigned]} resigns: ${SIDE[other(e.resigned)]} wins`;
  if (e.draw_agreed) return "Draw agreed";
  return op.game && op.game.over ? `Game over: ${op.game.description}` : "";
}

function statusText() {
  if (over()) return gameOverText();
  const mover = op.game.side_to_move;
  const who = mover === op.engineSide ? `${names().engine} (engine)` : names().opponent;
  return `${SIDE[mover]} to move: ${who}` + (mover === op.engineSide ? " is thinking" : ": enter the move on the board");
}

function resultText() {
  const e = op.ending;
  if (e.time_forfeit) return resultLine(e.time_forfeit === "b" ? "1-0" : "0-1", `${SIDE[e.time_forfeit]} loses on time`);
  if (e.resigned) return resultLine(e.resigned === "b" ? "1-0" : "0-1", `${SIDE[e.resigned]} resigns`);
  if (e.draw_agreed) return resultLine("1/2-1/2", "draw agreed");
  return op.game && op.game.over ? resultLine(op.game.result, op.game.description) : "";
}

function draw() {
  const game = op.game;
  const connected = game.over && game.termination.includes("connection") ? game.connected : [];
  op.board.render(game, { selected: op.selected, connected,
    targets: op.selected ? game.legal.filter((m) => m.from === op.selected) : [] });
  renderMoveList($("op-moves"), { moves: op.moves, startSide: game.start.slice(-1), result: resultText() });
  $("op-status").textContent = statusText();
  $("op-status").classList.toggle("over", over());
  const onlyPass = game.legal.length === 1 && game.legal[0].text === "pass";
  $("op-pass").hidden = !onlyPass || engineToMove() || over();
  $("op-takeback").disabled = over() || !op.moves.length || op.game.side_to_move !== op.engineSide;
  drawClocks();
}

function drawClocks() {
  if (!op.clock) return;
  // The engine's clock at the bottom, as its side of the board (the operator sits for it).
  const bottom = op.board.flipped ? "w" : "b";
  for (const [slot, side] of [["op-clock-top", other(bottom)], ["op-clock-bottom", bottom]]) {
    const el = $(slot);
    el.dataset.side = side;
    el.dataset.ms = String(Math.round(op.clock.remaining(side)));
    const who = side === op.engineSide ? names().engine : names().opponent;
    el.title = `${SIDE[side]}: ${who}`;
    el.setAttribute("aria-label", `${SIDE[side]}, ${who}: ${GameClock.format(op.clock.remaining(side))}`);
    if (!el.firstChild) el.innerHTML = '<span class="who"></span><span class="time"></span>';
    el.querySelector(".who").textContent = who;
    el.querySelector(".time").textContent = GameClock.format(op.clock.remaining(side));
    el.classList.toggle("running", op.clock.running === side);
    el.classList.toggle("flagged", op.ending.time_forfeit === side);
    el.classList.toggle("low", op.clock.remaining(side) < 10000 && op.ending.time_forfeit !== side);
  }
  $("op-pause").textContent = op.clock.running || !op.paused ? "Pause clocks" : "Start clocks";
}

function show(game) {
  op.game = game;
  op.selected = null;
  if (over()) {
    op.clock.pause();
    op.paused = false;
    stopSearch();
  } else if (!op.paused && op.moves.length > 0) {
    op.clock.start(game.side_to_move);  // the clocks start with the first move
  }
  draw();
  if (over()) return;
  if (engineToMove() && !op.search && !op.paused) runSearch("move");
  else if (!engineToMove() && $("op-ponder").checked && !op.search && !op.paused) runSearch("ponder");
}

async function refresh() {
  const line = op.line;
  try {
    const game = await api("/api/game", gameRequest());
    if (line === op.line) show(game);
  } catch (e) {
    showMessage(e.message);
    if (line === op.line) setTimeout(() => { if (line === op.line) refresh(); }, 2000);  // the server restarting
  }
}

function tick() {
  if (!op.clock || !op.game) return;
  const flagged = op.clock.running && op.clock.flagged();
  if (flagged && !over()) {
    op.clock.pause();
    op.clock.left[flagged] = 0;
    op.ending = { time_forfeit: flagged, resigned: "", draw_agreed: false };
    ++op.line;
    stopSearch();
    save();
    show(op.game);
    return;
  }
  drawClocks();
}

// ---- input: the opponent's move on the board or typed ----

function onSquare(name, phase) {
  const game = op.game;
  if (!game || over()) return false;
  if (engineToMove()) {
    if (phase === "down") hint("The engine is thinking: its move comes by itself.");
    return false;
  }
  const targets = game.legal.filter((m) => m.from === op.selected && m.to === name);
  if (op.selected && targets.length) {
    op.selected = null;
    opponentMove(targets[0].text);
    return false;
  }
  if (phase === "up") return false;
  if (game.pieces[name] === game.side_to_move) {
    op.selected = name;
    hint("");
    draw();
    return true;
  }
  op.selected = null;
  draw();
  return false;
}

// The opponent's last move, entered by mistake: taken back, their clock running again (their
// increment taken off); the time the engine spent meanwhile stays spent, as on a real clock.
function takeBack() {
  if (over() || !op.moves.length || op.game.side_to_move !== op.engineSide) return;
  ++op.line;
  stopSearch();
  const mover = opponentSide();
  op.moves = op.moves.slice(0, -1);
  op.clockAfter = op.clockAfter.slice(0, -1);
  op.clock.left[mover] -= op.clocks[mover].increment_ms;
  op.clock.pause();
  if (!op.paused && op.moves.length) op.clock.start(mover);
  hint("The opponent's last move is taken back: enter the right one.");
  save();
  refresh();
}

function endGame() {
  const kind = $("op-ending").value;
  if (!kind || over() || !op.game) return;
  ++op.line;
  stopSearch();
  op.clock.pause();
  op.ending = { time_forfeit: "", resigned: "", draw_agreed: kind === "draw" };
  if (kind === "engine-resigns") op.ending.resigned = op.engineSide;
  if (kind === "opponent-resigns") op.ending.resigned = opponentSide();
  $("op-ending").value = "";
  save();
  show(op.game);
}

// An arbiter's correction: each clock set to the time typed ("4:31", "1:02:03" or seconds).
function parseClockText(text) {
  const parts = text.trim().split(":").map(Number);
  if (!parts.length || parts.length > 3 || parts.some((n) => !Number.isFinite(n) || n < 0)) return null;
  return parts.reduce((total, n) => total * 60 + n, 0) * 1000;
}

function setClocks() {
  const times = { b: parseClockText($("op-set-b").value), w: parseClockText($("op-set-w").value) };
  for (const side of ["b", "w"]) {
    if ($(`op-set-${side}`).value.trim() === "") times[side] = op.clock.remaining(side);
    if (times[side] === null) {
      hint(`'${$(`op-set-${side}`).value}' is not a time: minutes:seconds, e.g. 4:31.`);
      return;
    }
  }
  const running = op.clock.running;
  op.clock.pause();
  op.clock.left = times;
  if (running) op.clock.start(running);
  $("op-set-b").value = $("op-set-w").value = "";
  hint("Clocks set.");
  save();
  drawClocks();
}

function pauseClocks() {
  if (over() || !op.moves.length) return;
  if (op.paused) {
    op.paused = false;
    hint("");
    show(op.game);
  } else {
    op.paused = true;
    op.clock.pause();
    stopSearch();
    hint("Clocks stopped (the engine waits too): Start clocks goes on.");
  }
  save();
  drawClocks();
}

// ---- the record ----

async function gamePgn() {
  const n = names();
  const seconds = (c) => `${c.base_ms / 1000}+${c.increment_ms / 1000}`;
  // The day the game began: its id is the moment it was made (UTC).
  const day = /^(\d{4})(\d\d)(\d\d)-/.exec(op.id);
  const today = day ? `${day[1]}.${day[2]}.${day[3]}` : new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  try {
    const reply = await api("/api/pgn", { ...gameRequest(), black: op.engineSide === "b" ? n.engine : n.opponent,
      white: op.engineSide === "w" ? n.engine : n.opponent, date: today, event: op.info.event || "operator's game",
      black_time_control: seconds(op.clocks.b), white_time_control: seconds(op.clocks.w), clocks: op.clockAfter,
      time_forfeit: op.ending.time_forfeit, resigned: op.ending.resigned, draw_agreed: op.ending.draw_agreed });
    return reply.pgn;
  } catch (e) {
    showMessage(`PGN: ${e.message}`);
    return null;
  }
}

// ---- games: set up, resumed, listed ----

function showSetup(visible) {
  $("op-setup").hidden = !visible;
  $("op-game").hidden = visible;
}

function minutesClock(minutesId, secondsId) {
  const minutes = Number($(minutesId).value), seconds = Number($(secondsId).value);
  if (!(minutes > 0 && minutes <= 1440) || !(seconds >= 0 && seconds <= 3600)) return null;
  return { base_ms: Math.round(minutes * 60000), increment_ms: Math.round(seconds * 1000) };
}

async function startGame() {
  const engine = minutesClock("op-engine-minutes", "op-engine-seconds");
  const opponent = minutesClock("op-opponent-minutes", "op-opponent-seconds");
  if (!engine || !opponent) {
    showMessage("operator: a clock is minutes (more than 0, at most 1440) and seconds a move (0 to 3600)");
    return;
  }
  const side = $("op-engine-side").value;
  const clocks = side === "b" ? { b: engine, w: opponent } : { b: opponent, w: engine };
  const body = { revision: 0, event: $("op-event").value.trim(), round: $("op-round").value.trim(), site: "",
    opponent: $("op-opponent").value.trim(), engine: `loa (${$("op-variant").value})`, engine_side: side,
    start: "startpos", rules: $("op-rules").value, moves: [], clocks, clock_after_ms: [],
    left_ms: { b: clocks.b.base_ms, w: clocks.w.base_ms }, running: "" };
  let saved;
  try {
    saved = await api("/api/operator", body);
  } catch (e) {
    showMessage(`operator: ${e.message}`);
    return;
  }
  location.hash = `operator=${saved.id}`;  // the address that resumes it (app.js opens it)
}

// Opens a saved game: its clocks as they stood when it was saved, the running one's time since
// then (by the server's clock) counted as used, as a real clock would have.
export async function openOperatorGame(id) {
  let saved;
  try {
    saved = await api(`/api/operator/${encodeURIComponent(id)}`);
  } catch (e) {
    showMessage(`operator: ${e.message}`);
    showSetup(true);
    listGames();
    return;
  }
  ++op.line;
  stopSearch();
  op.id = saved.id;
  op.revision = saved.revision;
  op.info = { event: saved.event, round: saved.round, site: saved.site, opponent: saved.opponent, engine: saved.engine };
  op.engineSide = saved.engine_side;
  op.variant = /^loa \((.+)\)$/.exec(saved.engine || "")?.[1] || "full";
  op.start = saved.start;
  op.rules = saved.rules || "olympiad";
  op.moves = saved.moves;
  op.clockAfter = saved.clock_after_ms;
  op.clocks = saved.clocks;
  op.ending = saved.ending || { time_forfeit: "", resigned: "", draw_agreed: false };
  op.clock = GameClock.perSide(saved.clocks);
  op.clock.left = { ...saved.left_ms };
  op.paused = !saved.running && op.moves.length > 0 && !saved.over;
  if (saved.running) op.clock.left[saved.running] -= Math.max(0, saved.now_ms - saved.saved_at_ms);
  op.lastPv = null;
  op.unsaved = false;
  showSetup(false);
  op.board.flip(op.engineSide === "w");
  $("op-title").textContent = [op.info.event, op.info.round && `round ${op.info.round}`, `${names().engine} vs ${names().opponent}`]
    .filter(Boolean).join(" · ");
  $("op-relay").textContent = "";
  showSaved();
  hint(op.moves.length ? `Game ${op.id} resumed at move ${op.moves.length}.` : `Game ${op.id}: the clocks start with the first move.`);
  $("operator").dataset.game = op.id;  // for tests: this game is shown
  await refresh();
}

async function listGames() {
  const body = document.querySelector("#op-games tbody");
  let listing;
  try {
    listing = await api("/api/operator");
  } catch (e) {
    body.innerHTML = "";
    $("op-games-note").textContent = e.message;
    return;
  }
  $("op-games-note").textContent = listing.games.length ? "" : "No saved games yet.";
  body.innerHTML = "";
  for (const g of listing.games) {
    const row = body.insertRow();
    const link = document.createElement("a");
    link.href = `#operator=${g.id}`;
    link.textContent = g.id;
    row.insertCell().appendChild(link);
    for (const value of [g.event, g.round, g.opponent, SIDE[g.engine_side] || "", g.plies, g.over ? "over" : "in play"])
      row.insertCell().textContent = value;
  }
}

// The tab shown: its address names the game open (a reload resumes it), or the tab itself.
// `linked`: an address is opening a game of its own.
export function operatorVisible(linked = false) {
  if (op.id) {
    history.replaceState(null, "", `#operator=${op.id}`);
  } else if (!linked) {
    history.replaceState(null, "", "#operator");
    showSetup(true);
    listGames();
  }
}

export function initOperator(config) {
  op.board = new Board($("op-board"), { onSquare, label: "operator's board" });
  for (const preset of config.presets) $("op-variant").add(new Option(preset, preset, false, preset === config.variant));
  for (const r of config.rules) $("op-rules").add(new Option(r.name, r.name, false, r.name === "olympiad"));
  $("op-start").onclick = startGame;
  $("op-new").onclick = () => {
    ++op.line;
    stopSearch();
    if (op.clock) op.clock.pause();
    op.game = null;  // its clock is no longer watched
    op.id = "";
    history.replaceState(null, "", "#operator");
    showSetup(true);
    listGames();
  };
  $("op-takeback").onclick = takeBack;
  $("op-pass").onclick = () => opponentMove("pass");
  $("op-end").onclick = endGame;
  $("op-pause").onclick = pauseClocks;
  $("op-set-clocks").onclick = setClocks;
  $("op-flip").onclick = () => { op.board.flip(!op.board.flipped); draw(); };
  $("op-move-enter").onclick = () => {
    const text = $("op-move-text").value.trim();
    if (!text) return;
    if (engineToMove() || over()) {
      hint(over() ? gameOverText() : "The engine is to move.");
      return;
    }
    $("op-move-text").value = "";
    opponentMove(text);
  };
  $("op-move-text").onkeydown = (e) => { if (e.key === "Enter") $("op-move-enter").click(); };
  $("op-download").onclick = async () => {
    const pgn = await gamePgn();
    if (!pgn) return;
    const name = `loa-operator-${op.id}.pgn`;
    downloadText(name, pgn, "application/vnd.chess-pgn");
    hint(`Game saved as ${name}.`);
  };
  $("op-copy").onclick = async () => {
    const pgn = await gamePgn();
    if (pgn) copyText(pgn, "PGN", hint);
  };
  setInterval(tick, 100);
}
