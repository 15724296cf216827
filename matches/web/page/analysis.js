// A whole game's computer analysis (/api/analysis): progress while the server searches every
// position, then the graph of White's expected result after each move under the board (a
// click goes to that move) and the marks (?!, ?, ??) the move list shows.

import { streamEvents } from "./api.js";
import { MarkSymbols } from "./move_list.js";

const SVG = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// Runs the analysis of {start, moves, rules}; `box` shows the progress and a Cancel button,
// then the graph. Resolves with the analysis JSON (null when cancelled or failed: the box says
// why). `onSelect(ply)` is called when the graph is clicked.
export async function analyseGame(game, box, { movetime = 100, onSelect = null } = {}) {
  const controller = new AbortController();
  box.hidden = false;
  box.innerHTML = "";
  const status = document.createElement("span");
  status.className = "analysis-status";
  status.setAttribute("role", "status");
  status.textContent = "Analysing…";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.onclick = () => controller.abort();
  // The button before the status: the status grows as the progress comes in, and a button after
  // it would move away from the pointer about to click it.
  box.append(cancel, status);
  let result = null;
  try {
    await streamEvents("/api/analysis", { start: game.start || "startpos", moves: game.moves.join(" "), rules: game.rules || "",
      movetime }, controller.signal, (name, data) => {
      if (name === "progress") status.textContent = `Analysing… position ${data.done} of ${data.total}`;
      else if (name === "analysis") result = data;
      else if (name === "error") throw new Error(data.error);
    });
  } catch (e) {
    status.textContent = controller.signal.aborted ? "Analysis cancelled." : `Analysis failed: ${e.message}`;
    cancel.remove();
    return null;
  }
  cancel.remove();
  if (!result) {
    status.textContent = "Analysis failed: the server ended the stream early.";
    return null;
  }
  const count = (kind) => result.plies.filter((p) => p.judgement === kind).length;
  status.textContent = `Computer analysis: ${count("inaccuracy")} inaccuracies, ${count("mistake")} mistakes, ` +
    `${count("blunder")} blunders (${movetime} ms a position)`;
  drawGraph(box, result, onSelect);
  return result;
}

// White's expected result (0 to 1, White up) before the first move and after each, as a filled
// line; a mark's point in its colour; the current ply a vertical line (markPly).
function drawGraph(box, analysis, onSelect) {
  const width = 600, height = 120;
  const points = [analysis.white_expected_start, ...analysis.plies.map((p) => p.white_expected)];
  const x = (ply) => (points.length > 1 ? (ply / (points.length - 1)) * width : 0);
  const y = (expected) => (1 - expected) * height;
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-graph", role: "img",
    "aria-label": "evaluation graph: White's expected result after each move; click a point to go there" });
  svg.dataset.plies = String(points.length - 1);
  svg.append(svgElement("rect", { x: 0, y: 0, width, height, class: "graph-black" }));
  const line = points.map((p, ply) => `${x(ply).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
  svg.append(svgElement("polygon", { points: `0,${height} ${line} ${width},${height}`, class: "graph-white" }));
  svg.append(svgElement("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "graph-middle" }));
  svg.append(svgElement("line", { x1: 0, x2: 0, y1: 0, y2: height, class: "graph-cursor" }));
  analysis.plies.forEach((p, i) => {
    if (!p.judgement) return;
    const dot = svgElement("circle", { cx: x(i + 1), cy: y(p.white_expected), r: 4, class: `graph-mark ${p.judgement}` });
    dot.dataset.ply = String(i + 1);
    const title = svgElement("title", {});
    title.textContent = `${p.move}${MarkSymbols[p.judgement]} (${p.judgement}; ${p.best} was best)`;
    dot.append(title);
    svg.append(dot);
  });
  if (onSelect) {
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / box.width) * (points.length - 1));
      onSelect(Math.max(0, Math.min(points.length - 1, ply)));
    });
  }
  box.append(svg);
}

// The graph's cursor at `ply` (after that many moves).
export function markPly(box, ply) {
  const svg = box.querySelector("svg.analysis-graph");
  const cursor = svg && svg.querySelector(".graph-cursor");
  if (!cursor) return;
  const plies = Number(svg.dataset.plies);
  const x = plies > 0 ? (Math.min(ply, plies) / plies) * 600 : 0;
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
}
