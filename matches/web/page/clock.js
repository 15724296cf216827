// A game clock for the page: each side's time left, the running side's counting down. It knows
// nothing of the game: the page presses it after each move and asks it who has flagged.

export class GameClock {
  // base and increment in milliseconds
  constructor(baseMs, incrementMs) {
    this.base = baseMs;
    this.increment = incrementMs;
    this.increments = { b: incrementMs, w: incrementMs };  // each side's own (the operator's mode sets them apart)
    this.left = { b: baseMs, w: baseMs };
    this.running = null;   // "b", "w" or null
    this.since = 0;        // performance.now() when the running side's time began to count
  }

  // Time left now, the running side's as of this instant.
  remaining(side) {
    const used = this.running === side ? performance.now() - this.since : 0;
    return this.left[side] - used;
  }

  start(side) {
    if (this.running === side) return;
    this.pause();
    this.running = side;
    this.since = performance.now();
  }

  pause() {
    if (this.running) this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  // `side` has moved: its time stops, its increment is added, the other side's clock runs.
  press(side) {
    if (this.running === side) this.pause();
    this.left[side] += this.increments[side];
    this.start(side === "b" ? "w" : "b");
  }

  // A clock whose sides have times of their own: {b: {base_ms, increment_ms}, w: {...}}.
  static perSide(clocks) {
    const clock = new GameClock(clocks.b.base_ms, clocks.b.increment_ms);
    clock.left.w = clocks.w.base_ms;
    clock.increments.w = clocks.w.increment_ms;
    return clock;
  }

  flagged() {
    for (const side of ["b", "w"]) if (this.remaining(side) <= 0) return side;
    return null;
  }

  static format(ms) {
    const t = Math.max(0, ms);
    const minutes = Math.floor(t / 60000), seconds = Math.floor((t % 60000) / 1000);
    const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
    return t < 10000 ? `${text}.${Math.floor((t % 1000) / 100)}` : text;  // tenths in the last ten seconds
  }
}

// "5+3" (minutes + seconds) -> {base, increment} in ms; null for "" (time a move instead) and
// for clocks beyond what the server takes (a day; an hour a move).
export function parseTimeControl(text) {
  const match = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(text || "");
  if (!match || Number(match[1]) <= 0 || Number(match[1]) > 1440 || Number(match[2]) > 3600) return null;
  return { base: Number(match[1]) * 60000, increment: Number(match[2]) * 1000 };
}
