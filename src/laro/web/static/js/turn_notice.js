// Telling a player that their turn has come while the table's tab is in the background:
//   turnNotice({mine, passed, title, text, url, push}) on every state (`passed`: another seat has acted since the
//                   last one): while the page is hidden and it is this player's turn, the
//                   tab's title is marked ("● Your turn — laro") until the page is seen again; when the turn comes
//                   while it is hidden, and the player asked for it, a notification says so (a click on it brings
//                   the tab forward: the service worker's notificationclick, or the page's own for a plain one)
//                   `push` is the seat held ({table, seat, token, game, title}, or null): with the bell on, this
//                   browser subscribes to pushes for it, so that the server tells the turns that come while no page
//                   of the player's is open (push.js)
//   notifySwitch()  the bell for the top bar: turns the notifications on (the browser asks for its permission then,
//                   and only then) or off; this browser remembers the choice
//
// Each notification shown is noted in window.laroNotices ([{title, body, url}]) for whoever wants to know, once the
// browser has shown it (a notification asked for but refused is not noted).

import { h, replace, svg } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { pushOff, pushOn, pushSeat } from "./push.js";
import { showError } from "./shell.js";

const STORAGE_KEY = "laro.notify";
const TAG = "laro-turn"; // one turn notification at a time: a new one replaces the last
const ICON = "/static/img/icon-192.png";

const state = { mine: false, title: document.title, drawn: false };
window.laroNotices = window.laroNotices || [];

function wanted() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false;
  }
}

function setWanted(value) {
  try {
    localStorage.setItem(STORAGE_KEY, value ? "on" : "off");
  } catch {
    /* storage may be off: for this page only */
  }
}

/** Whether this browser can show notifications at all. */
export function canNotify() {
  return "Notification" in window;
}

/** Whether a turn is told by a notification: asked for, and allowed by the browser. */
export function notifying() {
  return canNotify() && wanted() && Notification.permission === "granted";
}

function paintTitle() {
  document.title = document.hidden && state.mine ? t("notify.title_mark") : state.title;
}

/** Tell the player of the state drawn: `mine` whether it is their turn, `title` the tab's usual title, `text` and
 * `url` the notification's words and the table's address. */
export function turnNotice({ mine, passed = false, title, text, url, push = null }) {
  pushSeat(push, notifying());
  const came = mine && (!state.mine || passed);
  const first = !state.drawn; // the page just opened: what was told of this table while it was closed is seen now
  Object.assign(state, { mine, title, drawn: true });
  paintTitle();
  if (!mine || (first && !document.hidden)) closeNotices();
  else if (came && document.hidden && notifying()) notify(text, url);
}

async function notify(title, url) {
  const options = { body: t("notify.body"), tag: TAG, renotify: true, icon: ICON, data: { url } };
  try {
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    if (registration && registration.active) await registration.showNotification(title, options);
    else {
      const notice = new Notification(title, options); // no service worker: the page's own, while it is open
      notice.addEventListener("click", () => {
        window.focus();
        notice.close();
      });
    }
    window.laroNotices.push({ title, body: options.body, url }); // noted once the browser has it
  } catch (error) {
    console.warn("laro: no notification", error);
  }
}

/** The turn's notifications (this page's, and the pushes of this table) are stale once the page is seen or the
 * turn has passed. */
async function closeNotices() {
  if (!canNotify() || !("serviceWorker" in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) return;
    for (const notice of await registration.getNotifications()) {
      const pushed = notice.data && notice.data.url === location.pathname; // a push of this table's (sw.js)
      if (notice.tag === TAG || pushed) notice.close();
    }
  } catch {
    /* nothing to close */
  }
}

document.addEventListener("visibilitychange", () => {
  paintTitle();
  if (!document.hidden) closeNotices();
});

/** A bell, ringing or crossed out (drawn: no font needs to have it). */
function bell(on) {
  const line = { fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" };
  return svg(
    "svg",
    { viewBox: "0 0 20 20", width: 16, height: 16, "aria-hidden": "true", class: "notify-icon" },
    svg("path", { d: "M5 14V9a5 5 0 0 1 10 0v5l1.5 1.5h-13zM8.5 17a1.5 1.5 0 0 0 3 0", fill: "currentColor" }),
    on ? null : svg("path", { d: "M3 3l14 14", ...line }),
  );
}

/** The notifications switch: a button that says what it does, pressed while turns are told. */
export function notifySwitch() {
  if (!canNotify()) return null;
  const button = h("button", { type: "button", class: "small sound-switch notify-switch", dataset: { testid: "notify" } });
  const paint = () => {
    const on = notifying();
    replace(button, bell(on));
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", t("notify.switch"));
    button.title = t(on ? "notify.on" : "notify.off");
  };
  button.addEventListener("click", async () => {
    if (notifying()) {
      setWanted(false);
      pushOff();
    } else {
      const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
      setWanted(answer === "granted");
      if (answer === "denied") showError("notifications_blocked");
      if (answer === "granted") pushOn();
    }
    paint();
  });
  paint();
  const stop = onLangChange(() => (button.isConnected ? paint() : stop()));
  return button;
}
