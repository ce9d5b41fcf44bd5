/*
 * Turn clocks (docs/protocol.md): each seat's time left, the running one counted down live against the server's
 * own clock (the state's `server_time`), turning to a warning colour when low.
 *
 *   setServerTime(secs)        remember the offset of the server's clock from this browser's
 *   serverNow()                the server's unix time now
 *   secondsLeft(clock, seat)   a seat's time left now (null without a clock)
 *   formatClock(secs)          m:ss, or hours and minutes, or days and hours
 *   clockBadge(table, seat)    the element shown in a player's box (null without a clock, and for a bot's seat)
 *   countdown(until, {clock})  an element counting the seconds down to `until` (a server unix time); as m:ss with
 *                              `clock: true`
 *   lowOnTime(clock, seat)     whether a seat's running clock is below its warning mark (20 s, or a tenth of a
 *                              per-turn limit)
 *   roundPaused(table)         whether a round's end is being shown (clock.paused_until): nobody is to play
 *   startTicking()             repaint every clock and countdown on the page every 250 ms
 */

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";

const TICK_MS = 250;
const LOW_SECONDS = 20;
const LOW_SHARE = 0.1; // of a per-turn limit (daily)

let offset = 0; // the server's clock minus this browser's, in seconds
let ticker = null;

export function setServerTime(serverTime) {
  if (typeof serverTime === "number" && Number.isFinite(serverTime)) offset = serverTime - Date.now() / 1000;
}

export function serverNow() {
  return Date.now() / 1000 + offset;
}

/** Whether the table pauses at a round's end now: its scores are shown and nobody is to play until it is over. */
export function roundPaused(table) {
  const until = table && table.clock ? table.clock.paused_until : null;
  return table.status === "running" && typeof until === "number" && until > serverNow();
}

/** Whether the table has a clock at all. */
export function timed(clock) {
  return Boolean(clock && Array.isArray(clock.remaining));
}

export function secondsLeft(clock, seat) {
  if (!timed(clock)) return null;
  const bank = clock.remaining[seat] ?? 0;
  if (clock.running === seat && typeof clock.deadline === "number") return Math.max(0, Math.min(bank, clock.deadline - serverNow()));
  return Math.max(0, bank);
}

export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return t("clock.days_hours", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("clock.hours_minutes", { h: Math.floor(s / 3600), m: String(Math.floor((s % 3600) / 60)).padStart(2, "0") });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Below how many seconds a clock shows its warning colour: 20 s, or a tenth of a longer per-turn limit. */
function lowMark(clock) {
  return clock.per_turn ? Math.max(LOW_SECONDS, clock.per_turn * LOW_SHARE) : LOW_SECONDS;
}

export function lowOnTime(clock, seat) {
  if (!timed(clock) || clock.running !== seat || typeof clock.deadline !== "number") return false;
  return secondsLeft(clock, seat) < lowMark(clock);
}

function paintClock(node) {
  const deadline = Number(node.dataset.deadline);
  const bank = Number(node.dataset.bank);
  const seconds = node.dataset.deadline ? Math.max(0, Math.min(bank, deadline - serverNow())) : bank;
  const text = formatClock(seconds);
  node.querySelector(".clock-time").textContent = text;
  node.title = t(node.dataset.deadline ? "clock.running" : "clock.left", { time: text });
  node.classList.toggle("low", seconds < Number(node.dataset.low));
  node.dataset.seconds = String(Math.ceil(seconds));
}

/** A small clock face (drawn, so it needs no font of its own). */
export function clockIcon() {
  return svg(
    "svg",
    { viewBox: "0 0 16 16", class: "clock-icon", width: 12, height: 12, "aria-hidden": "true" },
    svg("circle", { cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    svg("path", { d: "M8 4.2V8l2.6 1.7", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }),
  );
}

export function clockBadge(table, seat) {
  const clock = table && table.clock;
  const info = table && table.seats ? table.seats[seat] : null;
  if (!timed(clock) || !info || info.kind === "bot") return null; // a bot's thinking is charged to nobody
  const running = clock.running === seat && typeof clock.deadline === "number";
  const node = h(
    "span",
    {
      class: `clock${running ? " running" : ""}`,
      role: "timer",
      dataset: { testid: "clock", seat, bank: String(clock.remaining[seat] ?? 0), low: String(lowMark(clock)), ...(running ? { deadline: String(clock.deadline) } : {}) },
    },
    clockIcon(),
    h("span", { class: "clock-time" }),
  );
  paintClock(node);
  return node;
}

function paintCountdown(node) {
  const seconds = Math.max(0, Math.ceil(Number(node.dataset.until) - serverNow()));
  node.textContent = node.dataset.clock ? formatClock(seconds) : t("clock.seconds", { n: seconds });
  node.dataset.seconds = String(seconds);
}

export function countdown(until, { clock = false } = {}) {
  const node = h("span", { class: "countdown", dataset: { testid: "countdown", until: String(until), ...(clock ? { clock: "true" } : {}) } });
  paintCountdown(node);
  return node;
}

export function startTicking() {
  if (ticker !== null) return;
  ticker = setInterval(() => {
    for (const node of document.querySelectorAll(".clock[data-deadline]")) paintClock(node);
    for (const node of document.querySelectorAll(".countdown[data-until]")) paintCountdown(node);
  }, TICK_MS);
}

/** A clock's figures in words, for the lobby: a profile's name, or a custom bank and increment or turn limit. */
export function clockName(clock) {
  if (!clock || clock.name === "none" || (!clock.bank && !clock.per_turn)) return t("clock.name.none");
  const key = `clock.name.${clock.name}`;
  const named = clock.name !== "custom" && t(key) !== key ? t(key) : null;
  const figures = clock.per_turn
    ? t("clock.per_turn", { time: formatClock(clock.per_turn) })
    : t("clock.bank_increment", { bank: formatClock(clock.bank), inc: Math.round(clock.increment || 0) });
  return named ? `${named} (${figures})` : figures;
}
