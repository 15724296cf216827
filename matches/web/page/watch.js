// Watch a match: the standings of a running match (its state file, polled every 2 s) or of a
// finished one (its result JSON). When a running match ends, the runner writes its result JSON
// and removes the state file: the view moves to the result by itself and stops polling.

import { $, api, cells, fillFileList, playAddress, showMessage } from "./api.js";
import { Board } from "./board.js";

const watch = { busy: false, finished: new Set() };  // finished: files whose standings cannot change

const fmt = (x, digits = 1) => (typeof x === "number" && isFinite(x) ? x.toFixed(digits) : "–");

// The result JSON a state file leaves behind ("live.json.state" -> "live.json").
async function followToResult(name) {
  await fillFileList($("match-file"), "match");
  const result = name.replace(/\.state$/, "");
  const select = $("match-file");
  if (result !== name && [...select.options].some((o) => o.value === result)) {
    select.value = result;
    $("watch-updated").textContent = `the match ended: showing its result ${result}`;
    return refreshWatch(true);
  }
  return false;
}

export async function refreshWatch(force = false) {
  const name = $("match-file").value;
  if (!name || $("watch").hidden || watch.busy || (watch.finished.has(name) && !force)) return;
  let m;
  watch.busy = true;
  try {
    m = await api(`/api/match/${encodeURIComponent(name)}`);
  } catch (e) {
    watch.busy = false;
    if (name.endsWith(".state") && (await followToResult(name))) return;
    showMessage(`match: ${e.message}`);
    // A result JSON does not change: asked again only when chosen again. A state file may be
    // between two writes: asked again at the next poll, unless it went away (then the list
    // names it "(gone)" and nothing is polled).
    if (!name.endsWith(".state")) watch.finished.add(name);
    else await fillFileList($("match-file"), "match");
    return;
  }
  watch.busy = false;
  if (name !== $("match-file").value) return;
  showMessage("");
  const finished = !m.running && m.source !== "state";
  if (finished) watch.finished.add(name);
  $("watch-summary").textContent = `${m.event}: ${m.played_games} of ${m.scheduled_games} games` +
    (m.running ? " (running)" : m.source === "state" ? " (stopped: the same command resumes it)" : " (finished)") +
    (m.stopped_by_sprt ? ", stopped by SPRT" : "");
  $("watch-summary").dataset.state = m.running ? "running" : finished ? "finished" : "stopped";
  const pairings = document.querySelector("#watch-pairings tbody");
  pairings.innerHTML = "";
  for (const p of m.pairings || []) {
    const sprt = p.sprt ? `LLR ${fmt(p.sprt.llr, 2)} [${fmt(p.sprt.lower, 2)}, ${fmt(p.sprt.upper, 2)}] ${p.sprt.decision}` : "";
    const row = pairings.insertRow();
    // The score counts every game; the Elo and its interval the whole game pairs only (a pair's
    // two games share an opening): said in the cell, as the two can differ while a pair is open.
    const pairs = (p.pentanomial || []).reduce((a, b) => a + b, 0);
    cells(row, [p.first, p.second, p.wins, p.draws, p.losses, fmt(p.score, 3),
      `${fmt(p.elo)} [${fmt(p.elo_low)}, ${fmt(p.elo_high)}] · ${pairs} ${pairs === 1 ? "pair" : "pairs"}`, (p.pentanomial || []).join(" "), sprt]);
    row.cells[7].className = "wide-only";
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
    figure.appendChild(frame);
    new Board(frame, { label: `game ${g.game}` }).render(g);
    const caption = document.createElement("figcaption");
    caption.textContent = `game ${g.game}: ${g.black} (b) – ${g.white} (w), ply ${g.plies}, ${g.side_to_move === "b" ? "Black" : "White"} to move `;
    // One click: this game as it stands, in Play with the engine analysing.
    const analyse = document.createElement("button");
    analyse.type = "button";
    analyse.textContent = "Analyse in Play";
    analyse.onclick = () => { location.hash = playAddress({ start: g.start, moves: g.moves, analyse: true }); };
    caption.appendChild(analyse);
    figure.appendChild(caption);
    live.appendChild(figure);
  }
  if (!(m.in_progress || []).length) live.textContent = m.running ? "none at the moment" : finished ? "none: the match is over" : "none: the run is not playing";
  const games = document.querySelector("#watch-games tbody");
  games.innerHTML = "";
  for (const g of (m.games || []).slice().reverse()) {
    const row = games.insertRow();
    cells(row, ["", g.black, g.white, g.result, g.termination, g.plies]);
    row.cells[4].className = row.cells[5].className = "wide-only";
    // The game's number opens it in Replay (its moves, the board, the analysis).
    const open = document.createElement("button");
    open.type = "button";
    open.className = "link";
    open.textContent = String(g.game);
    open.title = `open game ${g.game} in Replay`;
    open.onclick = () => openMatchGame(name, g.game);
    row.cells[0].append(open);
  }
  $("watch-updated").textContent = `updated ${new Date().toLocaleTimeString()}` + (m.running ? ", every 2 s" : finished ? " (final)" : "");
  return true;
}

async function openMatchGame(file, game) {
  try {
    const record = await api(`/api/match/${encodeURIComponent(file)}/game/${game}`);
    document.dispatchEvent(new CustomEvent("open-games", { detail: { label: `${file}, game ${game}`, games: [record] } }));
  } catch (e) {
    showMessage(`watch: ${e.message}`);
  }
}

export async function initWatch() {
  $("match-file").onchange = () => {
    watch.finished.delete($("match-file").value);
    refreshWatch();
  };
  await fillFileList($("match-file"), "match");
  setInterval(refreshWatch, 2000);
}

export const refreshMatchList = () => fillFileList($("match-file"), "match");
