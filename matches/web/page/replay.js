// Replay: the games of a records file (the records directory's, or one the user opens), move
// by move, with the keyboard or the move list.

import { $, api, fillFileList, playAddress, showMessage } from "./api.js";
import { Board } from "./board.js";
import { analyseGame, markPly } from "./analysis.js";
import { ending, keyForPage, renderMoveList, resultLine, wheelSteps } from "./move_list.js";

// analysis: the open game's computer analysis (null until asked for), for its move list's marks.
// file: the records directory's file open (its games and moves go into the address), "" for one
// the user opened from disk.
const replay = { board: null, games: [], game: null, ply: 0, cache: new Map(), opening: 0, analysis: null, file: "" };

export function describeGame(game) {
  if (game.over) return `Game over: ${ending(game.description)}`;
  const side = game.side_to_move === "b" ? "Black" : "White";
  return `${side} to move` + (game.legal.length === 1 && game.legal[0].text === "pass" ? " (no legal move: pass)" : "");
}

// A file of the records directory by name, or the text of a file the user opened; `at` (from a
// link) the game (1-based) and ply to show, else the first game at its end.
export async function openRecords(name, text, at = {}) {
  if (!name) return;
  const token = ++replay.opening;
  const select = $("records-file");
  if (text === undefined && select.value !== name) {
    // The menu names the file shown, even one the list has not offered yet.
    if (![...select.options].some((o) => o.value === name)) select.add(new Option(name, name));
    select.value = name;
  }
  try {
    const reply = text === undefined ? await api(`/api/records/${encodeURIComponent(name)}`)
      : await fetch("/api/records", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text })
        .then(async (r) => { const d = await r.json(); if (!r.ok) throw new Error(d.error); return d; });
    if (token !== replay.opening) return;  // another file was chosen meanwhile
    showMessage("");
    await showGames(reply.games, text === undefined ? name : "", at);
  } catch (e) {
    showMessage(`records: ${e.message}`);
  }
}

// Games to replay ({tags, start, moves, rules, reason} each, as the records API gives them): a
// records file's (`file` its name, for the address), or others (`file` ""), which `label`
// names in the file menu (a game that Watch opened).
export async function showGames(games, file = "", at = {}, label = "") {
  ++replay.opening;  // a file still loading does not replace these
  replay.games = games;
  replay.file = file;
  if (label) {
    const select = $("records-file");
    [...select.options].filter((o) => o.dataset.label).forEach((o) => o.remove());
    const option = new Option(label, "", true, true);
    option.dataset.label = "true";
    select.add(option, 0);
    select.value = "";
  }
  const games_menu = $("records-game");
  games_menu.innerHTML = "";
  replay.games.forEach((g, i) => {
    const t = g.tags;
    games_menu.add(new Option(`${i + 1}. ${t.Black || "?"} (b) – ${t.White || "?"} (w) ${t.Result || ""}`, String(i)));
  });
  const index = Math.max(0, Math.min(replay.games.length - 1, (Number(at.game) || 1) - 1));
  games_menu.value = String(index);
  await openGame(index, at.ply === undefined || at.ply === null || at.ply === "" ? undefined : Number(at.ply));
}

// The address names the file, game and move shown, so that it can be linked (a file opened from
// disk has no address).
function writeAddress() {
  if (!replay.file || $("replay").hidden || !replay.game) return;
  const index = replay.games.indexOf(replay.game);
  history.replaceState(null, "", `#replay=${encodeURIComponent(replay.file)}&game=${index + 1}&ply=${replay.ply}`);
}

async function openGame(index, ply = undefined) {
  replay.game = replay.games[index];
  replay.cache.clear();
  replay.analysis = null;
  $("replay-analysis").hidden = true;
  $("replay-analysis").innerHTML = "";
  if (!replay.game) return;
  const body = document.querySelector("#replay-tags tbody");
  body.innerHTML = "";
  for (const [tag, value] of Object.entries(replay.game.tags)) {
    const row = body.insertRow();
    row.insertCell().textContent = tag;
    row.insertCell().textContent = value;
  }
  await showPly(ply === undefined || Number.isNaN(ply) ? replay.game.moves.length : ply);
}

async function showPly(ply) {
  const g = replay.game;
  if (!g) return;
  ply = Math.max(0, Math.min(g.moves.length, ply));
  replay.ply = ply;
  let state = replay.cache.get(ply);
  if (!state) {
    try {
      state = await api("/api/game", { start: g.start, moves: g.moves.slice(0, ply), rules: g.rules });
    } catch (e) {
      showMessage(`replay: ${e.message}`);
      return;
    }
    if (replay.game !== g) return;  // another game was opened meanwhile
    replay.cache.set(ply, state);
  }
  if (replay.game !== g || replay.ply !== ply) return;  // a later step or another game came first
  const connected = state.over && state.termination.includes("connection") ? state.connected : [];
  replay.board.render(state, { connected });
  writeAddress();
  $("replay-ply").textContent = `ply ${ply} / ${g.moves.length}`;
  $("replay-status").textContent = describeGame(state);
  const t = g.tags;
  renderMoveList($("replay-moves"), { moves: g.moves, startSide: g.start.trim().slice(-1) === "w" ? "w" : "b", current: ply,
    // The runner's reason (the comment before the result); PGN's Termination word otherwise.
    result: t.Result && t.Result !== "*" ? resultLine(t.Result, g.reason || t.Termination || "") : "", onSelect: showPly,
    marks: replay.analysis ? replay.analysis.plies.map((p) => p.judgement) : null });
  markPly($("replay-analysis"), ply);
}

async function analyseReplayed() {
  const g = replay.game;
  if (!g || !g.moves.length) return;
  $("replay-analyse").disabled = true;
  const result = await analyseGame({ start: g.start, moves: g.moves, rules: g.rules }, $("replay-analysis"), { onSelect: showPly });
  $("replay-analyse").disabled = false;
  if (replay.game !== g || !result) return;  // another game was opened meanwhile, or it was cancelled
  replay.analysis = result;
  await showPly(replay.ply);
}

export async function initReplay() {
  replay.board = new Board($("replay-board"), { label: "replayed game" });
  $("records-file").onchange = (e) => openRecords(e.target.value);
  $("records-game").onchange = (e) => openGame(Number(e.target.value));
  wheelSteps($("replay-board"), (step) => showPly(replay.ply + step));
  $("replay-first").onclick = () => showPly(0);
  $("replay-back").onclick = () => showPly(replay.ply - 1);
  $("replay-forward").onclick = () => showPly(replay.ply + 1);
  $("replay-last").onclick = () => showPly(Infinity);
  $("replay-flip").onclick = () => { replay.board.flip(!replay.board.flipped); };
  $("replay-analyse").onclick = analyseReplayed;
  $("replay-to-play").onclick = () => {
    const g = replay.game;
    if (g) location.hash = playAddress({ start: g.start, moves: g.moves, rules: g.rules, ply: replay.ply, analyse: true });
  };
  document.addEventListener("keydown", (e) => {
    if ($("replay").hidden || !keyForPage(e.target)) return;
    const to = { ArrowLeft: replay.ply - 1, ArrowRight: replay.ply + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    showPly(to);
  });
  // A PGN pasted into the page (or a bare move list), replayed like an opened file.
  $("paste-pgn-open").onclick = () => {
    const box = $("paste-pgn");
    box.hidden = !box.hidden;
    $("paste-pgn-open").setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) $("paste-pgn-text").focus();
  };
  $("paste-pgn-replay").onclick = () => {
    const text = $("paste-pgn-text").value;
    if (text.trim()) openRecords("pasted PGN", text);
  };
  $("records-upload").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) openRecords(file.name, await file.text());
  };
  return fillFileList($("records-file"), "records");
}

export const refreshRecordsList = () => fillFileList($("records-file"), "records");

// The tab shown: a record is open (the chosen file's first game) unless one already is.
export function replayVisible() {
  if (!replay.game && !replay.opening && $("records-file").value) openRecords($("records-file").value);
}
