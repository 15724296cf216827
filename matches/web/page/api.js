// Talking to the server (matches/web/server.hpp lists the API) and the page's message line.

export const $ = (id) => document.getElementById(id);

export async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) {
    const error = new Error(data.error || `${response.status} ${response.statusText}`);
    error.status = response.status;  // (no status: the server did not answer)
    throw error;
  }
  return data;
}

// A search streamed as server-sent events, read with fetch so that an error keeps its JSON
// message and aborting the request (stop, undo, leaving the page) ends the search.
export const streamSearch = (params, signal, onEvent) => streamEvents("/api/search", params, signal, onEvent);

// Any of the server's event streams (/api/search, /api/analysis), read the same way.
export async function streamEvents(path, params, signal, onEvent) {
  const response = await fetch(path + "?" + new URLSearchParams(params), { signal });
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

// The red line under the tabs: errors only (a request refused, a file that is gone).
// The address of a game in Play (its start, moves, rules and the move shown), as Play writes it
// and reads it back (play.js); `line`: a variation shown (its moves from the start), the move
// shown being on it; `analyse`: Play opens it with the engine analysing.
export function playAddress({ start = "startpos", moves = [], rules = "olympiad", line = null, ply = (line || moves).length, analyse = false }) {
  const params = new URLSearchParams();
  if (start !== "startpos") params.set("start", start);
  if (moves.length) params.set("moves", moves.join(" "));
  if (rules !== "olympiad") params.set("rules", rules);
  if (line) params.set("line", line.join(" "));
  if (ply !== (line || moves).length) params.set("ply", String(ply));
  if (analyse) params.set("analyse", "1");
  return params.toString();
}

// Offers `text` as a file download named `name`.
export function downloadText(name, text, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// The text on the clipboard, or (no clipboard: an insecure page, a headless browser) shown by
// `say` instead.
export async function copyText(text, what, say) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied.`);
  } catch {
    say(`${what}: ${text}`);
  }
}

export function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
}

export function cells(row, values) {
  for (const v of values) row.insertCell().textContent = v;
}

// The records directory's files of one kind in a <select>, keeping the chosen one when it is
// still there (or its result JSON, when it was a match's state file); false when there are
// none (or no directory).
export async function fillFileList(select, kind) {
  // A menu showing a choice that is not a file (a labelled option: a game Watch opened) is left
  // as it is until a file is chosen.
  if ([...select.options].some((o) => o.dataset.label && o.selected)) return true;
  let listing;
  try {
    listing = await api("/api/files");
  } catch (e) {
    select.innerHTML = "";
    select.add(new Option(e.message.includes("--records") ? "(start loa serve with --records DIR)" : e.message, ""));
    return false;
  }
  const names = listing.files.filter((f) => f.kind === kind).map((f) => f.name);
  const shown = [...select.options].map((o) => o.value);
  if (names.length && names.join("\n") === shown.join("\n")) return true;  // unchanged: leave the choice alone
  let chosen = select.value;
  // A running match's state file gives way to its result JSON when the match ends.
  if (!names.includes(chosen) && names.includes(chosen.replace(/\.state$/, ""))) chosen = chosen.replace(/\.state$/, "");
  select.innerHTML = "";
  // A chosen file that went away stays named (and chosen), rather than another taking its place.
  if (chosen && !names.includes(chosen)) select.add(new Option(`(gone) ${chosen}`, "", false, true));
  else if (!names.length) select.add(new Option("(none in the records directory)", ""));
  for (const name of names) select.add(new Option(name, name, false, name === chosen));
  return names.length > 0;
}
