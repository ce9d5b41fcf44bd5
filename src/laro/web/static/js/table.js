/*
 * The table page (/table/{id}): connection, reconnection, the seat this browser holds, and everything every
 * game shows alike. The game itself is drawn by a renderer module.
 *
 * THE RENDERER CONTRACT (js/games/${game}.js):
 *
 *   table.js loads the renderer with `await import(`./games/${game}.js`)` and its stylesheet, if any, from
 *   /static/css/${game}.css; a game without its own is shown by js/games/generic.js. The module exports
 *
 *     createTable(root, ctx) → { update(message), destroy(), describeAction?(actionText, seat), seatColour?(seat) }
 *
 *   - `root` is an empty element the renderer owns (nothing else writes into it).
 *   - `update(message)` gets every `state` message from the server (docs/protocol.md) as is, the first one
 *     included; every message is complete, so a renderer may redraw from it alone. The replay page
 *     (js/replay.js) sends it each step of a finished game the same way, with `open[seat]` added when every
 *     hand is shown: what only that seat's observation held then (its `hand`, its `yellow` and `green` card).
 *   - `destroy()` is called before the renderer is dropped (for example on a language switch, after which a new
 *     renderer is created with the new `ctx` and given the latest state at once).
 *   - optional `describeAction(actionText, seat)` returns the log's words for one public action text (such as
 *     "play 3") in the current language, without the player's name; null or undefined uses the server's text.
 *   - optional `seatColour(seat)` returns the CSS colour the game gives that seat (Kamara: its diwa's), used for
 *     the seat's dot in the players list, the log and the ranking; null or undefined uses the seat colour.
 *   - `ctx = { send(actionText), t(key, params), lang, seat, table, components, playerName(seat),
 *              confirm({title, text, yes, no, danger}), ready() }`:
 *       send(actionText)  sends {"type": "act", "action": actionText, "seq": <latest seq>}; a second action
 *                         on the same seq is dropped (the first is on its way).
 *       t(key, params)    the i18n lookup (js/i18n.js): strings of js/i18n/${lang}.js and ${game}.${lang}.js.
 *       lang              "en" or "ko".
 *       seat              this browser's seat number, or null for a spectator.
 *       table             the latest table summary (a getter: always current).
 *       components        from /api/games/${game}/components, with the table's own options in place of any
 *                         component the table was created with (tiles, yellow_cards, green_cards).
 *       playerName(seat)  the seat's player name as shown everywhere (bots get a translated name).
 *       confirm(...)      a modal yes/no question; resolves to true for yes.
 *       ready()           sends {"type": "ready"}: "Next round" during the pause at a round's end.
 *   The clocks (js/clock.js) count down against the server's time, which table.js keeps from each state.
 *
 *   table.js itself draws: the header (game title, table status, whose turn, connection state and a reconnect
 *   notice), the players list, the log (the state's `log`), error messages (the server's `error` messages,
 *   translated by `code` through `error.<code>`, with the server's English detail as secondary text), the
 *   language switch, a link to the rules page, the join/invite panels, the final ranking when
 *   `table.status == "over"` (from `table.result`; lower or higher first, as the game's `score_order` says), Rematch, and
 *   below the game the analysis of a seat's moves (js/analysis.js).
 *   CSS colour variables live in css/base.css.
 */

import * as api from "./api.js";
import { analysisPanel } from "./analysis.js";
import { ratingChangesBox } from "./ratings.js";
import { h, replace } from "./dom.js";
import { has, lang, loadStrings, onLangChange, t, titleOf } from "./i18n.js";
import { actionWords, componentsOf, confirmDialog, copyRow, dropRenderer, gameInfo, loadGameStyle, loadRenderer, seatColourOf, showError, topbar } from "./shell.js";
import { clockBadge, countdown, formatClock, lowOnTime, roundPaused, secondsLeft, serverNow, setServerTime, startTicking } from "./clock.js";
import { describeUndo, isUndo, practiceBadge, undoBar, undoKeys } from "./undo.js";
import { chatPanel } from "./chat.js";
import { muteSwitch, play } from "./sound.js";
import { notifySwitch, turnNotice } from "./turn_notice.js";

const BACKOFF_MS = [500, 1000, 2000, 3000, 5000, 8000];
const PING_MS = 20000;
const PONG_TIMEOUT_MS = 8000;

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const page = {
  summary: null, // the latest table summary
  message: null, // the latest state message
  seat: null, // {seat, token, name} held by this browser, or null
  previousSeat: null, // the seat held before an invite link replaced it
  watching: false, // asked to watch although a seat is held
  info: null, // what the game declares (GET /api/games): score_order, steps, component_options…
  module: null,
  renderer: null,
  components: null,
  ws: null,
  connection: "connecting", // connecting | open | lost | closed
  everConnected: false,
  attempts: 0,
  retryTimer: null,
  retryAt: 0,
  pingTimer: null,
  pongTimer: null,
  sentSeq: null,
  onItsWay: null, // the last action or undo sent ({text, seq}), sent again if its connection ends before an answer
  dead: false, // no table, or nothing more to do
  analysis: null, // the analysis panel, once the game is over
  told: null, // what the live region last told: {seq, turn, low}
  freshConnection: false,
  els: {},
};

// -- names and words -------------------------------------------------------------------------------------

function botName(bot) {
  const key = `bot.${bot}`;
  return has(key) ? t(key) : `${bot} bot`;
}

function playerName(seat) {
  const info = page.summary && page.summary.seats[seat];
  if (!info) return t("common.seat", { n: seat + 1 });
  if (info.kind === "bot") {
    const generic = `${info.bot} bot`;
    return info.name && info.name !== generic ? info.name : `${botName(info.bot)} ${seat + 1}`;
  }
  return info.name || t("common.seat", { n: seat + 1 });
}

/** An action of `seat` in the log's words (the renderer's, in the page's language), as the analysis shows it. */
function say(action, seat) {
  return actionWords(page.renderer, action, seat);
}

/** The one colour of a seat everywhere on the page: the game's own (Kamara: the diwa's) when it has one. */
function seatColour(seat) {
  return seatColourOf(page.renderer, seat);
}

/** The bot now playing a person's seat ("Let a bot play"), by its shown name; null for any other seat. */
function botPlayingFor(seat) {
  const info = page.summary && page.summary.seats[seat];
  if (!info || info.kind !== "bot" || !info.name || info.name === `${info.bot} bot`) return null;
  return botName(info.bot);
}

/** What the end says of a winner who is you: you won, or the bot playing your seat won it. */
function youWon() {
  const bot = botPlayingFor(mySeat());
  return bot ? t("end.your_bot_won", { bot: bot.toLowerCase() }) : t("end.you_won");
}

function gameTitle() {
  return titleOf(page.summary.game, page.summary.title);
}

function mySeat() {
  if (page.message && page.message.seat !== undefined) return page.message.seat;
  return page.seat && !page.watching ? page.seat.seat : null;
}

// -- the connection --------------------------------------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

/** The first message on a new connection: who this is (a seat's token never travels in an address). */
function hello() {
  return JSON.stringify(page.seat && !page.watching ? { type: "hello", token: page.seat.token } : { type: "hello" });
}

function connect() {
  clearTimeout(page.retryTimer);
  page.retryTimer = null;
  if (page.dead) return;
  if (page.ws) {
    page.ws.onclose = page.ws.onmessage = page.ws.onerror = null;
    try {
      page.ws.close();
    } catch {
      /* already closed */
    }
  }
  setConnection(page.everConnected ? "lost" : "connecting", { trying: true });
  const ws = new WebSocket(socketUrl());
  page.ws = ws;
  ws.onopen = () => {
    ws.send(hello());
    page.attempts = 0;
    page.sentSeq = null; // an action lost with the old connection is sent again (see receive) or may be made again
    delete document.body.dataset.pending;
    page.freshConnection = true;
    const recovered = page.everConnected;
    page.everConnected = true;
    setConnection("open", { recovered });
    startHeartbeat();
  };
  ws.onmessage = (event) => {
    clearTimeout(page.pongTimer);
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  };
  ws.onclose = (event) => {
    stopHeartbeat();
    if (page.ws !== ws) return;
    page.ws = null;
    if (event.code === 4404) return noTable();
    if (event.code === 4403) return badToken();
    if (event.code === 1012) page.attempts = 0; // the server restarts or hands its tables over: come back at once
    if (page.summary && !["open", "running"].includes(page.summary.status)) {
      // over, expired or abandoned: nothing more will happen here
      setConnection("closed");
      return;
    }
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  if (page.dead) return;
  const base = BACKOFF_MS[Math.min(page.attempts, BACKOFF_MS.length - 1)];
  const delay = Math.round(base * (0.85 + Math.random() * 0.3));
  page.attempts += 1;
  page.retryAt = Date.now() + delay;
  setConnection(page.everConnected ? "lost" : "connecting", { trying: false });
  clearTimeout(page.retryTimer);
  page.retryTimer = setTimeout(connect, delay);
}

function startHeartbeat() {
  stopHeartbeat();
  page.pingTimer = setInterval(() => {
    if (!page.ws || page.ws.readyState !== WebSocket.OPEN) return;
    page.ws.send(JSON.stringify({ type: "ping" }));
    clearTimeout(page.pongTimer);
    page.pongTimer = setTimeout(() => page.ws && page.ws.close(), PONG_TIMEOUT_MS); // silent: start again
  }, PING_MS);
}

function stopHeartbeat() {
  clearInterval(page.pingTimer);
  clearTimeout(page.pongTimer);
}

function send(actionText) {
  const message = page.message;
  if (!message) return false;
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    showError("offline", null);
    return false;
  }
  if (page.sentSeq === message.seq) return false; // one action per state: the first is on its way
  sendOnItsWay(JSON.stringify({ type: "act", action: String(actionText), seq: message.seq }), message.seq);
  return true;
}

/** Send an action or an undo made on the state ``seq``, and keep it until it is answered. */
function sendOnItsWay(text, seq) {
  page.sentSeq = seq;
  page.onItsWay = { text, seq };
  page.ws.send(text);
  document.body.dataset.pending = "true";
}

/** "Next round" during the pause at a round's end. */
function sendChat(text) {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    showError("offline", null);
    return false;
  }
  page.ws.send(JSON.stringify({ type: "chat", text: String(text) }));
  return true;
}

function sendReady() {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    showError("offline", null);
    return false;
  }
  page.ws.send(JSON.stringify({ type: "ready" }));
  return true;
}

/** Take back a step ("step") or the last turn ("takeback"), on the latest state. */
function sendUndo(kind) {
  const message = page.message;
  if (!message || !page.ws || page.ws.readyState !== WebSocket.OPEN) {
    showError("offline", null);
    return false;
  }
  if (page.sentSeq === message.seq) return false; // one request per state
  sendOnItsWay(JSON.stringify({ type: "undo", kind, seq: message.seq }), message.seq);
  return true;
}

function receive(message) {
  if (message.type === "state") {
    const fresh = page.freshConnection;
    page.freshConnection = false;
    if (page.message && message.seq < page.message.seq && !fresh) return; // an older state arrived late
    page.message = message;
    page.summary = message.table;
    setServerTime(message.server_time);
    if (page.sentSeq !== null && page.sentSeq !== message.seq) page.sentSeq = null;
    delete document.body.dataset.pending;
    const again = page.onItsWay;
    if (again && (fresh || again.seq !== message.seq)) page.onItsWay = null; // answered, or its connection ended
    showState();
    // the connection ended with an action on its way and the table has not moved since: the server never had
    // it, so it goes again on this connection (had the server made it, the state would be a newer one)
    const open = page.ws && page.ws.readyState === WebSocket.OPEN;
    if (fresh && again && again.seq === message.seq && page.sentSeq !== message.seq && open) {
      sendOnItsWay(again.text, again.seq);
    }
  } else if (message.type === "error") {
    page.sentSeq = null;
    page.onItsWay = null;
    delete document.body.dataset.pending;
    if (message.code === "no_table") return noTable();
    if (message.code === "bad_token") return; // the close (4403) follows
    showError(message.code, message.message);
    if (message.code === "stale_seq" && page.ws) page.ws.send(JSON.stringify({ type: "sync" }));
  }
}

function setConnection(status, { trying = false, recovered = false } = {}) {
  page.connection = status;
  document.body.dataset.connection = status;
  const { conn, notice } = page.els;
  if (!conn) return;
  conn.className = `conn conn-${status}`;
  conn.textContent = t(`conn.${status}`);
  conn.title = t(`conn.${status}`);
  if (status === "lost") {
    const seconds = Math.max(1, Math.round((page.retryAt - Date.now()) / 1000));
    const now = h("button", { class: "small", type: "button", dataset: { testid: "reconnect-now" } }, t("conn.retry_now"));
    now.addEventListener("click", () => {
      page.attempts = 0;
      connect();
    });
    replace(
      notice,
      h("span", { class: "notice-icon", "aria-hidden": "true" }, "⚠"),
      h("span", {}, h("strong", {}, t("conn.lost_title")), " ", trying ? t("conn.reconnecting") : t("conn.retry_in", { s: seconds })),
      trying ? null : now,
    );
    notice.className = "notice warn conn-notice";
    notice.hidden = false;
    notice.dataset.testid = "reconnect-notice";
  } else if (status === "open" && recovered) {
    replace(notice, h("span", { class: "notice-icon", "aria-hidden": "true" }, "✓"), h("span", {}, t("conn.reconnected")));
    notice.className = "notice ok conn-notice";
    notice.hidden = false;
    notice.dataset.testid = "reconnected-notice";
    setTimeout(() => {
      if (page.connection === "open") notice.hidden = true;
    }, 2500);
  } else {
    notice.hidden = true;
  }
}

function noTable() {
  page.dead = true;
  stopHeartbeat();
  replace(
    document.getElementById("app"),
    topbar({ links: [{ href: "/", text: t("nav.lobby") }] }),
    h("main", {}, h("div", { class: "panel missing", dataset: { testid: "no-table" } }, h("h1", {}, t("table.no_table")), h("p", {}, t("error.no_table")), h("a", { class: "button primary", href: "/" }, t("nav.back_to_lobby")))),
  );
}

function badToken() {
  showError("bad_token", null, { timeout: 0 });
  api.forgetSeat(tableId);
  page.seat = null;
  if (page.previousSeat) {
    // the link was wrong, but this browser already held a seat here: keep that one
    page.seat = page.previousSeat;
    page.previousSeat = null;
    api.saveSeat(tableId, page.seat);
  }
  page.message = null;
  rebuild();
  connect();
}

// -- seats -----------------------------------------------------------------------------------------------

async function join(name) {
  name = name.trim();
  if (!name) {
    showError("name_needed", null);
    return;
  }
  try {
    await api.joinSeat(tableId, page.seat.seat, page.seat.token, name);
    page.seat = { ...page.seat, name };
    api.saveSeat(tableId, page.seat);
    api.saveName(name);
  } catch (error) {
    showError(error.code, error.message);
  }
}

/** Hand another player's seat (away, or without a connection) to its stand-in bot until they come back. */
async function handOver(seat) {
  const name = playerName(seat);
  const bot = botName(page.summary.seats[seat].standin || "heuristic").toLowerCase();
  const yes = await confirmDialog({ title: t("away.hand_over_title", { name }), text: t("away.hand_over_text", { name, bot }), yes: t("away.hand_over"), no: t("common.cancel") });
  if (!yes) return;
  try {
    await api.awaySeat(tableId, seat, page.seat.token);
  } catch (error) {
    showError(error.code, error.message);
  }
}

async function handToBot() {
  const yes = await confirmDialog({ title: t("table.hand_to_bot_title"), text: t("table.hand_to_bot_text"), yes: t("table.hand_to_bot"), no: t("common.cancel") });
  if (!yes) return;
  try {
    await api.botSeat(tableId, page.seat.seat, page.seat.token, "heuristic");
  } catch (error) {
    showError(error.code, error.message);
  }
}

/** Play again: the first player who asks makes the new table (same seats, bots and options; each player keeps
 * their secret token), the others are told of it and join it from here. */
async function rematch(button) {
  const summary = page.summary;
  const mine = page.seat;
  button.disabled = true;
  try {
    const target = summary.rematch || (await api.startRematch(tableId, mine.token)).id;
    const name = mine.name || api.loadName() || playerName(mine.seat);
    api.saveSeat(target, { seat: mine.seat, token: mine.token, name });
    await api.joinSeat(target, mine.seat, mine.token, name);
    location.assign(`/table/${encodeURIComponent(target)}`);
  } catch (error) {
    button.disabled = false;
    showError(error.code, error.message);
  }
}

// -- drawing ---------------------------------------------------------------------------------------------

function showState() {
  const message = page.message;
  const summary = page.summary;
  const body = document.body.dataset;
  body.seq = String(message.seq);
  body.status = summary.status;
  body.yourTurn = String(Boolean(message.your_turn));
  body.seat = message.seat === null || message.seat === undefined ? "" : String(message.seat);
  if (page.renderer) {
    const focus = focusMark(page.els.gameRoot);
    try {
      page.renderer.update(message); // first: the players, log and ranking take the game's colours from it
    } catch (error) {
      console.error(error);
    }
    refocus(page.els.gameRoot, focus);
  }
  drawHeader();
  drawBanners();
  drawAbsent();
  redrawAtHandOver();
  replace(page.els.undo, undoBar(message, summary, page.info, sendUndo, t));
  drawPlayers();
  drawLog();
  page.chat.update(message, summary, mySeat());
  drawEnd();
  tell(message);
}

// -- what a screen reader hears --------------------------------------------------------------------------
// One polite live region, in the page's language: each move since the last state, a round's end with the
// scores, the turn passing, the game's end, and (from the clock's tick) your time running low.

function announce(text) {
  const region = page.els.announce;
  if (!region || !text) return;
  region.textContent = text; // a change of text is what a screen reader reads out
}

function tell(message) {
  const summary = page.summary;
  const told = page.told;
  const turn = page.els.turn.textContent;
  page.told = { seq: message.seq, turn, low: told && told.seq === message.seq ? told.low : false };
  if (!told) return; // the table as it was on arrival: nothing has happened yet
  sound(message, told);
  const lines = [];
  for (const entry of message.log || []) {
    if (entry.seq <= told.seq) continue;
    lines.push(h("span", {}, describe(entry)).textContent);
    if (entry.type === "act" && typeof entry.round_over === "number") {
      const scores = (message.observation && message.observation.scores) || [];
      const each = scores.map((score, seat) => `${playerName(seat)}: ${scoreText(summary.game, score)}`);
      lines.push(`${t("log.round_over", { n: entry.round_over })}. ${each.join(", ")}`);
    }
  }
  // the turn is said when it passes, and when it is yours again after a move (the others are out of the round)
  if (turn && (turn !== told.turn || (message.your_turn && lines.length))) lines.push(turn);
  if (lines.length) announce(lines.join(". ").replace(/\.\./g, "."));
}

/** The moves in ``message``'s log made after the state ``seq``. */
function actsSince(message, seq) {
  return ((message && message.log) || []).filter((entry) => entry.seq > seq && entry.type === "act");
}

/** What the state sounds like: the game's end, a round scored, your turn, or a move. */
function sound(message, told) {
  const acts = actsSince(message, told.seq);
  if (page.summary.status === "over") play("end");
  else if (acts.some((entry) => typeof entry.round_over === "number")) play("round");
  else if (message.your_turn && (page.els.turn.textContent !== told.turn || acts.length)) play("turn");
  else if (acts.length) play("card");
}

/** Your clock has passed its warning mark this turn: said once. */
function tellLowTime() {
  const me = mySeat();
  const clock = page.summary && page.summary.clock;
  if (!page.told || page.told.low || me === null || me === undefined || !lowOnTime(clock, me)) return;
  page.told.low = true;
  play("low");
  announce(t("clock.low", { time: formatClock(secondsLeft(clock, me)) }));
}

// -- the keyboard's place ---------------------------------------------------------------------------------
// A renderer may draw its table afresh on every state: the element that had the keyboard's focus is then gone.
// The focus goes to its like in the new drawing (the same data-* marks: the same card, square or button), else
// to the first thing that can be focused in the nearest part that is still there (the hand, the piles).

const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex='-1'])";

/** Where the focus is inside `root`: the focused element and the data-* marks of it and its named parts. */
function focusMark(root) {
  const active = document.activeElement;
  if (!active || active === document.body || !root.contains(active)) return null;
  const marks = [];
  for (let node = active; node && node !== root; node = node.parentElement) {
    const pairs = Object.entries(node.dataset || {}).filter(([name]) => name !== "flights");
    if (node === active || node.dataset.testid) marks.push(`${node.tagName.toLowerCase()}${pairs.map(([name, value]) => `[data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(value)}"]`).join("")}`);
  }
  return { active, marks };
}

function refocus(root, mark) {
  if (!mark || mark.active.isConnected) return;
  const [own, ...parts] = mark.marks;
  const same = root.querySelector(own);
  if (same && same.matches(FOCUSABLE)) return same.focus();
  for (const part of parts) {
    const found = root.querySelector(part);
    const first = found && (found.matches(FOCUSABLE) ? found : found.querySelector(FOCUSABLE));
    if (first) return first.focus();
  }
}

function drawHeader() {
  const { status, turn } = page.els;
  const summary = page.summary;
  status.className = `pill ${summary.status}`;
  status.textContent = t(`status.${summary.status}`);
  let text = "";
  let mine = false;
  if (summary.status === "over") {
    const winners = (summary.result && summary.result.winners) || [];
    const me = mySeat();
    if (winners.includes(me)) text = youWon();
    else if (winners.length === 1) text = t("end.winner", { name: playerName(winners[0]) });
    else if (winners.length > 1) text = t("end.winners", { names: winners.map(playerName).join(", ") });
    else text = t("table.game_over");
  } else if (summary.status !== "running") text = ""; // waiting for players, or ended (expired, abandoned)
  else if (roundPaused(summary)) text = t("table.round_pause"); // nobody plays until the next round starts
  else if (page.message && page.message.your_turn) {
    text = t("table.your_turn");
    mine = true;
  } else if (summary.current_player !== null && summary.current_player !== undefined) {
    text = t("table.turn_of", { name: playerName(summary.current_player) });
  }
  turn.textContent = text;
  turn.className = `turn${mine ? " mine" : ""}`;
  const others = summary.seats.map((info, seat) => seat).filter((seat) => seat !== mySeat()).map(playerName);
  const notice = t("notify.turn", { game: gameTitle(), names: others.join(", ") });
  const held = page.seat && !page.watching ? { table: tableId, seat: page.seat.seat, token: page.seat.token, game: summary.game, title: gameTitle(), names: others.join(", ") } : null;
  // the turn went round since the last state drawn (told): another seat acted (a slow page may not be sent every
  // state between, so the states where it was not this player's turn may never have been drawn)
  const passed = Boolean(page.told) && actsSince(page.message, page.told.seq).some((entry) => entry.seat !== mySeat());
  turnNotice({ mine, passed, title: `${mine ? "▶ " : ""}${gameTitle()} — laro`, text: notice, url: location.pathname, push: held });
}

function drawBanners() {
  const { joinBox, inviteBox } = page.els;
  const summary = page.summary;
  const seat = page.seat && !page.watching ? page.seat.seat : null;
  const info = seat !== null ? summary.seats[seat] : null;
  // join: our seat is not taken (an invite link), or a bot plays it
  const away = info && info.kind === "human" && info.joined && (info.handed || info.away);
  const kind = info ? (away ? (info.handed ? "handed" : "away") : info.kind) : null;
  if (info && ["open", "running"].includes(summary.status) && (!info.joined || info.kind === "bot" || away)) {
    if (!joinBox.dataset.seat || joinBox.dataset.kind !== kind || joinBox.hidden) {
      const title = away ? t(info.handed ? "away.yours_handed" : "away.yours_away", { bot: botName(info.standin || "heuristic").toLowerCase() }) : info.kind === "bot" ? t("table.bot_plays_you", { seat: seat + 1 }) : t("table.take_seat_title", { seat: seat + 1 });
      const name = h("input", { type: "text", id: "join-name", maxlength: 24, autocomplete: "nickname", placeholder: t("lobby.name_placeholder"), value: page.seat.name || (away ? info.name : "") || api.loadName(), dataset: { testid: "join-name" } });
      const form = h(
        "form",
        { class: "join-form" },
        h("div", {}, h("strong", {}, title), h("p", { class: "muted small" }, t("table.take_seat_help"))),
        h("div", { class: "copy-row" }, h("label", { class: "visually-hidden", for: "join-name" }, t("lobby.your_name")), name, h("button", { type: "submit", class: "primary", dataset: { testid: "join" } }, info.kind === "bot" || away ? t("table.take_back") : t("table.take_seat"))),
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        join(name.value);
      });
      replace(joinBox, form);
      joinBox.dataset.seat = String(seat);
      joinBox.dataset.kind = kind;
    }
    joinBox.hidden = false;
  } else {
    joinBox.hidden = true;
    delete joinBox.dataset.seat;
  }
  // invites: the table waits for players
  if (summary.status === "open") {
    const invites = api.loadInvites(tableId);
    const seated = summary.seats.filter((each) => each.joined).length;
    const rows = invites.map((invite) => {
      const joined = summary.seats[invite.seat] && summary.seats[invite.seat].joined;
      return h(
        "li",
        { class: `invite ${joined ? "joined" : ""}`, dataset: { seat: invite.seat } },
        h("span", { class: "invite-seat" }, h("span", { class: "seat-dot", style: { "--seat-color": seatColour(invite.seat) } }), t("common.seat", { n: invite.seat + 1 })),
        joined ? h("span", { class: "invite-joined" }, "✓ ", t("table.invite_joined", { name: playerName(invite.seat) })) : copyRow(invite.url, api.copyText, t("table.invite_for", { seat: invite.seat + 1 })),
      );
    });
    replace(
      inviteBox,
      h("h2", {}, t("table.waiting_title")),
      h("p", { class: "muted" }, t("table.seated", { n: seated, total: summary.players })),
      invites.length ? h("p", {}, t("table.invite_help")) : null,
      invites.length ? h("ul", { class: "invites", dataset: { testid: "invites" } }, rows) : null,
    );
    inviteBox.hidden = false;
  } else {
    inviteBox.hidden = true;
  }
}

/** Whether another player may hand this seat over now: its player ran out of time, or has been gone long
 * enough (the seat's `handover_at`; a page reloading comes back sooner). */
function handOverNow(info) {
  return typeof info.handover_at === "number" && info.handover_at <= serverNow();
}

/** Draw the players and the absent player's notice again when a seat may be handed over. */
function redrawAtHandOver() {
  clearTimeout(page.handOverTimer);
  const now = serverNow();
  const next = Math.min(...page.summary.seats.map((info) => (typeof info.handover_at === "number" && info.handover_at > now ? info.handover_at : Infinity)));
  if (Number.isFinite(next)) {
    page.handOverTimer = setTimeout(() => {
      drawPlayers();
      drawAbsent();
    }, (next - now) * 1000 + 100);
  }
}

/** Where everyone looks: the player to act has no connection; when their stand-in takes over (a timed table),
 * and the button that hands their seat over now. */
function drawAbsent() {
  const { absent } = page.els;
  const summary = page.summary;
  const seat = summary.current_player;
  const info = summary.status === "running" && !roundPaused(summary) && seat !== null && seat !== undefined ? summary.seats[seat] : null;
  if (!info || info.kind !== "human" || !info.joined || info.connected || info.handed || seat === mySeat()) {
    absent.hidden = true;
    return;
  }
  const name = playerName(seat);
  const bot = botName(info.standin || "heuristic").toLowerCase();
  const at = (summary.clock || {}).standin_at;
  const [before, after = ""] = t("absent.takes_over", { bot, time: "\u0000" }).split("\u0000");
  const me = mySeat();
  replace(
    absent,
    h("span", { class: "notice-icon", "aria-hidden": "true" }, "⚠"),
    h(
      "span",
      {},
      h("strong", {}, t("absent.offline", { name })),
      " ",
      typeof at === "number" ? [before, countdown(at, { clock: true }), after] : t("absent.waits", { name }),
    ),
    me === null || me === undefined || !page.seat
      ? null
      : handOverNow(info)
        ? h("button", { class: "small hand-over", type: "button", dataset: { testid: "absent-hand-over" }, onclick: () => handOver(seat) }, t("away.hand_over"))
        : typeof info.handover_at === "number"
          ? h("span", { class: "muted small hand-over", dataset: { testid: "absent-hand-over-in" } }, ...handOverIn(info.handover_at))
          : null,
  );
  absent.hidden = false;
}

/** "A bot may play for them from 0:42": the words around a countdown to `at`. */
function handOverIn(at) {
  const [before, after = ""] = t("absent.hand_over_in", { time: "\u0000" }).split("\u0000");
  return [before, countdown(at, { clock: true }), after];
}

function drawPlayers() {
  const { players } = page.els;
  const summary = page.summary;
  const me = mySeat();
  const list = summary.seats.map((info) => {
    const current = summary.status === "running" && !roundPaused(summary) && summary.current_player === info.seat;
    let presence;
    if (info.kind === "bot") presence = t("players.bot");
    else if (!info.joined) presence = t("players.empty");
    else presence = info.connected ? t("players.online") : t("players.offline");
    const presenceClass = info.kind === "bot" ? "bot" : !info.joined ? "empty" : info.connected ? "online" : "offline";
    const away = info.kind === "human" && info.joined && (info.away || info.handed);
    const running = summary.status === "running";
    const canHandOver = running && me !== null && me !== undefined && page.seat && info.seat !== me && info.kind === "human" && info.joined && !info.handed && (info.away || !info.connected) && handOverNow(info);
    const standin = botName(info.standin || "heuristic").toLowerCase();
    return h(
      "li",
      { class: `player${current ? " current" : ""}${info.seat === me ? " me" : ""}`, dataset: { seat: info.seat } },
      h("span", { class: "turn-mark", "aria-hidden": "true" }, current ? "▶" : ""),
      h("span", { class: "seat-dot", style: { "--seat-color": seatColour(info.seat) } }),
      h("span", { class: "player-name" }, playerName(info.seat), info.seat === me ? h("span", { class: "you" }, t("players.you")) : null),
      h("span", { class: `presence ${presenceClass}` }, presence),
      clockBadge(summary, info.seat),
      away || canHandOver
        ? h(
            "span",
            { class: "player-away" },
            away ? h("span", { class: "badge away-badge", dataset: { testid: "away-badge" } }, t("away.badge")) : null,
            away ? h("span", { class: "muted small" }, t(info.handed ? "away.handed_title" : "away.away_title", { bot: standin })) : null,
            canHandOver ? h("button", { class: "small hand-over", type: "button", dataset: { testid: "hand-over" }, onclick: () => handOver(info.seat) }, t("away.hand_over")) : null,
          )
        : null,
    );
  });
  const myInfo = me !== null && me !== undefined ? summary.seats[me] : null;
  const canHand = myInfo && myInfo.kind === "human" && myInfo.joined && summary.status === "running" && page.seat;
  replace(
    players,
    h("h2", {}, t("players.title")),
    h("ul", { class: "player-list", dataset: { testid: "players" } }, list),
    me === null || me === undefined ? h("p", { class: "muted small watching" }, t("players.watching")) : null,
    canHand ? h("button", { class: "small link-like hand-to-bot", type: "button", onclick: handToBot }, t("table.hand_to_bot")) : null,
  );
}

function describe(entry) {
  if (entry.type === "resume") return [t("log.resume")];
  if (entry.type === "end") return [t(`log.end.${entry.reason}`)];
  const name = playerName(entry.seat);
  const standin = entry.standin ? botName(entry.standin).toLowerCase() : null;
  if (entry.type === "timeout") return [h("b", {}, name), " ", t("log.timeout", { bot: standin })];
  if (entry.type === "away") return [h("b", {}, name), " ", t(entry.reason === "handed" ? "log.handed" : "log.away", { bot: standin })];
  if (entry.type === "ready") return [h("b", {}, name), " ", t("log.ready")];
  if (isUndo(entry)) return [h("b", {}, name), " ", describeUndo(entry, t)];
  if (entry.type === "join") return [h("b", {}, entry.name ?? name), " ", t("log.join", { seat: entry.seat + 1 })];
  if (entry.type === "leave") return [h("b", {}, entry.by ?? name), " ", t("log.leave", { seat: entry.seat + 1 })];
  if (entry.type === "bot") return [t("log.bot", { seat: entry.seat + 1, bot: entry.bot ? botName(entry.bot) : name })];
  if (entry.type === "act") {
    const action = entry.action ?? entry.text;
    const who = entry.by ?? name;
    let shown = who.endsWith(" bot") && page.summary.seats[entry.seat]?.kind === "bot" ? name : who;
    if (entry.bot && who !== `${entry.bot} bot`) shown = t("log.bot_for", { bot: botName(entry.bot), name: who }); // a bot playing a person's seat
    if (entry.standin) shown = t("log.bot_for", { bot: botName(entry.standin), name }); // a stand-in playing for an absent player
    return [h("b", {}, shown), " ", actionWords(page.renderer, action, entry.seat)];
  }
  return [entry.text];
}

function drawLog() {
  const { log } = page.els;
  const entries = page.message.log || [];
  const list = log.querySelector("ol");
  const over = page.summary.status !== "running" && page.summary.status !== "open";
  replace(
    list,
    entries.map((entry, index) => {
      const line = h("li", { class: `log-${entry.type}`, dataset: { seq: entry.seq } }, h("span", { class: "seat-dot", style: { "--seat-color": seatColour(entry.seat) } }), h("span", {}, describe(entry)));
      if (entry.type !== "act" || typeof entry.round_over !== "number") return line;
      // a round's end, and the next round's start unless that was the game's end
      const last = !entries.slice(index + 1).some((later) => later.type === "act");
      return [
        line,
        h("li", { class: "log-round log-round-over", dataset: { testid: "log-round-over" } }, t("log.round_over", { n: entry.round_over })),
        over && last ? null : h("li", { class: "log-round log-round-start", dataset: { testid: "log-round-start" } }, t("log.round_start", { n: entry.round_over + 1 })),
      ];
    }),
  );
  if (!entries.length) list.append(h("li", { class: "muted" }, t("log.empty")));
  if (page.els.logFollows !== false) list.scrollTop = list.scrollHeight; // follow the newest, unless scrolled up
}

function ranking(summary) {
  const result = summary.result || { winners: [], scores: [] };
  const lower = page.info.score_order === "low";
  const seats = summary.seats.map((info) => info.seat);
  seats.sort((a, b) => {
    const wa = result.winners.includes(a) ? 0 : 1;
    const wb = result.winners.includes(b) ? 0 : 1;
    if (wa !== wb) return wa - wb;
    const sa = result.scores[a] ?? 0;
    const sb = result.scores[b] ?? 0;
    return lower ? sa - sb : sb - sa;
  });
  let rank = 0;
  let previous = null;
  return seats.map((seat, index) => {
    const key = `${result.winners.includes(seat)}:${result.scores[seat]}`;
    if (key !== previous) rank = index + 1;
    previous = key;
    return { seat, rank, score: result.scores[seat], winner: result.winners.includes(seat) };
  });
}

/** A game's own wording where it has one (e.g. Kamara counts matched cards, not points). */
function gameText(key, fallbackKey, params = {}) {
  const text = t(key, params);
  return text === key ? t(fallbackKey, params) : text;
}

function scoreText(game, score) {
  const n = score ?? "–";
  return gameText(`end.score.${game}`, "end.points", { n });
}

function drawEnd() {
  const { end } = page.els;
  const summary = page.summary;
  if (summary.status !== "over") {
    end.hidden = true;
    return;
  }
  const rows = ranking(summary);
  const me = mySeat();
  const winners = rows.filter((row) => row.winner).map((row) => playerName(row.seat));
  const iWon = rows.some((row) => row.winner && row.seat === me);
  const rematchLabel = summary.rematch ? t("end.rematch_join") : t("end.rematch");
  const rematchButton = h("button", { class: "primary", type: "button", dataset: { testid: "rematch" } }, rematchLabel);
  rematchButton.addEventListener("click", () => rematch(rematchButton));
  const lower = page.info.score_order === "low";
  replace(
    end,
    h("h2", {}, iWon ? youWon() : winners.length > 1 ? t("end.winners", { names: winners.join(", ") }) : t("end.winner", { name: winners[0] || "?" })),
    h("p", { class: "muted small" }, gameText(`end.rule.${summary.game}`, lower ? "end.lower_better" : "end.higher_better")),
    h(
      "ol",
      { class: "ranking", dataset: { testid: "ranking" } },
      rows.map((row) =>
        h(
          "li",
          { class: `${row.winner ? "winner" : ""}${row.seat === me ? " me" : ""}`, dataset: { seat: row.seat } },
          h("span", { class: "rank" }, row.winner ? "★" : "", t("end.rank", { n: row.rank })),
          h("span", { class: "seat-dot", style: { "--seat-color": seatColour(row.seat) } }),
          h(
            "span",
            { class: "rank-name" },
            playerName(row.seat),
            row.seat === me ? h("span", { class: "you" }, t("players.you")) : null,
            botPlayingFor(row.seat) ? h("small", { class: "muted bot-for", dataset: { testid: "bot-for" } }, t(row.seat === me ? "end.bot_for_you" : "end.bot_for", { bot: botPlayingFor(row.seat), name: playerName(row.seat) })) : null,
          ),
          h("span", { class: "rank-score" }, scoreText(summary.game, row.score)),
        ),
      ),
    ),
    ratingChangesBox(tableId, playerName),
    h(
      "div",
      { class: "end-actions" },
      me !== null && page.seat ? rematchButton : null,
      (me === null || !page.seat) && summary.rematch
        ? h("a", { class: "button", href: `/table/${encodeURIComponent(summary.rematch)}`, dataset: { testid: "rematch-watch" } }, t("end.rematch_watch"))
        : null,
      h("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}/replay`, dataset: { testid: "watch-replay" } }, t("end.replay")),
      h("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `laro-${summary.game}-${tableId}.json`, dataset: { testid: "download-game" } }, t("end.download")),
      h("a", { class: "button", href: "/" }, t("nav.back_to_lobby")),
    ),
    me !== null && page.seat ? h("p", { class: "muted small" }, summary.rematch ? t("end.rematch_started") : t("end.rematch_help")) : null,
  );
  end.hidden = false;
  if (!page.analysis) {
    page.els.analysis.hidden = false;
    page.analysis = analysisPanel(page.els.analysis, { tableId, players: summary.players, seat: me ?? 0, playerName, t, say });
  }
}

// -- the page --------------------------------------------------------------------------------------------

function buildShell() {
  if (page.analysis) page.analysis.destroy();
  page.analysis = null;
  const els = (page.els = {});
  els.status = h("span", { class: "pill", dataset: { testid: "status" } });
  els.turn = h("span", { class: "turn", dataset: { testid: "turn" } });
  els.announce = h("div", { class: "visually-hidden", role: "status", "aria-live": "polite", dataset: { testid: "announce" } });
  els.conn = h("span", { class: "conn", dataset: { testid: "connection" } });
  els.notice = h("div", { class: "notice warn conn-notice", hidden: true, role: "status", "aria-live": "polite" });
  els.joinBox = h("section", { class: "panel join-box", hidden: true, dataset: { testid: "join-box" } });
  els.inviteBox = h("section", { class: "panel invite-box", hidden: true });
  els.end = h("section", { class: "panel end", hidden: true, dataset: { testid: "end" } });
  els.analysis = h("section", { class: "panel analysis", hidden: true, dataset: { testid: "analysis" } });
  els.gameRoot = h("div", { class: `game-root game-${page.summary.game}`, dataset: { testid: "game" } });
  els.undo = h("div", { class: "undo-slot" });
  els.absent = h("div", { class: "notice warn absent-notice", hidden: true, dataset: { testid: "absent" } });
  els.players = h("section", { class: "panel players" });
  const logList = h("ol", { class: "log-list", tabindex: "0", "aria-label": t("log.title"), dataset: { testid: "log" } }); // scrolled by keys too
  logList.addEventListener("scroll", () => {
    els.logFollows = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 24;
  });
  els.log = h("section", { class: "panel log" }, h("h2", {}, t("log.title")), logList);
  page.chat = chatPanel({ send: sendChat, t, playerName });
  const middle = [
    h("h1", { class: "table-title" }, gameTitle()),
    els.status,
    practiceBadge(page.summary, t),
    els.turn,
  ];
  replace(
    document.getElementById("app"),
    topbar({
      middle,
      links: [
        { href: `/rules/${page.summary.game}`, text: t("nav.rules"), testid: "rules-link" },
        { href: "/", text: t("nav.lobby"), class: "nav-lobby" },
      ],
      tools: [page.seat && !page.watching ? notifySwitch() : null, muteSwitch()],
    }),
    h(
      "main",
      { class: "table-page" },
      h("div", { class: "status-strip" }, els.conn, els.notice),
      els.announce,
      h(
        "div",
        { class: "table-layout" },
        h("div", { class: "table-main" }, els.joinBox, els.inviteBox, els.end, els.undo, els.absent, els.gameRoot, els.analysis),
        h("aside", { class: "table-side" }, els.players, els.log, page.chat.el),
      ),
    ),
  );
  setConnection(page.connection, {});
}

function makeRenderer() {
  dropRenderer(page.renderer);
  page.renderer = null;
  if (!page.module) {
    replace(page.els.gameRoot, h("p", { class: "notice error" }, t("table.no_renderer")));
    return;
  }
  const ctx = {
    send,
    t,
    lang: lang(),
    seat: mySeat(),
    get table() {
      return page.summary;
    },
    components: page.components,
    playerName,
    ready: sendReady,
    confirm: confirmDialog,
  };
  try {
    page.renderer = page.module.createTable(page.els.gameRoot, ctx);
  } catch (error) {
    console.error(error);
    replace(page.els.gameRoot, h("p", { class: "notice error" }, t("table.no_renderer")));
  }
}

function rebuild() {
  buildShell();
  makeRenderer();
  if (page.message) showState();
}

async function main() {
  // an invite carries its seat after "#" (never sent to a server); older links had it in the query
  const params = new URLSearchParams(location.hash.length > 1 ? location.hash.slice(1) : location.search);
  if (location.search.includes("watch=1")) params.set("watch", "1");
  if (params.has("token")) {
    // an invite link: keep the seat in this browser and take the token out of the address bar
    const seat = Number(params.get("seat"));
    const old = api.loadSeat(tableId);
    if (old && old.token !== params.get("token")) page.previousSeat = old; // kept if the new link is refused
    const name = old && old.token === params.get("token") ? old.name : api.loadName();
    api.saveSeat(tableId, { seat, token: params.get("token"), name });
    history.replaceState(null, "", `/table/${encodeURIComponent(tableId)}`);
  }
  page.watching = params.get("watch") === "1";
  page.seat = api.loadSeat(tableId);
  try {
    page.summary = await api.getTable(tableId);
  } catch (error) {
    await loadStrings(null);
    if (error.code === "no_table") return noTable();
    showError(error.code, error.message, { timeout: 0 });
    return;
  }
  const game = page.summary.game;
  const info = (page.info = await gameInfo(game));
  const [, , module, components] = await Promise.all([
    loadStrings(game),
    loadGameStyle(game),
    loadRenderer(game).catch((error) => {
      console.error(error);
      return null;
    }),
    info.components ? api.getComponents(game).catch(() => null) : null,
  ]);
  page.module = module;
  page.components = componentsOf(info, components, page.summary.options);
  rebuild();
  onLangChange(() => rebuild());
  startTicking();
  connect();
  undoKeys(() => page.message, sendUndo);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !page.ws && !page.dead && page.connection !== "closed") connect();
  });
  window.addEventListener("online", () => {
    if (!page.ws && !page.dead && page.connection !== "closed") connect();
  });
  setInterval(() => {
    if (page.connection === "lost" && page.retryTimer) setConnection("lost", { trying: false }); // count down
    tellLowTime();
  }, 1000);
}

main();
