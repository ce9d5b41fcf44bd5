// The lobby: create a table (game, players, seats, options), see open and running tables, join or watch.

import { accountPanel, myGamesPanel } from "./account.js";
import { ApiError, createAndSit, getCatalogue, getMe, listTables, loadName, loadSeat, saveName } from "./api.js";
import { clockIcon, clockName } from "./clock.js";
import { finishedPanel } from "./finished.js";
import { h, replace, update } from "./dom.js";
import { has, lang, loadStrings, onLangChange, t, titleOf } from "./i18n.js";
import { gameIcon, showError, timeAgo, topbar } from "./shell.js";
import { quickMatchPanel, refreshOnline } from "./quickmatch.js";
import { practiceBadge } from "./undo.js";

const REFRESH_MS = 3000;

const state = {
  games: [],
  clocks: [], // the clock profiles the server offers
  clock: null, // the chosen profile's name; null: the server's default for the seats
  tables: null, // null until the first listing arrives
  tablesError: null,
  game: null,
  players: 4,
  seats: [], // per seat: "me", "human" or "bot:<name>"
  options: {}, // per game: {name: value}
  name: loadName(),
  creating: false,
  takebacks: false, // allow takebacks (against bots only): an unrated practice game
  me: null, // who is signed in, with their running games ("My games"); null: nobody
};

const root = document.getElementById("app");
let tablesBox = null;
let finished = null; // the list of finished games
let myGamesSlot = null; // where "My games" is drawn, for a signed-in player

function gameOf(name) {
  return state.games.find((game) => game.name === name) || state.games[0];
}

export function gameTitle(game) {
  return titleOf(game.name, game.title);
}

function optionLabel(game, option) {
  const key = `option.${game}.${option.name}`;
  const text = t(key);
  return text === key ? option.name.replaceAll("_", " ") : text;
}

function optionHelp(game, option) {
  const key = `option.${game}.${option.name}.help`;
  const text = t(key);
  return text === key ? option.help : text;
}

function choiceLabel(game, option, choice) {
  const key = `option.${game}.${option.name}.${choice}`;
  const text = t(key);
  return text === key ? String(choice).replaceAll("_", " ") : text;
}

const BOT_ORDER = ["heuristic", "easy", "medium", "hard", "learned", "random"];

// The bots a seat can be given (the server names each once), strongest-known first.
function offeredBots(bots) {
  const rank = (bot) => (BOT_ORDER.includes(bot) ? BOT_ORDER.indexOf(bot) : BOT_ORDER.length);
  return [...bots].sort((a, b) => rank(a) - rank(b));
}

function botLabel(bot) {
  const key = `bot.${bot}`;
  const text = t(key);
  return text === key ? `${bot} bot` : text;
}

// -- the create form -------------------------------------------------------------------------------------

function fitSeats() {
  const game = gameOf(state.game);
  state.players = Math.min(Math.max(state.players, game.min_players), game.max_players);
  const offered = offeredBots(game.bots);
  const defaultBot = `bot:${offered[0]}`; // the strongest known: the game's heuristic bot if it has one
  const kept = (old) => old === "human" || (old && old.startsWith("bot:") && offered.includes(old.slice(4)));
  const seats = [];
  for (let seat = 0; seat < state.players; seat += 1) {
    const old = state.seats[seat];
    seats.push(seat === 0 ? "me" : kept(old) ? old : defaultBot); // a bot this game has not is not kept
  }
  state.seats = seats;
}

function seatRow(game, seat) {
  const label = h("span", { class: "seat-label" }, h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat})` } }), t("common.seat", { n: seat + 1 }));
  if (seat === 0) {
    return h("li", { class: "seat-row" }, label, h("span", { class: "seat-me" }, t("lobby.seat_you")));
  }
  const select = h(
    "select",
    { "aria-label": t("common.seat", { n: seat + 1 }), dataset: { testid: `seat-kind-${seat}` } },
    h("option", { value: "human" }, t("lobby.seat_friend")),
    offeredBots(game.bots).map((bot) => h("option", { value: `bot:${bot}` }, botLabel(bot))),
  );
  select.value = state.seats[seat];
  select.addEventListener("change", () => {
    state.seats[seat] = select.value;
    render(); // the default clock follows the number of people, takebacks need bots at every other seat
  });
  return h("li", { class: "seat-row" }, label, select);
}

/** The edition as its own field; choosing one redraws the form (its rules link follows). */
function editionControl(game, option) {
  const field = optionControl(game, option);
  field.classList.add("edition-field");
  field.querySelector("select")?.addEventListener("change", () => render());
  return field;
}

function optionControl(game, option) {
  const values = (state.options[game.name] ||= {});
  const id = `opt-${game.name}-${option.name}`;
  let control;
  if (option.name === "elder") {
    control = h(
      "select",
      { id },
      h("option", { value: "" }, t("lobby.option_random_seat")),
      Array.from({ length: state.players }, (_, seat) => h("option", { value: String(seat) }, t("common.seat", { n: seat + 1 }))),
    );
    control.value = values.elder === undefined || values.elder >= state.players ? "" : String(values.elder);
    control.addEventListener("change", () => {
      if (control.value === "") delete values.elder;
      else values.elder = Number(control.value);
    });
  } else if (Array.isArray(option.choices) && option.choices.every((choice) => typeof choice === "boolean")) {
    control = h("input", { id, type: "checkbox" });
    control.checked = values[option.name] ?? option.default;
    control.addEventListener("change", () => {
      values[option.name] = control.checked;
    });
    return h(
      "div",
      { class: "option option-check" },
      h("label", { for: id }, control, " ", optionLabel(game.name, option)),
      h("span", { class: "help" }, optionHelp(game.name, option)),
    );
  } else if (Array.isArray(option.choices)) {
    control = h(
      "select",
      { id, dataset: { testid: `option-${option.name}` } },
      option.choices.map((choice) => h("option", { value: String(choice) }, choiceLabel(game.name, option, choice))),
    );
    control.value = String(values[option.name] ?? option.default);
    control.addEventListener("change", () => {
      values[option.name] = control.value;
    });
  } else {
    control = h("input", {
      id,
      type: "number",
      min: 1,
      step: 1,
      inputmode: "numeric",
      placeholder: option.default === null ? t("lobby.option_auto") : String(option.default),
      dataset: { testid: `option-${option.name}` },
    });
    control.value = values[option.name] ?? option.default ?? "";
    control.addEventListener("input", () => {
      if (control.value === "") delete values[option.name];
      else values[option.name] = Number(control.value);
    });
  }
  return h(
    "div",
    { class: "field option" },
    h("label", { for: id }, optionLabel(game.name, option)),
    control,
    h("span", { class: "help" }, optionHelp(game.name, option)),
  );
}

/** The clock the server would choose: normal for several people, none for one person against bots. */
function defaultClock() {
  return state.seats.filter((kind) => kind === "me" || kind === "human").length > 1 ? "normal" : "none";
}

function chosenClock() {
  const names = state.clocks.map((clock) => clock.name);
  return state.clock !== null && names.includes(state.clock) ? state.clock : defaultClock();
}

function clockControl() {
  if (!state.clocks.length) return null;
  const select = h(
    "select",
    { id: "clock", dataset: { testid: "clock" } },
    state.clocks.map((clock) => h("option", { value: clock.name }, clockName(clock))),
  );
  select.value = chosenClock();
  select.addEventListener("change", () => {
    state.clock = select.value;
  });
  return h("div", { class: "field clock-field" }, h("label", { for: "clock" }, t("clock.label")), select, h("span", { class: "help" }, t("clock.help")));
}

/** Takebacks are for one person against bots: every seat but yours a bot. */
function onlyBots() {
  return state.seats.every((kind) => kind === "me" || kind.startsWith("bot:"));
}

function takebacksControl() {
  const allowed = onlyBots();
  const box = h("input", { id: "takebacks", type: "checkbox", checked: allowed && state.takebacks, disabled: !allowed, dataset: { testid: "takebacks" } });
  box.addEventListener("change", () => {
    state.takebacks = box.checked;
  });
  return h(
    "div",
    { class: "field option-check takebacks-field" },
    h("label", { for: "takebacks" }, box, t("lobby.takebacks")),
    h("span", { class: "help" }, t(allowed ? "lobby.takebacks_help" : "lobby.takebacks_bots_only")),
  );
}

function createPanel() {
  const game = gameOf(state.game);
  const form = h("form", { class: "panel create", dataset: { testid: "create-form" } });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    create(form);
  });

  const gameChoices = h(
    "div",
    { class: "game-choices", role: "radiogroup", "aria-label": t("lobby.game") },
    state.games.map((each) => {
      const input = h("input", { type: "radio", name: "game", value: each.name, checked: each.name === game.name });
      input.addEventListener("change", () => {
        state.game = each.name;
        fitSeats();
        render();
      });
      return h(
        "label",
        { class: "game-choice", dataset: { game: each.name } },
        input,
        h("span", { class: "game-choice-body" },
          h("span", { class: "game-choice-title" }, gameIcon(each.name), gameTitle(each)),
          h("span", { class: "game-choice-meta" }, t("lobby.player_range", { min: each.min_players, max: each.max_players })),
          has(`game.${each.name}.summary`) ? h("span", { class: "game-choice-summary" }, t(`game.${each.name}.summary`)) : null,
        ),
      );
    }),
  );

  const players = h("select", { id: "players", dataset: { testid: "players" } });
  for (let n = game.min_players; n <= game.max_players; n += 1) players.append(h("option", { value: String(n) }, String(n)));
  players.value = String(state.players);
  players.addEventListener("change", () => {
    state.players = Number(players.value);
    fitSeats();
    render();
  });

  // an edition (L.A.M.A.'s Party Edition) is chosen beside the players, not among the other options
  const edition = game.options.find((option) => option.name === "edition");
  const options = game.options.filter((option) => option !== edition); // component data is not among them
  const chosenEdition = edition ? (state.options[game.name] || {}).edition ?? edition.default : null;
  const rulesHref = `/rules/${game.name}${edition && chosenEdition !== edition.default ? `?edition=${encodeURIComponent(chosenEdition)}` : ""}`;
  const parts = [
    h("h2", {}, t("lobby.new_table")),
    h("fieldset", { class: "plain" }, h("legend", {}, t("lobby.game")), gameChoices),
    h("p", { class: "rules-link small" }, h("a", { href: rulesHref, dataset: { testid: "rules-link" } }, t("lobby.read_rules", { game: gameTitle(game) }))),
    h("div", { class: "field players-field" }, h("label", { for: "players" }, t("lobby.players")), players),
    edition ? editionControl(game, edition) : null,
    h("fieldset", { class: "plain" }, h("legend", {}, t("lobby.seats")), h("ul", { class: "seat-list" }, state.seats.map((_, seat) => seatRow(game, seat)))),
    h("p", { class: "help small muted" }, t("lobby.seats_help")),
    clockControl(),
    takebacksControl(),
    options.length
      ? h("details", { class: "options" }, h("summary", {}, t("lobby.options")), h("div", { class: "option-grid" }, options.map((option) => optionControl(game, option))))
      : null,
    h(
      "div",
      { class: "create-actions" },
      h("button", { type: "submit", class: "primary", disabled: state.creating, dataset: { testid: "create" } }, state.creating ? t("lobby.creating") : t("lobby.create")),
    ),
  ];
  form.append(...parts.filter((part) => part)); // a part a game has not (an edition, options) is left out
  return form;
}

async function create() {
  const name = state.me ? state.me.name : state.name.trim(); // a signed-in player plays under their account's name
  if (!name) {
    showError("name_needed", null);
    document.getElementById("name")?.focus();
    return;
  }
  const game = gameOf(state.game);
  const bots = {};
  state.seats.forEach((kind, seat) => {
    if (kind.startsWith("bot:")) bots[String(seat)] = kind.slice(4);
  });
  const options = {};
  for (const option of game.options) {
    const value = (state.options[game.name] || {})[option.name];
    if (value === undefined || value === "" || (typeof value === "number" && Number.isNaN(value))) continue;
    if (value !== option.default) options[option.name] = value;
  }
  state.creating = true;
  render();
  try {
    saveName(name);
    const body = { game: game.name, players: state.players, options, bots };
    if (state.clocks.length) body.clock = chosenClock();
    if (state.takebacks && onlyBots()) body.takebacks = true;
    const { id } = await createAndSit(body, 0, name);
    location.assign(`/table/${encodeURIComponent(id)}`);
  } catch (error) {
    state.creating = false;
    render();
    if (error instanceof ApiError) showError(error.code, error.message);
    else showError("unknown", String(error));
  }
}

// -- the tables ------------------------------------------------------------------------------------------

function seatSummary(table) {
  return table.seats.map((seat) => {
    const name = seat.kind === "bot" ? `${botLabel(seat.bot)} ${seat.seat + 1}` : seat.joined ? seat.name : null;
    return h(
      "li",
      { class: `seat-chip ${seat.kind} ${seat.joined ? "joined" : "empty"}` },
      h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat.seat})` } }),
      name ?? t("lobby.empty_seat"),
    );
  });
}

function tableRow(table) {
  const mine = loadSeat(table.id);
  const game = gameOf(table.game);
  const waiting = table.seats.filter((seat) => !seat.joined).length;
  return h(
    "li",
    { class: "table-row", dataset: { table: table.id, status: table.status, key: table.id } },
    h(
      "div",
      { class: "table-row-main" },
      h(
        "div",
        { class: "table-row-head" },
        gameIcon(table.game),
        h("strong", {}, game ? gameTitle(game) : table.title),
        h("span", { class: `pill ${table.status}` }, t(`status.${table.status}`)),
        practiceBadge(table, t),
        h("span", { class: "muted small" }, timeAgo(table.created, lang())),
      ),
      h(
        "div",
        { class: "table-row-clock muted small" },
        h("span", { class: "table-clock", dataset: { testid: "table-clock" } }, clockIcon(), clockName(table.clock)),
        table.updated ? h("span", { dataset: { testid: "table-idle" } }, t("clock.idle", { ago: timeAgo(table.updated, lang()) })) : null,
      ),
      h("ul", { class: "seat-chips" }, seatSummary(table)),
      table.status === "open"
        ? h("div", { class: "muted small" }, mine ? t("lobby.waiting_for", { n: waiting }) : t("lobby.need_invite"))
        : null,
    ),
    h(
      "div",
      { class: "table-row-actions" },
      mine
        ? h("a", { class: "button primary small", href: `/table/${table.id}`, dataset: { testid: "my-seat" } }, t("lobby.to_my_seat"))
        : null,
      h("a", { class: "button small", href: `/table/${table.id}?watch=1`, dataset: { testid: "watch" } }, t("lobby.watch")),
    ),
  );
}

function renderTables() {
  if (!tablesBox) return;
  if (state.tables === null) {
    replace(tablesBox, h("p", { class: "muted" }, state.tablesError ? t("lobby.tables_error") : t("common.loading")));
    return;
  }
  const tables = state.tables;
  if (!tables.length) {
    replace(tablesBox, h("p", { class: "muted empty" }, t("lobby.no_tables")));
    return;
  }
  // drawn again every few seconds: changed in place, so that the focus and a click under way stay where they are
  update(
    tablesBox,
    state.tablesError ? h("p", { class: "notice warn small", dataset: { key: "error" } }, t("lobby.tables_error")) : null,
    h("ul", { class: "table-list", dataset: { testid: "tables", key: "tables" } }, tables.map(tableRow)),
  );
}

function renderMyGames() {
  if (myGamesSlot) replace(myGamesSlot, myGamesPanel(state.me));
}

/** Signed in or out: the page is drawn again for the account (or for a guest). */
function accountChanged(me) {
  state.me = me;
  render();
}

async function refreshTables() {
  try {
    state.tables = await listTables();
    state.tablesError = null;
  } catch (error) {
    state.tablesError = error;
  }
  if (state.me) {
    try {
      state.me = await getMe();
    } catch {
      /* kept as it was until the next refresh */
    }
    if (!state.me) render(); // the session ended elsewhere (signed out on another device)
  }
  renderMyGames();
  renderTables();
  refreshOnline();
  if (finished) finished.refresh();
}

function joinPanel() {
  const input = h("input", { type: "url", id: "invite", placeholder: t("lobby.invite_placeholder"), dataset: { testid: "invite-input" } });
  const form = h(
    "form",
    { class: "panel join" },
    h("h2", {}, t("lobby.join_title")),
    h("p", { class: "muted small" }, t("lobby.join_help")),
    h("div", { class: "copy-row" }, input, h("button", { type: "submit", class: "small" }, t("lobby.join"))),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let url;
    try {
      url = new URL(input.value.trim(), location.origin);
    } catch {
      url = null;
    }
    if (!url || !/^\/table\/[^/]+$/.test(url.pathname)) {
      showError("bad_invite", null);
      return;
    }
    location.assign(url.pathname + url.search + url.hash);
  });
  return form;
}

// -- the page --------------------------------------------------------------------------------------------

function render() {
  document.title = `laro — ${t("lobby.title")}`;
  const name = h("input", {
    type: "text",
    id: "name",
    maxlength: 24,
    autocomplete: "nickname",
    placeholder: t("lobby.name_placeholder"),
    value: state.name,
    dataset: { testid: "name" },
  });
  name.addEventListener("input", () => {
    state.name = name.value;
  });
  name.addEventListener("change", () => saveName(name.value.trim()));
  tablesBox = h("div", { class: "tables-box" });
  myGamesSlot = h("div", { class: "my-games-slot" });
  const body = state.games.length
    ? h(
        "div",
        { class: "lobby-grid" },
        h(
          "div",
          { class: "lobby-left" },
          state.me ? null : h("div", { class: "panel name-panel" }, h("div", { class: "field" }, h("label", { for: "name" }, t("lobby.your_name")), name)),
          createPanel(),
          accountPanel(state.me, accountChanged),
        ),
        h(
          "div",
          { class: "lobby-right" },
          quickMatchPanel(state.me, state.games, state.clocks),
          myGamesSlot,
          h(
            "section",
            { class: "panel tables" },
            h("div", { class: "panel-head" }, h("h2", {}, t("lobby.tables")), h("span", { class: "muted small" }, t("lobby.refreshes"))),
            tablesBox,
          ),
          (finished = finishedPanel()).panel,
          joinPanel(),
        ),
      )
    : h("p", { class: "muted" }, t("common.loading"));
  replace(
    root,
    topbar({
      links: [
        ...state.games.map((game) => ({ href: `/rules/${game.name}`, text: t("nav.rules_of", { game: gameTitle(game) }) })),
        { href: "/leaderboard/lama", text: t("ratings.leaderboard"), testid: "leaderboard-link" },
      ],
    }),
    h(
      "main",
      { class: "lobby" },
      h("section", { class: "hero" }, h("h1", {}, t("lobby.heading")), h("p", { class: "muted" }, t("lobby.intro"))),
      body,
    ),
  );
  renderMyGames();
  renderTables();
}

async function main() {
  await loadStrings(null);
  render();
  onLangChange(() => render());
  try {
    const catalogue = await getCatalogue();
    state.games = catalogue.games;
    state.clocks = catalogue.clocks || [];
    await loadStrings(state.games.map((game) => game.name)); // each game's own strings: its title, options…
  } catch (error) {
    showError(error.code || "network", error.message, { timeout: 0 });
    return;
  }
  try {
    state.me = await getMe();
  } catch {
    state.me = null; // the lobby works for guests whatever the accounts answer
  }
  state.game = state.games.some((game) => game.name === "lama") ? "lama" : state.games[0].name;
  fitSeats();
  render();
  await refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
}

main();
