// The table's sounds, made in the browser with Web Audio (no files): your turn, a card or piece played, a round
// scored, the clock running low and the game's end; and the mute switch, remembered by this browser.
//
//   play(name)      one of SOUNDS' names; nothing when muted, or before the page was first touched (browsers
//                   let a page sound only after a click or a key)
//   muteSwitch()    a toggle button for the top bar
//   muted()         whether this browser has muted the sounds
//
// Each sound played is noted in window.laroSounds ([{name, at}]) for whoever wants to know what was heard.

import { h, replace, svg } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

const STORAGE_KEY = "laro.muted";

// each sound: notes of [frequency in Hz, start in s, length in s], a wave form and a loudness
const SOUNDS = {
  turn: { wave: "sine", gain: 0.18, notes: [[660, 0, 0.12], [880, 0.11, 0.18]] },
  card: { wave: "triangle", gain: 0.14, notes: [[320, 0, 0.07]] },
  round: { wave: "sine", gain: 0.16, notes: [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.22]] },
  low: { wave: "square", gain: 0.06, notes: [[988, 0, 0.08], [988, 0.16, 0.08]] },
  end: { wave: "sine", gain: 0.18, notes: [[523, 0, 0.16], [659, 0.14, 0.16], [784, 0.28, 0.16], [1047, 0.42, 0.4]] },
};

let context = null;
window.laroSounds = window.laroSounds || [];

export function muted() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "true";
  } catch {
    return false;
  }
}

function setMuted(value) {
  try {
    localStorage.setItem(STORAGE_KEY, String(value));
  } catch {
    /* storage may be off: muted for this page only */
  }
}

/** The audio context, made (or woken) on the page's first click or key: a browser allows sound after one. */
function wake() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wake, { capture: true });

export function play(name) {
  const sound = SOUNDS[name];
  if (!sound || muted() || !context) return;
  const start = context.currentTime + 0.01;
  for (const [frequency, offset, length] of sound.notes) {
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.type = sound.wave;
    tone.frequency.value = frequency;
    // a quick rise and a fall, so that no note clicks
    volume.gain.setValueAtTime(0.0001, start + offset);
    volume.gain.exponentialRampToValueAtTime(sound.gain, start + offset + 0.01);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + length);
    tone.connect(volume).connect(context.destination);
    tone.start(start + offset);
    tone.stop(start + offset + length + 0.02);
  }
  window.laroSounds.push({ name, at: context.currentTime });
}

/** A speaker, with sound waves, or crossed out (drawn: no font needs to have it). */
function speaker(off) {
  const line = { fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" };
  return svg(
    "svg",
    { viewBox: "0 0 20 20", width: 16, height: 16, "aria-hidden": "true", class: "sound-icon" },
    svg("path", { d: "M3 8h3l4-3.5v11L6 12H3z", fill: "currentColor" }),
    off ? svg("path", { d: "M13 7.5l5 5M18 7.5l-5 5", ...line }) : svg("path", { d: "M13 7.5a3.5 3.5 0 0 1 0 5M15.5 5a7 7 0 0 1 0 10", ...line }),
  );
}

/** The mute switch: a button that says what it does, pressed while the sounds are off. */
export function muteSwitch() {
  const button = h("button", { type: "button", class: "small sound-switch", dataset: { testid: "mute" } });
  const paint = () => {
    const off = muted();
    replace(button, speaker(off));
    button.setAttribute("aria-pressed", String(off));
    button.setAttribute("aria-label", t("sound.mute"));
    button.title = t(off ? "sound.off" : "sound.on");
  };
  button.addEventListener("click", () => {
    setMuted(!muted());
    paint();
  });
  paint();
  const stop = onLangChange(() => (button.isConnected ? paint() : stop()));
  return button;
}
