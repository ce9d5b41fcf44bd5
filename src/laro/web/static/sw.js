// laro's service worker, served at /sw.js so that its scope is the whole site (docs/protocol.md, "Offline").
//
// It keeps the browser client's own files (/static/: scripts, styles, images, strings) in one cache per version of
// laro, so the site opens fast and, without a network, answers a page with the offline page instead of the
// browser's error. It never keeps anything else: the API (/api/), a table's state, a record, a WebSocket, a page
// that carries a token in its address — all of these go to the network as if there were no worker.

const VERSION = "__LARO_VERSION__"; // laro's version and a hash of its browser files, written here by the server
const PREFIX = "laro-shell-";
const CACHE = PREFIX + VERSION;
const OFFLINE = "/static/offline.html";
// what the offline page needs, kept at once; the rest of /static/ is kept as the pages load it
const PRECACHE = [
  OFFLINE,
  "/static/css/base.css",
  "/static/css/offline.css",
  "/static/js/offline.js",
  "/static/js/dom.js",
  "/static/js/i18n.js",
  "/static/js/i18n/en.js",
  "/static/js/i18n/ko.js",
  "/static/img/llama.svg",
  "/static/img/icon.svg",
  "/static/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

// a new version replaces the old: every other cache of laro's shell goes
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(shell(request));
  // anything else (/api/, /ws/, /healthz…) is not answered here: the network alone, never a cache
});

/** A page: the network's answer, never kept; the offline page when the network (or the server) cannot answer. */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(OFFLINE, { cacheName: CACHE })) || Response.error();
  }
}

/** One of the client's files: from this version's cache, else from the server (then kept). */
async function shell(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request, { cache: "no-cache" }); // not a copy the HTTP cache kept from another version
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

// a click on a turn's notification brings its table forward: the tab already open on it, else a new one
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const target = new URL(wanted.pathname, self.location.origin); // only a page of this site
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((each) => new URL(each.url).pathname === target.pathname);
      return open ? open.focus() : self.clients.openWindow(target.href);
    }),
  );
});

// A push from the server (docs/protocol.md, "Push notifications"): a turn, a reminder, or a game's end at a table of
// a seat this browser subscribed for. Said in the words the table's page left (its language), else in the English
// the server sent; a click brings the table forward (above).
const WORDS_CACHE = "laro-push-words"; // written by js/push.js
const WORDS_KEY = "/laro-push-words.json";
const ICON = "/static/img/icon-192.png";

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(showPush(data));
});

async function showPush(data) {
  const words = await pushWords();
  const title = (words && said(words, data)) || data.text || "laro";
  const options = { body: (words && words.body) || "", tag: `laro-turn-${data.table || ""}`, renotify: true, icon: ICON, data: { url: data.url || "/" } };
  return self.registration.showNotification(title, options);
}

async function pushWords() {
  try {
    const kept = await caches.match(WORDS_KEY, { cacheName: WORDS_CACHE });
    return kept ? await kept.json() : null;
  } catch {
    return null;
  }
}

function fill(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A time left in the page's words: whole hours, else minutes, else seconds. */
function duration(words, seconds) {
  if (seconds >= 3600) return fill(words.hours, { n: Math.floor(seconds / 3600) });
  if (seconds >= 60) return fill(words.minutes, { n: Math.floor(seconds / 60) });
  return fill(words.seconds, { n: Math.floor(seconds) });
}

/** The push's sentence in the page's language; null for a table whose page left no words. */
function said(words, data) {
  const own = words.tables && words.tables[data.table];
  if (!own) return null;
  const time = data.left === null || data.left === undefined ? null : duration(words, data.left);
  if (data.type === "turn") return time === null ? own.turn : `${own.turn} — ${fill(words.left, { time })}`;
  if (data.type === "reminder") return fill(own.reminder, { time: time || "" });
  if (data.type === "end") {
    const winners = data.winners || [];
    if (data.won) return `${own.over} — ${words.you_won}`;
    return winners.length ? `${own.over} — ${fill(words.won, { names: winners.join(", ") })}` : own.over;
  }
  return null;
}
