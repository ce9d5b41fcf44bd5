// The lobby's quick match (docs/protocol.md, "Quick match"): how many people are online and how many wait for each
// game; and, for a signed-in player, "Play now": wait in the queue (a long poll) until the server seats them at a
// table, then go there.

import { getMatch, getOnline, leaveMatch, startMatch } from "./api.js";
import { clockName } from "./clock.js";
import { h, replace } from "./dom.js";
import { t, titleOf } from "./i18n.js";
import { showError } from "./shell.js";

const POLL_SECONDS = 25; // each long poll's wait (the server answers at once when the table is ready)
const BOTS_AFTER = [null, 30, 60, 120]; // the waits a player may choose before bots fill their table

const match = {
  ticket: null, // the player's ticket while waiting ({status: "waiting", …}); null: not waiting
  online: null, // {online, waiting: {game: n}} as the server last said
  choice: { game: null, players: 2, clock: null, bots_after: 60 },
  polling: false,
  slot: h("div", { class: "quick-match-slot" }),
  countsSlot: h("div", { class: "match-counts-slot" }), // redrawn alone, so a choice being made is left alone
  games: [],
  clocks: [],
  me: null,
};

function gameTitleOf(name) {
  const game = match.games.find((one) => one.name === name);
  return titleOf(name, game ? game.title : name);
}

function counts() {
  if (!match.online) return null;
  const waiting = match.games.map((game) =>
    h("li", { dataset: { game: game.name } }, t("match.waiting_for", { game: gameTitleOf(game.name), n: match.online.waiting[game.name] || 0 })),
  );
  return h(
    "div",
    { class: "match-counts", dataset: { testid: "match-counts" } },
    h("p", { dataset: { testid: "online" } }, t("match.online", { n: match.online.online })),
    h("ul", { class: "muted small" }, waiting),
  );
}

function select(id, label, choices, value, changed) {
  const box = h("select", { id, dataset: { testid: id } }, choices.map(([key, text]) => h("option", { value: String(key) }, text)));
  box.value = String(value);
  box.addEventListener("change", () => changed(box.value));
  return h("div", { class: "field" }, h("label", { for: id }, label), box);
}

function chooser() {
  const choice = match.choice;
  const game = match.games.find((one) => one.name === choice.game) || match.games[0];
  choice.game = game.name;
  choice.players = Math.min(Math.max(choice.players, Math.max(2, game.min_players)), game.max_players);
  const players = [];
  for (let n = Math.max(2, game.min_players); n <= game.max_players; n += 1) players.push([n, String(n)]);
  const clocks = [["", t("match.clock_default")], ...match.clocks.map((clock) => [clock.name, clockName(clock)])];
  const bots = BOTS_AFTER.map((seconds) => [seconds ?? "", seconds === null ? t("match.bots_never") : t("match.bots_after", { n: seconds })]);
  return [
    select("match-game", t("lobby.game"), match.games.map((one) => [one.name, gameTitleOf(one.name)]), choice.game, (value) => {
      choice.game = value;
      draw();
    }),
    select("match-players", t("lobby.players"), players, choice.players, (value) => (choice.players = Number(value))),
    select("match-clock", t("clock.label"), clocks, choice.clock ?? "", (value) => (choice.clock = value || null)),
    select("match-bots", t("match.bots_label"), bots, choice.bots_after ?? "", (value) => (choice.bots_after = value ? Number(value) : null)),
  ];
}

function waitingView() {
  const ticket = match.ticket;
  const cancel = h("button", { type: "button", class: "small", dataset: { testid: "match-cancel" } }, t("common.cancel"));
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      await leaveMatch();
    } catch (error) {
      if (error.code !== "not_found") showError(error.code || "unknown", error.message);
    }
    match.ticket = null;
    draw();
  });
  return [
    h(
      "p",
      { role: "status", dataset: { testid: "match-waiting" } },
      t("match.looking", { game: gameTitleOf(ticket.game), n: ticket.players, rating: ticket.rating, window: ticket.window }),
    ),
    h("div", { class: "account-actions" }, cancel),
  ];
}

function playNow() {
  const button = h("button", { type: "submit", class: "primary", dataset: { testid: "play-now" } }, t("match.play_now"));
  const form = h("form", { class: "match-form" }, ...chooser(), button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      match.ticket = await startMatch(match.choice);
      draw();
      poll();
    } catch (error) {
      button.disabled = false;
      showError(error.code || "unknown", error.message);
    }
  });
  return form;
}

function draw() {
  let body;
  if (!match.me) body = h("p", { class: "muted small", dataset: { testid: "match-sign-in" } }, t("match.sign_in_first"));
  else if (match.ticket) body = waitingView();
  else body = playNow();
  replace(
    match.slot,
    h("section", { class: "panel quick-match", dataset: { testid: "quick-match" } }, h("h2", {}, t("match.title")), match.countsSlot, body),
  );
  replace(match.countsSlot, counts());
}

/** Long polls until the ticket is seated (then to the table), gone, or the player stops waiting. */
async function poll() {
  if (match.polling) return;
  match.polling = true;
  try {
    while (match.ticket) {
      let ticket;
      try {
        ticket = await getMatch(POLL_SECONDS);
      } catch (error) {
        if (error.code === "not_found" || error.code === "signed_out") ticket = null;
        else {
          await new Promise((resolve) => setTimeout(resolve, 3000)); // the server is away a moment: ask again
          continue;
        }
      }
      if (ticket && ticket.status === "seated") {
        location.assign(ticket.invite);
        return;
      }
      if (!match.ticket) return; // cancelled meanwhile
      match.ticket = ticket;
      draw();
    }
  } finally {
    match.polling = false;
  }
}

/** The quick-match panel (the same element across the lobby's redraws), for `me` (null: nobody signed in). */
export function quickMatchPanel(me, games, clocks) {
  const signedIn = Boolean(me) && !match.me;
  match.me = me;
  match.games = games;
  match.clocks = clocks;
  if (!me) match.ticket = null;
  draw();
  if (signedIn) resume();
  return match.slot;
}

/** A ticket already waiting (the page was opened again): keep waiting for it. */
async function resume() {
  try {
    const ticket = await getMatch(0);
    if (ticket.status === "seated") return; // an earlier match: its table is in "My games"
    match.ticket = ticket;
    draw();
    poll();
  } catch {
    /* no ticket: nothing to resume */
  }
}

/** Ask the server again how many are online and waiting. */
export async function refreshOnline() {
  try {
    match.online = await getOnline();
  } catch {
    return; // kept as it was until the next refresh
  }
  replace(match.countsSlot, counts());
}
