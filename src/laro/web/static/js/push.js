// Push notifications (docs/protocol.md, "Push notifications"): with the bell on at a table, this browser subscribes
// with its push service, with the server's key (GET /api/push), and gives the subscription to the server for the
// seat it holds, so that the server can tell the player of a turn while no page of theirs is open. The service
// worker (sw.js) shows what the server pushes, in the words this page leaves it (the page's language).
//
//   pushSeat({table, seat, token, game, title, names}, on)  the seat held at this table (null: none), with the
//                              game's title and the other players' names as the page shows them; subscribes at
//                              once when turns are told already (`on`: the bell was on before)
//   pushOn() / pushOff()       the bell turned on (subscribe) or off (the seat's subscription is forgotten by the
//                              server; the browser's stays, for other tables); each waits for the one before
//
// Where the browser has no PushManager (or its push service refuses), nothing is subscribed: the page's own
// notifications (turn_notice.js) still tell a turn while the table is open.

import * as api from "./api.js";
import { onLangChange, t } from "./i18n.js";

export const WORDS_CACHE = "laro-push-words"; // read by sw.js: the notification's words in the page's language
export const WORDS_KEY = "/laro-push-words.json";

const held = { seat: null, subscribed: null };

// The bell's turns run one after the other, so that the server hears them in the order they were made: a bell
// turned off while its page was still subscribing forgets the subscription just made (and one kept from before).
let turns = Promise.resolve();
function inTurn(failed, task) {
  turns = turns.then(task).catch((error) => console.warn(`laro: ${failed}`, error));
  return turns;
}

/** Whether this browser can subscribe to pushes at all. */
export function canPush() {
  return "serviceWorker" in navigator && "PushManager" in window;
}

function base64ToBytes(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function sameKey(buffer, key) {
  if (!buffer) return false;
  const have = new Uint8Array(buffer);
  const want = base64ToBytes(key);
  return have.length === want.length && have.every((byte, i) => byte === want[i]);
}

const TABLES_KEPT = 20; // tables whose words are kept for the service worker (the newest)

/** The words the service worker says a push of this table in (this page's language): its sentences with the game
 * and the other players' names filled in, and the words it fills in itself (a time left, the winners). */
async function saveWords(seat) {
  if (!("caches" in window)) return;
  const cache = await caches.open(WORDS_CACHE);
  const kept = await cache.match(WORDS_KEY);
  const before = kept ? await kept.json().catch(() => ({})) : {};
  const named = { game: seat.title, names: seat.names };
  const tables = Object.entries(before.tables || {}).filter(([id]) => id !== seat.table).slice(-(TABLES_KEPT - 1));
  tables.push([seat.table, { turn: t("notify.turn", named), reminder: t("notify.reminder", named), over: t("notify.over", named) }]);
  const words = {
    left: t("notify.left"),
    you_won: t("notify.you_won"),
    won: t("notify.won"),
    hours: t("notify.hours"),
    minutes: t("notify.minutes"),
    seconds: t("notify.seconds"),
    body: t("notify.body"),
    tables: Object.fromEntries(tables),
  };
  await cache.put(WORDS_KEY, new Response(JSON.stringify(words), { headers: { "Content-Type": "application/json" } }));
}

async function subscription() {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) throw new Error("no service worker");
  const { key } = await api.getPushKey();
  let found = await registration.pushManager.getSubscription();
  if (found && !sameKey(found.options && found.options.applicationServerKey, key)) {
    await found.unsubscribe(); // made with another key (the server's changed): useless now
    found = null;
  }
  return found || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64ToBytes(key) });
}

/** Subscribe the seat held (the bell is on). */
export function pushOn() {
  return inTurn("no push subscription", async () => {
    const seat = held.seat;
    if (!seat || !canPush()) return;
    await saveWords(seat);
    const made = await subscription();
    await api.pushSubscribe(seat.table, seat.seat, seat.token, made.toJSON());
    if (!sameSeat(held.seat, seat)) return; // another seat was taken meanwhile
    held.subscribed = made.endpoint;
    window.laroPush = { endpoint: made.endpoint, table: seat.table, seat: seat.seat };
  });
}

/** Forget the seat's subscription (the bell is off). */
export function pushOff() {
  return inTurn("the subscription is not forgotten", async () => {
    const seat = held.seat;
    const endpoint = held.subscribed;
    held.subscribed = null;
    window.laroPush = null;
    if (seat && endpoint) await api.pushUnsubscribe(seat.table, seat.seat, seat.token, endpoint);
  });
}

function sameSeat(one, other) {
  return Boolean(one && other && one.table === other.table && one.seat === other.seat);
}

/** The seat held at this table; `on` whether turns are told now (subscribed at once, the first time). */
export function pushSeat(seat, on) {
  if (sameSeat(held.seat, seat)) {
    const renamed = held.seat.names !== seat.names || held.seat.title !== seat.title; // someone joined, or a language
    held.seat = seat;
    if (renamed && held.subscribed) saveWords(seat).catch(() => {});
    return;
  }
  held.seat = seat;
  held.subscribed = null;
  if (seat && on) pushOn();
}

// a language chosen later: the pushes are said in it from now on
onLangChange(() => {
  if (held.seat && held.subscribed) saveWords(held.seat).catch(() => {});
});
