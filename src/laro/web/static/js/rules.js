// The rules page (/rules/{game}): the game's rules in the chosen language, rendered from markdown.

import { getGames, getRules } from "./api.js";
import { h, replace } from "./dom.js";
import { has, lang, loadStrings, onLangChange, t, titleOf } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";
import { guideSection } from "./rules_guide.js";
import { showError, topbar } from "./shell.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "lama");
const edition = new URLSearchParams(location.search).get("edition"); // L.A.M.A.'s Party Edition: ?edition=party
const root = document.getElementById("app");
let games = [];

function title(name) {
  const found = games.find((each) => each.name === name);
  return titleOf(name, found ? found.title : name);
}

async function render() {
  const article = h("article", { class: "panel rules-text", dataset: { testid: "rules" } }, h("p", { class: "muted" }, t("common.loading")));
  const tabs = h(
    "nav",
    { class: "rules-tabs", "aria-label": t("rules.other_games") },
    games.flatMap((each) => {
      const active = each.name === game && !edition;
      const tabs = [h("a", { href: `/rules/${each.name}`, class: active ? "active" : "", "aria-current": active ? "page" : null }, title(each.name))];
      if (each.options?.some((option) => option.name === "edition" && option.choices?.includes("party"))) {
        const party = each.name === game && edition === "party";
        tabs.push(
          h("a", { href: `/rules/${each.name}?edition=party`, class: party ? "active" : "", "aria-current": party ? "page" : null, dataset: { testid: "party-rules-tab" } }, t(`game.${each.name}.party.title`)),
        );
      }
      return tabs;
    }),
  );
  replace(
    root,
    topbar({ links: [{ href: "/", text: t("nav.lobby") }] }),
    h(
      "main",
      { class: "rules-page" },
      h("div", { class: "rules-head" }, h("a", { href: "/", class: "back" }, "← ", t("nav.back_to_lobby")), tabs),
      h("p", { class: "muted small rules-summary", dataset: { testid: "rules-summary" } }, has(`game.${game}.summary`) ? t(`game.${game}.summary`) : ""),
      games.some((each) => each.name === game) ? guideSection(game, t) : null,
      article,
    ),
  );
  const shown = edition === "party" && has(`game.${game}.party.title`) ? t(`game.${game}.party.title`) : title(game);
  document.title = `${t("rules.title", { game: shown })} — laro`;
  if (games.length && !games.some((each) => each.name === game)) {
    replace(article, h("p", { class: "notice error", dataset: { testid: "no-game" } }, t("rules.no_game", { game })));
    return;
  }
  try {
    const data = await getRules(game, lang(), edition);
    replace(article, renderMarkdown(forBrowser(data.markdown)));
  } catch (error) {
    replace(article, h("p", { class: "notice error" }, error.code === "not_found" ? t("rules.missing") : t("error.network")));
    if (error.code !== "not_found") showError(error.code, error.message);
  }
}

/** The rules without the passages for the terminal (what to type); see laro/core/readers.py for the markers. */
function forBrowser(markdown) {
  const pieces = markdown.split(/^<!-- (in the terminal|in the browser|everywhere) -->[ \t]*\n?/m);
  return pieces.filter((piece, index) => index === 0 || (index % 2 === 0 && pieces[index - 1] !== "in the terminal")).join("");
}

/** The game's stylesheet, for the pictures of its cards and tiles. */
function loadStyle() {
  if (!/^[a-z]+$/.test(game)) return;
  document.head.append(h("link", { rel: "stylesheet", href: `/static/css/${game}.css` }));
}

async function main() {
  loadStyle();
  try {
    games = await getGames();
  } catch {
    games = [];
  }
  await loadStrings([...new Set([game, ...games.map((each) => each.name)])]); // every tab's title, in the language
  await render();
  onLangChange(() => render());
}

main();
