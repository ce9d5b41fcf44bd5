// The lobby's list of finished games (GET /api/finished, docs/protocol.md): by the players' names, newest end
// first, a page at a time ("Older games"), each with its replay, its table and its download.

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { has, lang, t, titleOf } from "./i18n.js";
import { gameIcon, timeAgo } from "./shell.js";


/** A player's name as stored ("Ana", "heuristic bot"), a bot's in the current language. */
function shownName(name, seat) {
  if (!name) return t("common.seat", { n: seat + 1 });
  const bot = name.endsWith(" bot") ? name.slice(0, -4) : null;
  return bot && has(`bot.${bot}`) ? `${t(`bot.${bot}`)} ${seat + 1}` : name;
}

function gameRow(game) {
  const result = game.result || {};
  const winners = new Set(result.winners || []);
  const scores = result.scores || [];
  const title = titleOf(game.game, game.title);
  const id = encodeURIComponent(game.id);
  return h(
    "li",
    { class: "table-row finished-row", dataset: { table: game.id } },
    h(
      "div",
      { class: "table-row-main" },
      h(
        "div",
        { class: "table-row-head" },
        gameIcon(game.game),
        h("strong", {}, title),
        (game.options || {}).edition === "party" ? h("span", { class: "pill" }, t("lama.party_edition")) : null,
        h("span", { class: "muted small" }, timeAgo(game.ended, lang())),
        result.ended ? h("span", { class: "pill ended", dataset: { testid: "finished-ended" } }, t(`status.${result.ended}`)) : null,
      ),
      h(
        "ul",
        { class: "seat-chips", dataset: { testid: "finished-players" } },
        game.players.map((name, seat) =>
          h(
            "li",
            { class: `seat-chip joined${winners.has(seat) ? " winner" : ""}` },
            h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat % 8})` } }),
            winners.has(seat) ? "★ " : null,
            shownName(name, seat),
            scores[seat] !== undefined ? h("span", { class: "muted" }, ` ${scores[seat]}`) : null,
          ),
        ),
      ),
    ),
    h(
      "div",
      { class: "table-row-actions" },
      h("a", { class: "button primary small", href: `/table/${id}/replay`, dataset: { testid: "finished-replay" } }, t("lobby.replay")),
      h("a", { class: "button small", href: `/api/tables/${id}/record`, download: `laro-${game.game}-${game.id}.json` }, t("end.download")),
    ),
  );
}

/** The panel: the first page now, older pages on demand; `refresh()` reloads the first page (when no older
 * page is shown, so that a reader's place is kept). */
export function finishedPanel() {
  const list = h("ul", { class: "table-list", dataset: { testid: "finished" } });
  const more = h("button", { type: "button", class: "small", hidden: true, dataset: { testid: "finished-older" } }, t("lobby.older"));
  const empty = h("p", { class: "muted empty", hidden: true }, t("lobby.no_finished"));
  const panel = h("section", { class: "panel tables finished-games" }, h("div", { class: "panel-head" }, h("h2", {}, t("lobby.finished"))), empty, list, more);
  let next = null;
  let pages = 0;

  async function load(before) {
    let page;
    try {
      page = await api.listFinished(before);
    } catch {
      return; // the open tables' list says when the server cannot be reached
    }
    if (!before) replace(list);
    list.append(...page.games.map(gameRow));
    next = page.next;
    pages = before ? pages + 1 : 1;
    more.hidden = !next;
    empty.hidden = list.childElementCount > 0;
  }

  more.addEventListener("click", () => next && load(next));
  load(null);
  return {
    panel,
    refresh() {
      if (pages <= 1) load(null);
    },
  };
}

