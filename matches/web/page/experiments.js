// Experiments: a tree-size result (loa-match treesize) as a table and a plot of nodes against
// depth.

import { $, api, cells, fillFileList, showMessage } from "./api.js";

// Text from a result file, made safe to place inside the plot's SVG markup.
const escapeXml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

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
  // Nodes against depth on a log scale, one line per variant (the SVG scales to its box). The
  // plot grows with its legend so that every variant is named; colours repeat with another
  // dash after eight, and pointing at a variant's name or line picks it out from the others.
  const svg = $("treesize-plot");
  const W = 720, left = 70, right = 230, top = 20, bottom = 40;
  const H = Math.max(360, top + 14 * (names.length + 1) + bottom);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const depths = t.depths.map((r) => r.depth);
  const all = t.depths.flatMap((r) => r.variants.map((v) => Math.max(1, v.nodes)));
  const lo = Math.floor(Math.log10(Math.min(...all))), hi = Math.ceil(Math.log10(Math.max(...all)));
  const x = (d) => left + (depths.length > 1 ? (d - depths[0]) / (depths[depths.length - 1] - depths[0]) : 0.5) * (W - left - right);
  const y = (n) => top + (1 - (Math.log10(Math.max(1, n)) - lo) / Math.max(1, hi - lo)) * (H - top - bottom);
  const colours = ["#2a7ae2", "#d9534f", "#5cb85c", "#f0ad4e", "#6f42c1", "#17a2b8", "#333", "#e83e8c"];
  const dashes = ["", "6 3", "2 3", "10 3 2 3", "1 5", "12 6", "4 2 1 2", "8 2 2 2"];
  let out = "";
  for (let e = lo; e <= hi; ++e) {
    out += `<line x1="${left}" x2="${W - right}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/>` +
      `<text x="${left - 6}" y="${y(10 ** e) + 4}" font-size="11" text-anchor="end">1e${e}</text>`;
  }
  for (const d of depths) out += `<text x="${x(d)}" y="${H - bottom + 16}" font-size="11" text-anchor="middle">${escapeXml(d)}</text>`;
  out += `<text x="${(left + W - right) / 2}" y="${H - 6}" font-size="12" text-anchor="middle">depth</text>`;
  names.forEach((n, i) => {
    const points = t.depths.map((r) => `${x(r.depth)},${y(r.variants[i].nodes)}`).join(" ");
    const c = colours[i % colours.length], dash = dashes[Math.floor(i / colours.length) % dashes.length];
    const legendY = top + 14 * (i + 1);
    out += `<g class="series"><title>${escapeXml(n)}</title>` +
      `<polyline points="${points}" fill="none" stroke="${c}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>` +
      `<line x1="${W - right + 6}" x2="${W - right + 26}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${c}" stroke-width="2"` +
      `${dash ? ` stroke-dasharray="${dash}"` : ""}/>` +
      `<text x="${W - right + 30}" y="${legendY}" font-size="11" fill="${c}">${escapeXml(n)}</text></g>`;
  });
  svg.innerHTML = out;
  showMessage("");
}

export async function initExperiments() {
  $("treesize-file").onchange = (e) => showTreesize(e.target.value);
  if (await fillFileList($("treesize-file"), "treesize")) await showTreesize($("treesize-file").value);
}

export const refreshTreesizeList = () => fillFileList($("treesize-file"), "treesize");
