// The reader's preferences, kept in this browser (localStorage): the board's colours and the
// sound of moves. The boards say when a move is played on ("board-move", board.js); this
// module sounds it: a short tap for a move, a deeper double knock for a capture, made with Web
// Audio (no sound files to serve).

import { $ } from "./api.js";

const THEMES = ["brown", "blue", "green"];
let audio = null;

function remembered(key, fallback) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;  // storage refused (a private window): the defaults, every time
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // the preference holds for this page only
  }
}

function knock(at, frequency, length, volume) {
  const oscillator = audio.createOscillator(), gain = audio.createGain();
  oscillator.type = "triangle";
  oscillator.frequency.setValueAtTime(frequency, at);
  oscillator.frequency.exponentialRampToValueAtTime(frequency * 0.6, at + length);
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length);
}

function sound(capture) {
  // Counted for the browser test, which cannot hear.
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  document.body.dataset.lastSound = capture ? "capture" : "move";
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    if (capture) {
      knock(now, 260, 0.12, 0.35);
      knock(now + 0.07, 180, 0.14, 0.3);
    } else {
      knock(now, 480, 0.07, 0.25);
    }
  } catch {
    // no audio output: the move is still shown
  }
}

function applyTheme(name) {
  document.documentElement.dataset.theme = THEMES.includes(name) ? name : THEMES[0];
}

export function initPreferences() {
  const theme = $("theme"), soundButton = $("sound");
  theme.value = remembered("loa.theme", THEMES[0]);
  if (!THEMES.includes(theme.value)) theme.value = THEMES[0];
  applyTheme(theme.value);
  theme.onchange = () => {
    applyTheme(theme.value);
    remember("loa.theme", theme.value);
  };
  const setSound = (on) => {
    soundButton.setAttribute("aria-pressed", String(on));
    soundButton.textContent = on ? "Sound on" : "Sound off";
  };
  setSound(remembered("loa.sound", "on") === "on");
  soundButton.onclick = () => {
    const on = soundButton.getAttribute("aria-pressed") !== "true";
    setSound(on);
    remember("loa.sound", on ? "on" : "off");
  };
  document.addEventListener("board-move", (e) => {
    if (soundButton.getAttribute("aria-pressed") === "true") sound(e.detail.capture);
  });
}
