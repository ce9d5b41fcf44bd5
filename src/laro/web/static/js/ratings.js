// Ratings in the browser (docs/protocol.md, "Ratings"): a player's page (/players/{name}: each rating's history as
// a chart, the recent games with their replays), a game's leaderboard (/leaderboard/{game}), and the rating
// changes a finished game made, for the table's end-of-game panel.

import { h, replace, svg } from "./dom.js";
import { has, lang, loadStrings, onLangChange, t } from "./i18n.js";
import { showError, timeAgo, topbar } from "./shell.js";

export const RATED_GAMES = ["lama", "lama-party", "kamara"]; // the games and editions rated apart

async function getJson(path) {
  const response = await fetch(path, { cache: "no-store" });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((data && data.error && data.error.message) || response.statusText);
    error.code = (data && data.error && data.error.code) || "network";
    throw error;
  }
  return data;
}

/** A rated game's title: "L.A.M.A.", "L.A.M.A. Party Edition", "Kamara". */
export function ratedTitle(game) {
  const [name, edition] = game.split("-");
  const key = edition ? `game.${name}.${edition}.title` : `game.${name}.title`;
  return has(key) ? t(key) : game;
}

export const profileHref = (name) => `/players/${encodeURIComponent(name)}`;
const signed = (n) => (n > 0 ? `+${n}` : String(n));

// -- the end of a game: its rating changes -------------------------------------------------------------------

const changesOf = new Map(); // table id -> its changes once known (a promise while they are asked for)

async function askChanges(tableId) {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const { changes } = await getJson(`/api/tables/${encodeURIComponent(tableId)}/ratings`);
    if (changes.length) return changes;
    await new Promise((done) => setTimeout(done, 1000 + 500 * attempt)); // rated within a second or so of the end
  }
  return [];
}

/** The rating changes of a finished table, filled in once the server has rated it (nothing for an unrated one). */
export function ratingChangesBox(tableId, nameOf) {
  const box = h("div", { class: "rating-changes", dataset: { testid: "rating-changes" } });
  if (!changesOf.has(tableId)) changesOf.set(tableId, askChanges(tableId).catch(() => []));
  changesOf.get(tableId).then((changes) => {
    if (!changes.length) return;
    replace(
      box,
      h("h3", {}, t("ratings.changes")),
      h(
        "ul",
        {},
        changes.map((change) =>
          h(
            "li",
            { dataset: { seat: change.seat } },
            h("a", { href: profileHref(change.name) }, change.kind === "bot" ? botName(change.name) : nameOf(change.seat)),
            " ",
            h("span", { class: "muted" }, `${change.before} → ${change.after}`),
            " ",
            h("strong", { class: change.change >= 0 ? "up" : "down" }, signed(change.change)),
          ),
        ),
      ),
    );
  });
  return box;
}

function botName(level) {
  return has(`bot.${level}`) ? t(`bot.${level}`) : level;
}

// -- a player's page -------------------------------------------------------------------------------------------

/** A rating's history as a line: its points, the lowest and highest ratings labelled; described in words too. */
function historyChart(game, points) {
  const width = 320;
  const height = 120;
  const ratings = points.map((point) => point.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const span = Math.max(1, high - low);
  const x = (i) => (points.length === 1 ? width / 2 : 8 + (i * (width - 16)) / (points.length - 1));
  const y = (rating) => height - 12 - ((rating - low) * (height - 24)) / span;
  const line = points.map((point, i) => `${x(i).toFixed(1)},${y(point.rating).toFixed(1)}`).join(" ");
  const label = t("ratings.chart", { game: ratedTitle(game), first: ratings[0], last: ratings[ratings.length - 1], high, low });
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": label, "data-testid": `chart-${game}` },
    svg("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    ...points.map((point, i) => svg("circle", { cx: x(i), cy: y(point.rating), r: 3, fill: "currentColor" })),
  );
}

function profileView(profile) {
  const cards = profile.ratings.map((rating) =>
    h(
      "li",
      { class: "panel rating-card", dataset: { game: rating.game } },
      h("h2", {}, ratedTitle(rating.game)),
      h("p", { class: "rating-value" }, h("strong", { dataset: { testid: `rating-${rating.game}` } }, String(rating.rating))),
      h("p", { class: "muted small" }, t("ratings.rated_games", { n: rating.games })),
      historyChart(rating.game, profile.history[rating.game] || []),
      h("a", { href: `/leaderboard/${rating.game}`, class: "small" }, t("ratings.leaderboard")),
    ),
  );
  const recent = profile.recent.length
    ? h(
        "table",
        { class: "recent-games", dataset: { testid: "recent-games" } },
        h("thead", {}, h("tr", {}, [t("ratings.when"), t("ratings.game"), t("ratings.place"), t("ratings.rating"), t("ratings.replay")].map((text) => h("th", { scope: "col" }, text)))),
        h(
          "tbody",
          {},
          profile.recent.map((game) =>
            h(
              "tr",
              {},
              h("td", {}, timeAgo(game.at, lang())),
              h("td", {}, ratedTitle(game.game)),
              h("td", {}, String(game.place)),
              h("td", {}, `${game.after} (${signed(game.change)})`),
              h("td", {}, h("a", { href: `/table/${encodeURIComponent(game.table)}/replay`, dataset: { testid: "recent-replay" } }, t("ratings.replay"))),
            ),
          ),
        ),
      )
    : h("p", { class: "muted" }, t("ratings.none"));
  return [
    h("h1", {}, profile.kind === "bot" ? t("ratings.bot_title", { name: botName(profile.name) }) : profile.name),
    h("ul", { class: "rating-cards" }, cards),
    h("section", { class: "panel" }, h("h2", {}, t("ratings.recent")), recent),
  ];
}

// -- a game's leaderboard --------------------------------------------------------------------------------------

function boardView(game, rows, more) {
  const tabs = h(
    "nav",
    { class: "board-tabs", "aria-label": t("ratings.leaderboards") },
    RATED_GAMES.map((each) => h("a", { href: `/leaderboard/${each}`, class: each === game ? "active" : "", "aria-current": each === game ? "page" : null }, ratedTitle(each))),
  );
  const table = rows.length
    ? h(
        "table",
        { class: "leaderboard", dataset: { testid: "leaderboard" } },
        h("thead", {}, h("tr", {}, [t("ratings.rank"), t("ratings.player"), t("ratings.rating"), t("ratings.games")].map((text) => h("th", { scope: "col" }, text)))),
        h(
          "tbody",
          {},
          rows.map((row) =>
            h(
              "tr",
              {},
              h("td", {}, String(row.rank)),
              h("td", {}, h("a", { href: profileHref(row.name) }, row.kind === "bot" ? t("ratings.bot_title", { name: botName(row.name) }) : row.name)),
              h("td", {}, String(row.rating)),
              h("td", {}, String(row.games)),
            ),
          ),
        ),
      )
    : h("p", { class: "muted" }, t("ratings.empty_board"));
  return [h("h1", {}, t("ratings.leaderboard_of", { game: ratedTitle(game) })), tabs, h("section", { class: "panel" }, table, more)];
}

// -- the page ----------------------------------------------------------------------------------------------------

const root = document.getElementById("app");
const [, kind, raw] = location.pathname.split("/");
const subject = decodeURIComponent(raw || "");
const view = { data: null, rows: [], next: null, error: null };

function render() {
  let body;
  if (view.error) body = h("p", { class: "notice error", dataset: { testid: "no-player" } }, view.error === "not_found" ? t(kind === "players" ? "ratings.no_player" : "ratings.empty_board") : t("error.network"));
  else if (kind === "players") body = view.data ? profileView(view.data) : h("p", { class: "muted" }, t("common.loading"));
  else {
    const more = view.next === null ? null : h("button", { type: "button", dataset: { testid: "more" } }, t("ratings.more"));
    more?.addEventListener("click", () => loadBoard());
    body = boardView(subject, view.rows, more);
  }
  document.title = `${kind === "players" ? view.data?.name || subject : t("ratings.leaderboard")} — laro`;
  replace(root, topbar({ links: [{ href: "/", text: t("nav.lobby") }] }), h("main", { class: "ratings-page" }, body));
}

async function loadBoard() {
  try {
    const page = await getJson(`/api/leaderboard/${encodeURIComponent(subject)}?offset=${view.rows.length}`);
    view.rows.push(...page.players);
    view.next = page.next;
  } catch (error) {
    view.error = error.code;
    showError(error.code, error.message);
  }
  render();
}

async function main() {
  if (!root || !["players", "leaderboard"].includes(kind)) return; // imported by the table page for its end panel
  await loadStrings(["lama", "kamara"]);
  render();
  onLangChange(() => render());
  if (kind === "leaderboard") {
    await loadBoard();
    return;
  }
  try {
    view.data = await getJson(`/api/players/${encodeURIComponent(subject)}`);
  } catch (error) {
    view.error = error.code;
  }
  render();
}

main();
