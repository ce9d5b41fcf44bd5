/*
 * The replay page: /table/{id}/replay steps through a finished table's game, /replay through a record file
 * dropped on the page (or chosen). The server replays the record with the rules themselves (GET
 * /api/tables/{id}/replay, POST /api/replay; docs/protocol.md) and gives, after every action, the table as one
 * view saw it: every hand open, a spectator's, or one seat's. Each step is drawn by the game's own renderer
 * (js/games/${game}.js, the contract at the top of js/table.js) as if it were a live `state` message; in the
 * open view the message also holds `open[seat]`, what only that seat saw then, and the renderers show it.
 */

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { has, loadStrings, lang, onLangChange, t, titleOf } from "./i18n.js";
import { actionWords, componentsOf, dropRenderer, gameInfo, loadGameStyle, loadRenderer, seatColourOf, showError, topbar } from "./shell.js";

const SPEEDS = [0.5, 1, 2, 4, 8]; // moves a second
const parts = location.pathname.split("/");
const tableId = parts[1] === "table" ? decodeURIComponent(parts[2] || "") : null;

const page = {
  source: null, // {table: id} or {text, name}: a record file's own text
  data: null, // the server's replay of the current view
  cache: new Map(), // view -> replay
  view: "open",
  step: 0,
  speed: 1,
  timer: null,
  module: null,
  renderer: null,
  components: null,
  baseComponents: {},
  info: null, // what the game declares (GET /api/games)
  game: null,
  els: {},
};

// -- names and words -------------------------------------------------------------------------------------

function botName(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : `${bot} bot`;
}

function playerName(seat) {
  const data = page.data;
  const name = data && data.players[seat];
  const bot = data && data.bots[String(seat)];
  if (bot && (!name || name === `${bot} bot`)) return `${botName(bot)} ${seat + 1}`;
  return name || t("common.seat", { n: seat + 1 });
}

/** Who made a step's move, as the table said it: the seat's player, or "Smart bot for Dana" when a bot played a
 * person's seat (a stand-in for an absent player, or a bot the seat was handed to). */
function moverName(step) {
  const name = page.data.players[step.seat];
  if (step.bot && name && name !== `${step.bot} bot`) return t("log.bot_for", { bot: botName(step.bot), name: playerName(step.seat) });
  return playerName(step.seat);
}

/** Why the table ended before its game did ("abandoned"), shown at the replay's last step; else null. */
function endedHere(index = page.step) {
  const data = page.data;
  return data && data.ended && index === data.steps.length - 1 ? data.ended : null;
}

function seatColour(seat) {
  return seatColourOf(page.renderer, seat);
}

function gameTitle() {
  return titleOf(page.data.game, page.data.title);
}

function words(step) {
  if (step.action === null) return t("replay.deal");
  return actionWords(page.renderer, step.told ?? step.action, step.seat); // the table's words; the hidden part follows
}

/** The seat a view draws the table for (null: every hand open, or a spectator's). */
function viewSeat() {
  return typeof page.view === "number" ? page.view : null;
}

// -- what the renderer is told ---------------------------------------------------------------------------

function summaryAt(index) {
  const data = page.data;
  const last = index === data.steps.length - 1;
  const observation = data.steps[index].observation;
  return {
    id: tableId || "record",
    game: data.game,
    title: data.title,
    players: data.num_players,
    options: data.options,
    status: last && data.result.over ? "over" : endedHere(index) || "running",
    seq: index,
    current_player: observation.current_player ?? null,
    seats: data.players.map((name, seat) => {
      const bot = data.bots[String(seat)] || null;
      return { seat, kind: bot ? "bot" : "human", bot, name, joined: true, connected: true, away: false, handed: false };
    }),
    result: last && data.result.over ? { winners: data.result.winners, scores: data.result.scores } : null,
    rematch: null,
    clock: {},
  };
}

function messageAt(index) {
  const step = page.data.steps[index];
  const log = index > 0 ? [{ seq: index, type: "act", seat: step.seat, action: step.action, by: playerName(step.seat) }] : [];
  return {
    type: "state",
    seq: index,
    seat: viewSeat(),
    observation: step.observation,
    open: step.open || null,
    legal_actions: [],
    your_turn: false,
    server_time: Date.now() / 1000,
    table: summaryAt(index),
    log, // only the step's own action: the renderer animates it, and nothing older
  };
}

// The renderers speak as at a live table ("Ana is playing…"); a replay says who moves next instead.
const REPLAY_WORDS = {
  "lama.prompt_wait": "replay.next",
  "lama.prompt_wait_again": "replay.next_again",
  "lama.prompt_you_quit": "replay.seat_quit",
  "kamara.hint.wait_tiles": "replay.next",
  "kamara.hint.wait_diwa": "replay.next",
  "kamara.hint.wait_play": "replay.next",
  "kamara.hint.spectator": "replay.watching",
};
const replayWords = (key, params) => {
  if (key in REPLAY_WORDS && endedHere()) return t(`log.end.${endedHere()}`); // nobody moves next: the table ended
  return t(REPLAY_WORDS[key] ?? key, params);
};

function makeRenderer() {
  dropRenderer(page.renderer);
  page.renderer = null;
  const ctx = {
    send: () => false,
    t: replayWords,
    lang: lang(),
    seat: viewSeat(),
    get table() {
      return summaryAt(page.step);
    },
    components: page.components,
    playerName,
    ready: () => false,
    confirm: async () => false,
  };
  try {
    page.renderer = page.module.createTable(page.els.gameRoot, ctx);
  } catch (error) {
    console.error(error);
    replace(page.els.gameRoot, h("p", { class: "notice error" }, t("table.no_renderer")));
  }
}

// -- stepping --------------------------------------------------------------------------------------------

function show(index) {
  const steps = page.data.steps;
  page.step = Math.max(0, Math.min(index, steps.length - 1));
  const step = steps[page.step];
  document.body.dataset.step = String(page.step);
  document.body.dataset.view = String(page.view);
  if (page.renderer) {
    try {
      page.renderer.update(messageAt(page.step)); // first: the renderer knows the seats' colours from it
    } catch (error) {
      console.error(error);
    }
  }
  const { slider, counter, caption, first, back, forward, last } = page.els;
  slider.value = String(page.step);
  counter.textContent = t("replay.step", { k: page.step, n: steps.length - 1 });
  replace(
    caption,
    step.seat === null ? null : h("span", { class: "seat-dot", style: { "--seat-color": seatColour(step.seat) } }),
    step.seat === null ? null : h("b", {}, moverName(step)),
    " ",
    words(step),
    step.round_over !== undefined && step.round_over !== null ? h("span", { class: "badge" }, t("log.round_over", { n: step.round_over })) : null,
    endedHere() ? h("span", { class: "badge ended", dataset: { testid: "replay-ended" } }, t(`log.end.${endedHere()}`)) : null,
  );
  first.disabled = back.disabled = page.step === 0;
  forward.disabled = last.disabled = page.step === steps.length - 1;
  markLog();
  if (page.step === steps.length - 1) stop();
}

function stop() {
  clearInterval(page.timer);
  page.timer = null;
  if (page.els.play) {
    page.els.play.textContent = "▶";
    page.els.play.title = page.els.play.ariaLabel = t("replay.play");
    page.els.play.dataset.playing = "false";
  }
}

function play() {
  if (page.timer) return stop();
  if (page.step === page.data.steps.length - 1) show(0);
  page.timer = setInterval(() => show(page.step + 1), 1000 / page.speed);
  page.els.play.textContent = "❚❚";
  page.els.play.title = page.els.play.ariaLabel = t("replay.pause");
  page.els.play.dataset.playing = "true";
}

/** Whether a key belongs to the focused control rather than to the replay: typing, a choice, the slider's own
 * keys, and Space or Enter on a button reached with the keyboard (one clicked keeps the focus but not the keys). */
function keyOfControl(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || event.altKey || event.ctrlKey || event.metaKey) return Boolean(target);
  if (target.closest("select, textarea, [contenteditable]")) return true;
  if (target.matches("input[type=range]")) return event.key !== " ";
  if (target.closest("input")) return true;
  const control = target.closest("button, a, summary, [role=button]");
  return Boolean(control) && (event.key === " " || event.key === "Enter") && control.matches(":focus-visible");
}

function onKey(event) {
  if (!page.data || keyOfControl(event)) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (event.key in moves) {
    event.preventDefault();
    stop();
    const by = moves[event.key];
    show(Number.isFinite(by) ? page.step + by : by < 0 ? 0 : page.data.steps.length - 1);
  } else if (event.key === " ") {
    event.preventDefault();
    play();
  }
}

// -- the log: the whole game -----------------------------------------------------------------------------

function drawLog() {
  const list = page.els.log;
  replace(
    list,
    page.data.steps.map((step, index) => {
      const line = h(
        "li",
        { class: "replay-move", dataset: { step: index }, onclick: () => (stop(), show(index)) },
        h("span", { class: "move-number" }, index ? String(index) : "·"),
        h("span", { class: "seat-dot", style: { "--seat-color": seatColour(step.seat) } }),
        h("span", {}, step.seat === null ? null : [h("b", {}, moverName(step)), " "], words(step), step.told ? h("code", { class: "muted", title: t("replay.hidden_then") }, step.action) : null),
      );
      const ended = endedHere(index) ? h("li", { class: "log-round log-ended" }, t(`log.end.${endedHere(index)}`)) : null;
      if (step.round_over === undefined || step.round_over === null) return [line, ended];
      return [line, h("li", { class: "log-round log-round-over" }, t("log.round_over", { n: step.round_over })), ended];
    }),
  );
}

function markLog() {
  const list = page.els.log;
  const old = list.querySelector(".is-current");
  if (old) old.classList.remove("is-current");
  const now = list.querySelector(`[data-step="${page.step}"]`);
  if (!now) return;
  now.classList.add("is-current");
  const top = now.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - now.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
}

// -- the page --------------------------------------------------------------------------------------------

function iconButton(text, key, testid, onclick) {
  return h("button", { type: "button", class: "replay-button", title: t(key), "aria-label": t(key), dataset: { testid }, onclick }, text);
}

function viewChoice() {
  const select = h("select", { dataset: { testid: "replay-view" }, "aria-label": t("replay.view") });
  const choices = [["open", t("replay.view_open")], ["spectator", t("replay.view_spectator")]];
  for (let seat = 0; seat < page.data.num_players; seat += 1) choices.push([String(seat), t("replay.view_seat", { name: playerName(seat) })]);
  for (const [value, text] of choices) select.append(h("option", { value, selected: String(page.view) === value }, text));
  select.addEventListener("change", () => changeView(select.value === "open" || select.value === "spectator" ? select.value : Number(select.value)));
  return select;
}

function speedChoice() {
  const select = h("select", { dataset: { testid: "replay-speed" }, "aria-label": t("replay.speed") });
  for (const speed of SPEEDS) select.append(h("option", { value: String(speed), selected: speed === page.speed }, t("replay.per_second", { n: speed })));
  select.addEventListener("change", () => {
    page.speed = Number(select.value);
    if (page.timer) {
      stop();
      play();
    }
  });
  return select;
}

function downloadLink() {
  if (tableId) return h("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `laro-${page.data.game}-${tableId}.json`, dataset: { testid: "replay-download" } }, t("replay.download"));
  return null;
}

function dropZone() {
  const input = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden", dataset: { testid: "replay-file" } });
  input.addEventListener("change", () => input.files[0] && loadFile(input.files[0]));
  const zone = h(
    "label",
    { class: "drop-zone", dataset: { testid: "replay-drop" } },
    input,
    h("strong", {}, t("replay.drop")),
    h("span", { class: "muted small" }, t("replay.drop_help")),
    h("span", { class: "button" }, t("replay.choose")),
  );
  return zone;
}

function buildShell() {
  const els = (page.els = {});
  els.first = iconButton("«", "replay.first", "replay-first", () => (stop(), show(0)));
  els.back = iconButton("‹", "replay.back", "replay-back", () => (stop(), show(page.step - 1)));
  els.play = iconButton("▶", "replay.play", "replay-play", play);
  els.forward = iconButton("›", "replay.forward", "replay-forward", () => (stop(), show(page.step + 1)));
  els.last = iconButton("»", "replay.last", "replay-last", () => (stop(), show(page.data.steps.length - 1)));
  els.slider = h("input", { type: "range", min: "0", max: String(page.data.steps.length - 1), value: "0", step: "1", class: "replay-slider", "aria-label": t("replay.slider"), dataset: { testid: "replay-slider" } });
  els.slider.addEventListener("input", () => (stop(), show(Number(els.slider.value))));
  els.counter = h("span", { class: "replay-counter", dataset: { testid: "replay-step" } });
  els.caption = h("div", { class: "replay-caption", dataset: { testid: "replay-caption" }, "aria-live": "polite" });
  els.gameRoot = h("div", { class: `game-root game-${page.data.game}`, dataset: { testid: "game" } });
  els.log = h("ol", { class: "log-list replay-log", tabindex: "0", "aria-label": t("replay.log"), dataset: { testid: "replay-log" } });
  const links = [{ href: `/rules/${page.data.game}`, text: t("nav.rules") }, { href: "/", text: t("nav.lobby"), class: "nav-lobby" }];
  if (tableId) links.unshift({ href: `/table/${encodeURIComponent(tableId)}`, text: t("replay.to_table"), testid: "replay-table-link" });
  replace(
    document.getElementById("app"),
    topbar({ middle: [h("h1", { class: "table-title" }, gameTitle()), h("span", { class: "pill" }, t("replay.title"))], links }),
    h(
      "main",
      { class: "table-page" },
      h(
        "div",
        { class: "replay-bar panel" },
        h("div", { class: "replay-buttons" }, els.first, els.back, els.play, els.forward, els.last),
        els.slider,
        els.counter,
        h("label", { class: "replay-choice" }, h("span", { class: "muted small" }, t("replay.speed")), speedChoice()),
        h("label", { class: "replay-choice" }, h("span", { class: "muted small" }, t("replay.view")), viewChoice()),
        downloadLink(),
      ),
      h(
        "div",
        { class: "table-layout" },
        h("div", { class: "table-main" }, els.caption, els.gameRoot),
        h("aside", { class: "table-side" }, h("section", { class: "panel log" }, h("h2", {}, t("replay.log")), els.log), h("section", { class: "panel" }, dropZone())),
      ),
    ),
  );
}

function rebuild() {
  buildShell();
  makeRenderer();
  show(page.step);
  drawLog(); // after the renderer's first step: it gives the seats' colours
  markLog();
}

// -- loading ---------------------------------------------------------------------------------------------

async function fetchView(view, source = page.source, cache = page.cache) {
  const key = String(view);
  if (!cache.has(key)) {
    const replay = source.table ? await api.getReplay(source.table, key) : await api.postReplay(source.text, key);
    cache.set(key, replay);
  }
  return cache.get(key);
}

let viewAsked = 0; // the latest view asked for: an earlier one answered after it is dropped

async function changeView(view) {
  stop();
  const asked = ++viewAsked;
  document.body.dataset.loading = "true";
  try {
    const data = await fetchView(view);
    if (asked !== viewAsked) return;
    page.data = data;
    page.view = view;
  } catch (error) {
    if (asked !== viewAsked) return;
    showError(error.code, error.message);
  } finally {
    if (asked === viewAsked) delete document.body.dataset.loading;
  }
  rebuild();
}

/** The step a table's address asks for (`#step=N`: the analysis links each move so), else the first. */
function askedStep(data) {
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  return Number.isInteger(asked) && asked > 0 ? Math.min(asked, data.steps.length - 1) : 0;
}

/** Show the replay of `source` ({table: id} or {text}) from its first step, or the one its address asks for. */
async function start(source) {
  stop();
  const cache = new Map();
  document.body.dataset.loading = "true";
  let data;
  try {
    data = await fetchView("open", source, cache);
  } catch (error) {
    delete document.body.dataset.loading;
    if (!page.data) return waiting(error);
    showError(error.code, error.message, { timeout: 0 }); // the replay shown before stays
    return;
  }
  Object.assign(page, { source, cache, data, view: "open", step: source.table ? askedStep(data) : 0 });
  const game = page.data.game;
  if (game !== page.game) {
    const info = await gameInfo(game);
    const [, , module, components] = await Promise.all([
      loadStrings(game),
      loadGameStyle(game),
      loadRenderer(game),
      info.components ? api.getComponents(game).catch(() => null) : null,
    ]);
    Object.assign(page, { module, game, info, baseComponents: components || {} });
  }
  page.components = componentsOf(page.info, page.baseComponents, page.data.options); // a record's own tiles and cards
  delete document.body.dataset.loading;
  rebuild();
  document.body.dataset.ready = "true";
}

async function loadFile(file) {
  const text = await file.text();
  let record;
  try {
    record = JSON.parse(text); // only to look at it: the text itself is sent (a seed may not fit a number)
  } catch {
    showError("bad_record", t("replay.not_json", { name: file.name }), { timeout: 0 });
    return;
  }
  if (record && record.view && record.seed === null) {
    showError("partial_record", null, { timeout: 0 });
    return;
  }
  delete document.body.dataset.ready;
  await start({ text, name: file.name });
}

/** Before any replay: why there is none (a table still being played, or no record yet), and the drop zone. */
function waiting(error) {
  const notOver = error && error.code === "not_over";
  replace(
    document.getElementById("app"),
    topbar({ links: [{ href: "/", text: t("nav.lobby") }] }),
    h(
      "main",
      { class: "replay-empty" },
      h(
        "div",
        { class: "panel" },
        h("h1", {}, t("replay.heading")),
        error
          ? h(
              "div",
              { class: "notice warn", dataset: { testid: "replay-refused" } },
              h("p", {}, notOver ? t("replay.not_over") : has(`error.${error.code}`) ? t(`error.${error.code}`) : error.message),
              !notOver && has(`error.${error.code}`) && error.message ? h("p", { class: "muted small", lang: "en" }, error.message) : null,
            )
          : h("p", {}, t("replay.intro")),
        notOver ? h("a", { class: "button primary", href: `/table/${encodeURIComponent(tableId)}` }, t("replay.watch_table")) : null,
        dropZone(),
      ),
    ),
  );
}

async function main() {
  await loadStrings(null);
  document.addEventListener("keydown", onKey);
  document.addEventListener("dragover", (event) => event.preventDefault());
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) loadFile(file);
  });
  onLangChange(() => (page.data ? rebuild() : waiting(null)));
  if (tableId) await start({ table: tableId });
  else waiting(null);
}

main();
