// The web board's page: drawing and input only. Rules, legal moves, results and the engine are
// the server's (matches/web/server.hpp lists the API). One module per tab; this one starts
// them, switches tabs and keeps the file lists fresh.

import { $, api, showMessage } from "./api.js";
import { initExperiments, refreshTreesizeList } from "./experiments.js";
import { initPlay, openGameFromAddress, playVisible } from "./play.js";
import { initOperator, openOperatorGame, operatorVisible } from "./operator.js";
import { initPreferences } from "./preferences.js";
import { initReplay, openRecords, refreshRecordsList, replayVisible, showGames } from "./replay.js";
import { initWatch, refreshMatchList, refreshWatch } from "./watch.js";

// `linked`: the tab is shown for a link, which opens its own record.
function showTab(name, { linked = false } = {}) {
  for (const button of document.querySelectorAll("#tabs button")) {
    button.classList.toggle("active", button.dataset.tab === name);
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== name;
  showMessage("");
  refreshLists();
  if (name === "watch") refreshWatch();
  if (name === "replay" && !linked) replayVisible();
  if (name === "play") playVisible();
  else if (name === "operator") operatorVisible(linked);
  else if (name !== "replay" || !location.hash.startsWith("#replay=")) history.replaceState(null, "", location.pathname);
}

// The visible tab's file list, read again (files come and go while the page is open).
function refreshLists() {
  if (!$("replay").hidden) refreshRecordsList();
  if (!$("watch").hidden) refreshMatchList();
  if (!$("experiments").hidden) refreshTreesizeList();
}

// A link: #replay=NAME[&game=N&ply=P] opens a record, #start=...&moves=...&rules=...&ply=... a game,
// #operator=ID an operator's game (resumed as it was saved), #operator the operator's tab.
async function openFromAddress(params = new URLSearchParams(location.hash.slice(1))) {
  if (params.has("operator")) {
    const id = params.get("operator");
    showTab("operator", { linked: Boolean(id) });
    if (id) await openOperatorGame(id);
    return true;
  }
  if (params.has("replay")) {
    showTab("replay", { linked: true });
    await openRecords(params.get("replay"), undefined, { game: params.get("game"), ply: params.get("ply") });
    return true;
  }
  if (params.has("start") || params.has("moves") || params.has("rules") || params.has("analyse")) {
    showTab("play");
    await openGameFromAddress(params);
    return true;
  }
  return false;
}

async function main() {
  initPreferences();
  for (const button of document.querySelectorAll("#tabs button")) button.onclick = () => showTab(button.dataset.tab);
  const linked = new URLSearchParams(location.hash.slice(1));  // before the first game writes its own
  let config;
  try {
    config = await api("/api/config");
  } catch (e) {
    showMessage(`server: ${e.message}`);
    return;
  }
  initOperator(config);
  await Promise.all([initPlay(config), initReplay(), initWatch(), initExperiments()]);
  await openFromAddress(linked);
  window.addEventListener("hashchange", () => openFromAddress());
  // Watch's "open this game": Replay shows it.
  document.addEventListener("open-games", async (e) => {
    const shown = showGames(e.detail.games, "", {}, e.detail.label);  // the menu is labelled before the tab's lists are read
    showTab("replay", { linked: true });
    await shown;
  });
  setInterval(refreshLists, 5000);
  document.body.dataset.ready = "true";  // for tests: the page has loaded its first game and its lists
}

main();
