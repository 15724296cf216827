// Play and analyse: a game against the engine (or both sides by hand), with a clock if chosen,
// and an analysis that follows the position on the board. The page holds the game (start,
// moves, rules); the server replays it under the rules for every view and runs the engine.

import { $, api, copyText as copyToClipboard, downloadText, playAddress, showMessage, streamSearch } from "./api.js";
import { Board } from "./board.js";
import { GameClock, parseTimeControl } from "./clock.js";
import { analyseGame, markPly } from "./analysis.js";
import { ending, keyForPage, renderMoveTree, resultLine, wheelSteps } from "./move_list.js";
import { MoveTree } from "./move_tree.js";
import { blackView } from "./score.js";

const SIDE = { b: "Black", w: "White" };
const other = (side) => (side === "b" ? "w" : "b");

const play = {
  generation: 0,    // raised by every change of what is shown: answers to older requests are dropped
  line: 0,          // raised by every change of the game itself (moves, start, rules, a flag fall)
  gameId: 0,        // raised by every new game (the browser test waits on it)
  start: "startpos",
  rules: "olympiad", // the game's rules (the menu's choice applies to the next game once moves are played)
  moves: [],        // the line shown: the game's moves, or a variation's (each line of `tree`)
  tree: new MoveTree(), // the game and its variations: a move at an earlier position starts one
  ply: 0,           // the position shown: after this many of them
  game: null,       // the server's view of the position shown
  end: null,        // the game's result when it has ended by the rules: {result, description}
  selected: null,
  preselected: null, // while the engine thinks: a piece of the user's picked for a premove
  premove: null,    // the user's move kept for after the engine's: {from, to}
  search: null,     // {controller, kind: "move"|"analysis", line, side}
  analysing: false, // analysis mode: every position shown is analysed until Stop
  board: null,
  clock: null,      // a GameClock when the game is played on a clock
  flag: null,       // the side whose flag fell
  timeControl: "",  // the clock's "minutes+seconds", as chosen when the game began
  memory: "",       // what the last search's tables claim, as the server says
  report: null,     // the game's computer analysis: {line, result} (its marks hold while line is play.line)
  reportRunning: false,  // the game's computer analysis is running
  engineMove: null, // the engine's last move and what it said of it: {plies, move, text}
  lines: [],        // the MultiPV lines of the depth coming in, best first
  resigned: null,   // the side that resigned (lichess's Resign), ending the game
  drawn: false,     // a draw agreed (the user offered, the engine accepted)
  ruleNames: new Map(), // each named rule set's full text (as records spell rules) -> its name
  engineScore: null, // the engine's last score for its own side, in centi-units (its move's search)
};

const humanSide = () => $("human-side").value;
const atEnd = () => play.ply === play.moves.length;
const startSide = () => (play.game ? play.game.start.slice(-1) : "b");
const sideAfter = (plies) => (plies % 2 === 0 ? startSide() : other(startSide()));  // a pass is a move too
// The game ended off the board: a flag fell, a side resigned, or a draw was agreed.
const endedOffBoard = () => Boolean(play.flag || play.resigned || play.drawn);
const onMainline = () => play.tree.isMainline(play.moves);
// A flag fall, a resignation or an agreed draw ends the game's main line, not its variations.
const over = () => Boolean(play.game && (play.game.over || (endedOffBoard() && atEnd() && onMainline())));
const gameRequest = (moves) => ({ start: play.start, moves, rules: play.rules });

function engineToMove() {
  const human = humanSide();
  return Boolean(play.game) && atEnd() && !over() && !endedOffBoard() && human !== "both" && play.game.side_to_move !== human;
}

// A word under the board about the last thing the user tried (not an error: those are red).
function hint(text) { $("play-hint").textContent = text; }

function stopSearch() {
  if (play.search) play.search.controller.abort();
  play.search = null;
  updateButtons();
}

// The game itself changes: answers and searches about the old one are dropped.
function changeLine() {
  ++play.line;
  stopSearch();
  if (play.report) {  // the moves it valued are no longer the game's
    play.report = null;
    $("play-analysis").hidden = true;
    $("play-analysis").innerHTML = "";
  }
}

// An analysis belongs to the position shown; the engine's choice of its move belongs to the
// game's last position and goes on while the user looks back through the moves.
function stopAnalysis() {
  if (play.search && play.search.kind === "analysis") stopSearch();
}

const engineThinking = () => Boolean(play.search && play.search.kind === "move" && play.search.line === play.line);

function updateButtons() {
  $("analyse").textContent = play.analysing ? "Stop" : "Analyse";
  $("analyse").setAttribute("aria-pressed", String(play.analysing));
  const onlyPass = play.game && play.game.legal.length === 1 && play.game.legal[0].text === "pass";
  $("pass").hidden = !onlyPass || engineToMove() || over();
  $("movetime").disabled = Boolean(play.clock);
  // No engine help in a game on the clock before it is over (lichess's rule): analysis waits.
  $("analyse").disabled = Boolean(play.clock) && !over() && !play.analysing;
  $("play-back").disabled = $("play-first").disabled = play.ply === 0;
  $("play-forward").disabled = $("play-last").disabled = atEnd();
  // As on lichess: a game's computer analysis once it is over, or of a game without a clock.
  $("analyse-game").disabled = !play.moves.length || (Boolean(play.clock) && !over()) || play.reportRunning === true;
}

// The whole game's computer analysis (analysis.js), its graph under the board.
async function analysePlayed() {
  const line = play.line;
  play.reportRunning = true;
  updateButtons();
  const result = await analyseGame(gameRequest(play.moves), $("play-analysis"), { onSelect: goTo });
  play.reportRunning = false;
  updateButtons();
  if (line !== play.line || !result) return;  // the game changed meanwhile, or it was cancelled
  play.report = { line, result };
  draw();
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

// What the engine said of the move that led to the position shown (its score, depth, nodes),
// kept while that position is shown; "idle" elsewhere.
function engineMoveText() {
  const e = play.engineMove;
  return e && play.ply === e.plies && play.moves[e.plies - 1] === e.move ? e.text : "idle";
}

function gameOverText() {
  if (play.flag) return `${SIDE[play.flag]}'s flag fell: ${SIDE[other(play.flag)]} wins on time`;
  if (play.resigned) return `${SIDE[play.resigned]} resigns: ${SIDE[other(play.resigned)]} wins`;
  if (play.drawn) return "Draw agreed";
  return play.end ? `Game over: ${ending(play.end.description)}` : "";
}

function statusText() {
  const game = play.game;
  if (over()) return gameOverText();
  let text = `${SIDE[game.side_to_move]} to move`;
  if (game.legal.length === 1 && game.legal[0].text === "pass") text += " (no legal move: pass)";
  if (engineToMove()) text += ": the engine is thinking";
  if (!atEnd()) text += ` · move ${play.ply} of ${play.moves.length} (>| or End: back to the game)`;
  return text;
}

function draw() {
  const game = play.game;
  const connected = game.over && game.termination.includes("connection") ? game.connected : [];
  play.board.render(game, { selected: play.selected, connected,
    targets: play.selected ? game.legal.filter((m) => m.from === play.selected) : [],
    premove: play.premove ? [play.premove.from, play.premove.to] : play.preselected ? [play.preselected] : [] });
  const endText = play.flag ? resultLine(play.flag === "b" ? "1-0" : "0-1", `${SIDE[play.flag]} loses on time`)
    : play.resigned ? resultLine(play.resigned === "b" ? "1-0" : "0-1", `${SIDE[play.resigned]} resigns`)
    : play.drawn ? resultLine("1/2-1/2", "draw agreed")
    : play.end ? resultLine(play.end.result, play.end.description) : "";
  const marks = play.report && play.report.line === play.line
    ? new Map(play.report.result.plies.map((p, i) => [play.moves.slice(0, i + 1).join(" "), p.judgement])) : null;
  // The result closes the main line; a variation's end is said by the status line.
  renderMoveTree($("move-list"), { tree: play.tree, startSide: startSide(), current: play.moves.slice(0, play.ply),
    result: endText, onSelect: selectLine, marks });
  markPly($("play-analysis"), play.ply);
  $("play-status").textContent = statusText();
  $("play-status").classList.toggle("over", over());
  updateButtons();
  drawClocks();
}

// Fetches the position shown (unless `known` is the server's answer for it already), draws it,
// and starts what it calls for: the engine's move, or the analysis when analysis is on.
async function refresh(known = null) {
  const generation = ++play.generation;
  stopAnalysis();  // an analysis of the previous position must not report into this one
  let game = known;
  try {
    game ??= await api("/api/game", gameRequest(play.moves.slice(0, play.ply)));
  } catch (e) {
    if (generation === play.generation) showMessage(e.message);
    return;
  }
  if (generation !== play.generation) return;  // the game changed meanwhile
  play.game = game;
  play.selected = null;
  // The game's result is its main line's.
  if (atEnd() && onMainline()) play.end = game.over ? { result: game.result, description: game.description } : null;
  if (!engineThinking() || !atEnd()) clearEnginePanel(engineMoveText());
  runClock();
  draw();
  updateAddress();
  $("play").dataset.game = String(play.gameId);  // this game's first view has landed (for tests)
  if (engineToMove()) {
    if (!engineThinking()) runSearch("move");
  } else if (play.premove && atEnd() && !over()) {
    playPremove();
  } else if (play.analysing) {
    if (over()) {
      $("engine-summary").textContent = `no analysis: ${gameOverText()}`;
    } else {
      // A moment's wait: stepping through the moves starts one analysis, not one a position.
      setTimeout(() => { if (generation === play.generation && play.analysing && !play.search) runSearch("analysis"); }, 150);
    }
  }
}

// A move of the list: its line becomes the one shown (a variation's moves, or the main line's),
// at that move.
function selectLine(path) {
  if (play.moves.slice(0, path.length).join(" ") === path.join(" ")) {
    goTo(path.length);
    return;
  }
  if (play.clock && play.clock.running) {
    hint("The clock is running: variations wait for the end of the game.");
    return;
  }
  changeLine();
  play.moves = play.tree.lineThrough(path);
  play.ply = path.length;
  hint("");
  refresh();
}

function goTo(ply) {
  ply = Math.max(0, Math.min(play.moves.length, ply));
  if (ply === play.ply) return;
  play.ply = ply;
  hint("");
  refresh();
}

// ---- moves ----

// The user's move at the position shown, or (byEngine) the engine's at the game's end.
async function playMove(text, byEngine = false) {
  if (!byEngine && !atEnd() && play.clock) {
    hint("The clock is running: go to the last move (End) to play on.");
    return;
  }
  // A move played at an earlier position starts a variation (or takes up the line it began).
  const before = byEngine ? play.moves.slice() : play.moves.slice(0, play.ply);
  const mover = sideAfter(before.length);
  const line = play.line;
  if (!byEngine) stopSearch();
  let game;
  try {
    // Checked by the server before the page takes it: an illegal move changes nothing.
    game = await api("/api/game", gameRequest([...before, text]));
  } catch (e) {
    if (line === play.line) showMessage(e.message);
    return;
  }
  if (line !== play.line || endedOffBoard()) return;  // new game, undo, a flag fall, a resignation, ... meanwhile
  changeLine();
  if (play.clock) play.clock.press(mover);
  play.moves = play.tree.add(before, game.moves[game.moves.length - 1]);
  play.ply = before.length + 1;
  showMessage("");
  hint("");
  refresh(game);  // the answer is the new position's: no second request
}

// Why the board takes no move now, said when the user tries.
function explainNoInput() {
  if (over()) hint(`${gameOverText()}. New game starts another.`);
  else if (engineToMove()) hint("The engine is thinking: wait for its move, or Undo.");
}

function onPlaySquare(name, phase) {
  const game = play.game;
  if (!game) return false;
  if (engineToMove()) return premoveSquare(name, phase);
  if (over()) {
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

// Premoves, as on lichess: while the engine thinks, a move of the user's (a click on a piece
// then on a target, or a drag) is kept, and played the moment the engine's move lands if it is
// legal then. A click anywhere else, Undo or a new game drops it.
function premoveSquare(name, phase) {
  const mine = play.game.pieces[name] === humanSide();
  if (phase === "up") {
    if (play.preselected && name !== play.preselected && !mine) setPremove(play.preselected, name);  // a drag
    return false;
  }
  if (play.preselected && name !== play.preselected && !mine) {
    setPremove(play.preselected, name);
    return false;
  }
  const picked = mine && name !== play.preselected;
  play.preselected = picked ? name : null;
  if (!picked && play.premove) hint(`Premove ${play.premove.from}-${play.premove.to} dropped.`);
  else if (!picked) explainNoInput();
  else hint("");
  play.premove = null;
  draw();
  return picked;  // a picked piece may be dragged
}

function setPremove(from, to) {
  play.premove = { from, to };
  play.preselected = null;
  hint(`Premove ${from}-${to}: played when the engine has moved, if it is legal then.`);
  draw();
}

function playPremove() {
  const { from, to } = play.premove;
  play.premove = null;
  const move = play.game.legal.find((m) => m.from === from && m.to === to);
  if (move) {
    playMove(move.text);
  } else {
    hint(`Premove ${from}-${to} dropped: not a legal move after the engine's.`);
    draw();
  }
}

function illegal(from, to) {
  const reachable = play.game.legal.filter((m) => m.from === from).map((m) => m.to);
  hint(`${from}-${to} is not a legal move: a piece moves exactly as many squares as there are pieces on its line, ` +
    `over its own pieces but not the opponent's. ${from} can reach ${reachable.length ? reachable.join(", ") : "no square"}.`);
}

function undo() {
  if (endedOffBoard()) {
    hint(`${gameOverText()}: New game starts another.`);
    return;
  }
  if (!atEnd()) {
    hint("Undo takes back the last move of the line shown: go to its end (>| or End) first.");
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
  // In a variation, no further back than where it began: the line it left keeps its moves.
  const branch = play.tree.branchPly(play.moves);
  if (branch >= 0 && n < branch) n = branch;
  changeLine();
  play.preselected = play.premove = null;
  play.tree.remove(play.moves.slice(0, n + 1));  // taken back: gone from the game, not kept as a variation
  play.moves = play.tree.lineThrough(play.moves.slice(0, n));
  play.ply = n;
  showMessage("");
  hint("");
  refresh();
}

// ---- the engine ----

function showIteration(info, side, kind) {
  const view = blackView(info.score, side);
  const arrows = $("arrows").value;
  const drawArrows = arrows === "always" || (arrows === "analysis" && kind === "analysis");
  if (info.multipv) {
    const table = $("lines-table");
    table.hidden = false;
    const body = table.tBodies[0];
    if (info.multipv === 1) {  // a new depth: its lines arrive in a row, best first
      body.innerHTML = "";
      play.lines = [];
    }
    play.lines.push(info.pv);
    const row = body.insertRow();
    for (const value of [info.multipv, info.depth, view.text, info.pv.join(" ")]) row.insertCell().textContent = value;
    if (info.multipv > 1) {  // the other lines' first moves beside the best line's arrows
      if (drawArrows) play.board.drawLine(play.lines[0], play.lines.slice(1).map((pv) => pv[0]));
      return;
    }
  }
  const row = document.querySelector("#iterations tbody").insertRow(0);
  for (const value of [info.depth, view.text, info.nodes.toLocaleString(), info.nps.toLocaleString(), info.time_ms, info.pv.join(" ")])
    row.insertCell().textContent = value;
  row.cells[2].className = row.cells[3].className = row.cells[4].className = "wide-only";
  const body = document.querySelector("#iterations tbody");
  while (body.rows.length > 40) body.deleteRow(-1);
  $("engine-summary").textContent = `depth ${info.depth} · ${view.text} · ${info.nodes.toLocaleString()} nodes · ${info.pv.slice(0, 6).join(" ")}` +
    (play.memory ? ` (${play.memory})` : "");
  showEvaluation(view);
  if (drawArrows) play.board.drawLine(info.pv);
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

async function runSearch(kind, attempt = 1) {
  stopSearch();
  const controller = new AbortController();
  const line = play.line;
  const side = play.game.side_to_move;
  play.search = { controller, kind, line, side };
  updateButtons();
  clearEnginePanel(kind === "move" ? "thinking…" : "analysing…");
  const params = { start: play.start, moves: play.moves.slice(0, play.ply).join(" "), rules: play.rules, variant: $("variant").value };
  if (kind === "move" && play.clock) {
    // The engine plans its own time (the tournament time manager) from both clocks.
    params.btime = Math.round(Math.max(0, play.clock.remaining("b")));
    params.wtime = Math.round(Math.max(0, play.clock.remaining("w")));
    params.binc = params.winc = Math.round(play.clock.increment);
  } else if (kind === "move") {
    params.movetime = Math.min(600000, Math.max(10, Number($("movetime").value) || 1000));
  } else if (Number($("lines").value) > 1) {
    params.multipv = $("lines").value;  // analysis: the best N moves
  }
  const current = () => play.search && play.search.controller === controller;
  // Its reports are drawn while the position they are about is the one shown.
  const shown = () => current() && (kind === "analysis" || (atEnd() && line === play.line));
  let best = null;
  let failure = "";
  try {
    await streamSearch(params, controller.signal, (name, data) => {
      if (!current()) return;
      if (name === "start") play.memory = data.memory;
      if (name === "info" && shown()) showIteration(data, side, kind);
      if (name === "bestmove") best = data;
      if (name === "error") failure = data.error;
    });
  } catch (e) {
    if (e.name === "AbortError" || !current()) return;
    failure = e.message;
  } finally {
    if (current()) {
      play.search = null;
      if (kind === "analysis") play.analysing = false;  // it ended by itself (depth, proof or the server's cap)
      updateButtons();
    }
  }
  if (line !== play.line) return;
  if (!best) {
    // The engine's own move must not be lost to a busy server: it is asked again, a few times.
    if (kind === "move" && engineToMove() && attempt < 4) {
      hint(`The engine could not search (${failure || "no answer"}): trying again.`);
      setTimeout(() => { if (line === play.line && engineToMove() && !play.search) runSearch("move", attempt + 1); }, 1000 * attempt);
    } else {
      showMessage(`engine: ${failure || "the search ended without a move"}${kind === "move" ? " (Engine move tries again)" : ""}`);
    }
    return;
  }
  const summary = `${kind === "move" ? "played" : "best"} ${best.move} (${blackView(best.score, side).text}, ` +
    `depth ${best.depth}, ${best.nodes.toLocaleString()} nodes)`;
  if (kind === "analysis" || atEnd()) $("engine-summary").textContent = summary;
  if (kind === "move") {
    play.engineMove = { plies: play.moves.length + 1, move: best.move, text: summary };
    const cp = /^cp (-?\d+)$/.exec(best.score);
    play.engineScore = cp ? Number(cp[1]) : best.score.startsWith("win") ? 100000 : best.score.startsWith("loss") ? -100000 : null;
    playMove(best.move, true);
  }
}

function analyse() {
  if (play.analysing) {
    play.analysing = false;
    stopAnalysis();  // the engine's choice of its move, if it is choosing, goes on
    updateButtons();
    return;
  }
  if (over()) {
    hint(`${gameOverText()}: there is nothing to analyse.`);
    return;
  }
  play.analysing = true;
  updateButtons();
  if (engineToMove()) {
    hint("The engine is choosing its move: the analysis starts after it.");
    return;
  }
  hint("");
  runSearch("analysis");
}

function engineMoveNow() {
  if (over()) hint(`${gameOverText()}: the engine has no move to make.`);
  else if (!atEnd()) hint("Go to the last move (End) first: the engine plays on from there.");
  else if (engineThinking()) hint("The engine is already choosing its move.");
  else runSearch("move");
}

// ---- the clock ----

// The clocks start with the first move (as lichess's): nobody loses on time before the game has
// begun. After it the side to move's runs, and an ending by the rules stops both.
function runClock() {
  if (!play.clock || play.flag) return;
  if (play.resigned || play.drawn) {
    play.clock.pause();
    return;
  }
  if (atEnd() && play.game.over) play.clock.pause();  // the game ended by the rules
  else if (atEnd() && play.moves.length > 0) play.clock.start(play.game.side_to_move);
}

function drawClocks() {
  const box = $("play-clocks");
  box.hidden = !play.clock;
  if (!play.clock) return;
  // As on lichess, the reader's clock at the bottom: the side the board is turned for (Black,
  // unless it is turned for White), the other at the top.
  const bottom = play.board.flipped ? "w" : "b";
  for (const [slot, side] of [["clock-top", other(bottom)], ["clock-bottom", bottom]]) {
    const el = $(slot);
    el.dataset.side = side;
    el.textContent = `${SIDE[side]} ${GameClock.format(play.clock.remaining(side))}`;
    el.classList.toggle("running", play.clock.running === side);
    el.classList.toggle("flagged", play.flag === side);
    el.classList.toggle("low", play.clock.remaining(side) < 10000 && play.flag !== side);  // red under ten seconds
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
    changeLine();  // a move still on its way is not played after the flag fell
    play.ply = play.moves.length;
    refresh();
    return;
  }
  drawClocks();
}

// ---- games, positions, links ----

function newGame(start = $("start-kind").value) {
  changeLine();
  ++play.gameId;
  showMessage("");
  hint("");
  play.start = start;
  play.rules = $("rules").value;
  play.moves = [];
  play.tree = new MoveTree();
  play.ply = 0;
  play.flag = null;
  play.resigned = null;
  play.drawn = false;
  play.preselected = play.premove = null;
  play.engineScore = null;
  play.end = null;
  play.timeControl = parseTimeControl($("clock").value.trim()) ? $("clock").value.trim() : "";
  const tc = parseTimeControl(play.timeControl);
  play.clock = tc ? new GameClock(tc.base, tc.increment) : null;
  if (play.clock) play.analysing = false;  // no engine help in a game on the clock
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
// A variation shown is named beside the main line (`line`), so that a link or a reload keeps both.
function updateAddress() {
  const mainline = play.tree.mainline();
  const line = onMainline() ? null : play.moves;
  const hash = playAddress({ start: play.start, moves: mainline, rules: play.rules, ply: play.ply, line });
  if (location.hash.slice(1) !== hash && !$("play").hidden) history.replaceState(null, "", hash ? `#${hash}` : location.pathname);
}

export async function openGameFromAddress(params) {
  const spelled = params.get("rules") || "olympiad";
  const rules = play.ruleNames.get(spelled) ?? spelled;  // a named set, however the link spells it
  const start = params.get("start") || "startpos";
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  try {
    if (![...$("rules").options].some((o) => o.value === rules)) throw new Error(`unknown rule set '${rules}' (the page offers the named sets)`);
    const game = await api("/api/game", { start, moves, rules });
    $("rules").value = rules;  // only once the linked game has proved good
    $("human-side").value = "both";  // a game opened from a link is looked at, not played against
    play.board.flip(false);
    // A variation shown when the link was made: checked by the server, then added to the game.
    const lineMoves = params.has("line") ? (await api("/api/game", { start, moves: params.get("line").split(/[\s,]+/).filter(Boolean), rules })).moves : null;
    newGameState(start, game.moves, rules);
    if (lineMoves) {
      for (let i = 0; i < lineMoves.length; ++i) play.tree.add(lineMoves.slice(0, i), lineMoves[i]);
      play.moves = play.tree.lineThrough(lineMoves);
    }
    const ply = Number(params.get("ply"));
    const shownLength = lineMoves ? lineMoves.length : game.moves.length;
    play.ply = params.has("ply") && Number.isInteger(ply) ? Math.max(0, Math.min(play.moves.length, ply)) : shownLength;
  } catch (e) {
    showMessage(`link: ${e.message}`);
    return;
  }
  await refresh();
  if (params.get("analyse") === "1" && !play.analysing) analyse();  // opened from Replay or Watch to be analysed
}

// Rules, start or clock changed in the menus. Nothing is played yet: a new game with them at
// once. A game with moves is never thrown away by a setting (a clock typed and left without
// Enter changes when anything else is clicked): the setting waits for New game.
// lichess's end-of-game buttons against the engine. Abort: before the user's first move the game
// is dropped (nothing was risked). Resign: the engine wins. Offer a draw: the engine accepts when
// its last search of its own move gave the game as level (within 25 centi-units) once both
// sides have made ten moves, and declines otherwise.
function gameEnding(kind) {
  const human = humanSide();
  if (human === "both" || over() || !atEnd()) {
    hint(human === "both" ? "Resign, draw and abort are for a game against the engine."
      : over() ? `${gameOverText()}.` : "Go to the last move (End) first.");
    return;
  }
  if (kind === "abort") {
    if (play.moves.some((_, i) => sideAfter(i) === human)) {
      hint("A game is aborted only before your first move: resign instead.");
      return;
    }
    newGame().then(() => hint("Game aborted."));
    return;
  }
  if (kind === "draw") {
    const level = play.engineScore !== null && Math.abs(play.engineScore) <= 25 && play.moves.length >= 20;
    if (!level) {
      hint(play.moves.length < 20 ? "The engine declines a draw this early." : "The engine declines the draw: it plays on.");
      return;
    }
  }
  changeLine();
  if (kind === "resign") play.resigned = human;
  else play.drawn = true;
  play.analysing = false;
  if (play.clock) play.clock.pause();
  hint("");
  draw();
  updateAddress();
}

function settingChanged(what) {
  if (!play.moves.length) {
    newGame().then(() => hint(`A new game with ${what}.`));
    return;
  }
  hint(`${what[0].toUpperCase()}${what.slice(1)}: for the next game (New game starts it); this game goes on as it began.`);
}

function newGameState(start, moves, rules) {
  changeLine();
  ++play.gameId;
  play.start = start;
  play.rules = rules;
  play.moves = moves;
  play.tree = new MoveTree(moves);
  play.ply = moves.length;
  play.flag = null;
  play.resigned = null;
  play.drawn = false;
  play.engineScore = null;
  play.end = null;
  play.clock = null;
  $("clock").value = "";
}

const copyText = (text, what) => copyToClipboard(text, what, hint);

function copyPosition() {
  if (!play.game) return;
  $("position-text").value = play.game.position;
  copyText(play.game.position, "Position");
}

// The game as the server writes its PGN record (players, date, clock, how it ended); null on
// failure (the message line says why).
async function gamePgn() {
  const human = humanSide();
  const engine = `loa (${$("variant").value})`;
  const name = (side) => (human === "both" ? "?" : human === side ? "user" : engine);
  const today = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  const tc = parseTimeControl(play.timeControl);
  try {
    // The game is its main line (a variation is looked at, not played).
    const reply = await api("/api/pgn", { ...gameRequest(play.tree.mainline()), black: name("b"), white: name("w"), date: today,
      time_control: play.clock ? `${tc.base / 1000}+${tc.increment / 1000}` : "", time_forfeit: play.flag || "",
      resigned: play.resigned || "", draw_agreed: play.drawn });
    return { pgn: reply.pgn, today };
  } catch (e) {
    showMessage(`PGN: ${e.message}`);
    return null;
  }
}

async function downloadPgn() {
  const reply = await gamePgn();
  if (!reply) return;
  const name = `loa-${reply.today.replaceAll(".", "")}.pgn`;
  downloadText(name, reply.pgn, "application/vnd.chess-pgn");
  hint(`Game saved as ${name}.`);
}

// The arrow keys and Home / End walk through the game (the board keeps its own arrow keys).
function onKey(e) {
  if ($("play").hidden || !keyForPage(e.target)) return;
  const to = { ArrowLeft: play.ply - 1, ArrowRight: play.ply + 1, Home: 0, End: play.moves.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
}

export async function initPlay(config) {
  play.board = new Board($("play-board"), { onSquare: onPlaySquare, label: "game board" });
  for (const preset of config.presets) $("variant").add(new Option(preset, preset, false, preset === config.variant));
  for (const r of config.rules) $("rules").add(new Option(r.name, r.name, false, r.name === "olympiad"));
  play.ruleNames = new Map(config.rules.map((r) => [r.text, r.name]));  // a record's rules are spelled out
  $("rules").title = config.rules.map((r) => `${r.name}: ${r.description}`).join("\n");
  $("new-game").onclick = () => newGame();
  $("undo").onclick = undo;
  $("pass").onclick = () => playMove("pass");
  $("engine-move").onclick = engineMoveNow;
  $("analyse").onclick = analyse;
  $("analyse-game").onclick = analysePlayed;
  $("resign").onclick = () => gameEnding("resign");
  $("offer-draw").onclick = () => gameEnding("draw");
  $("abort").onclick = () => gameEnding("abort");
  wheelSteps($("play-board"), (step) => goTo(play.ply + step));
  $("play-first").onclick = () => goTo(0);
  $("play-back").onclick = () => goTo(play.ply - 1);
  $("play-forward").onclick = () => goTo(play.ply + 1);
  $("play-last").onclick = () => goTo(play.moves.length);
  $("flip").onclick = () => { play.board.flip(!play.board.flipped); draw(); };
  $("set-position").onclick = setPosition;
  $("position-text").onkeydown = (e) => { if (e.key === "Enter") setPosition(); };
  $("copy-position").onclick = copyPosition;
  $("copy-link").onclick = () => { updateAddress(); copyText(location.href, "Link"); };
  $("download-pgn").onclick = downloadPgn;
  $("copy-pgn").onclick = async () => {
    const reply = await gamePgn();
    if (reply) copyText(reply.pgn, "PGN");
  };
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
    stopSearch();  // the engine may no longer be the side it was choosing a move for
    play.board.flip(humanSide() === "w");  // the user's pieces at the bottom
    refresh();
  };
  $("rules").onchange = () => settingChanged(`the ${$("rules").value} rules`);
  $("start-kind").onchange = () => settingChanged($("start-kind").value === "eggs" ? "the Scrambled Eggs start" : "the standard start");
  $("clock").onchange = () => {
    const text = $("clock").value.trim();
    if (text && !parseTimeControl(text)) {
      hint(`'${text}' is not a clock: minutes + seconds a move, e.g. 5+3, at most 1440+3600 (empty: a fixed time a move).`);
      return;
    }
    settingChanged(text ? `a ${text} clock (minutes + seconds a move)` : "no clock");
  };
  $("arrows").onchange = () => { if (!play.search || $("arrows").value === "never") play.board.clearLine(); };
  document.addEventListener("keydown", onKey);
  setInterval(tick, 100);
  await newGame();
}

export function playVisible() { updateAddress(); }
