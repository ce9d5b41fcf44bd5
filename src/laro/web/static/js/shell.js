// What every page shares: the top bar (brand, links, language switch), error toasts, confirmation dialogs.

import { getGames } from "./api.js";
import { h } from "./dom.js";
import { has, languageSwitch, t } from "./i18n.js";

export const LOGO = "/static/img/llama.svg";

/** The top bar: the brand (a link to the lobby), `middle` nodes, `links` [{href, text}], `tools` (such as the
 * mute switch), the language switch. */
export function topbar({ middle = [], links = [], tools = [] } = {}) {
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: "/", title: t("nav.lobby") }, h("img", { src: LOGO, alt: "" }), h("span", { class: "brand-name" }, "laro")),
    middle,
    h("span", { class: "spacer" }),
    h(
      "nav",
      {},
      links.map((link) => h("a", { href: link.href, class: link.class || null, dataset: link.testid ? { testid: link.testid } : {} }, link.text)),
      tools,
      languageSwitch(),
    ),
  );
}

let toastArea = null;

/** The words for an error `code` in the current language (the server's own message as a fallback). */
export function errorText(code, detail) {
  if (has(`error.${code}`)) return t(`error.${code}`);
  return detail || t("error.unknown");
}

/** Show an error: its words by `code`, the server's English `detail` below in small type. */
export function showError(code, detail, { timeout = 8000 } = {}) {
  if (!toastArea || !toastArea.isConnected) {
    toastArea = h("div", { class: "toast-area", role: "alert", "aria-live": "assertive" });
    document.body.append(toastArea);
  }
  const close = h("button", { "aria-label": t("common.close"), title: t("common.close") }, "×");
  const toast = h(
    "div",
    { class: "toast", dataset: { code: code || "unknown" } },
    h(
      "div",
      { class: "toast-body" },
      h("div", { class: "toast-title" }, errorText(code, detail)),
      detail && has(`error.${code}`) ? h("div", { class: "toast-detail", lang: "en" }, detail) : null,
    ),
    close,
  );
  close.addEventListener("click", () => toast.remove());
  toastArea.append(toast);
  while (toastArea.children.length > 3) toastArea.firstElementChild.remove();
  if (timeout) setTimeout(() => toast.remove(), timeout);
  return toast;
}

/** Ask a yes/no question in a modal dialog; resolves to true for yes. */
export function confirmDialog({ title, text, yes, no, danger = false }) {
  return new Promise((resolve) => {
    const dialog = h(
      "dialog",
      { class: "confirm", dataset: { testid: "confirm-dialog" } },
      h("h2", {}, title),
      text ? h("p", {}, text) : null,
      h(
        "div",
        { class: "buttons" },
        h("button", { value: "no", dataset: { confirm: "no" } }, no || t("common.cancel")),
        h("button", { value: "yes", class: danger ? "primary danger-fill" : "primary", dataset: { confirm: "yes" } }, yes || t("common.ok")),
      ),
    );
    const finish = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (button) finish(button.value === "yes");
      else if (event.target === dialog) finish(false); // a click on the backdrop
    });
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('[data-confirm="no"]').focus();
  });
}

/** A copy-to-clipboard row: the text in a read-only field and a button that says when it is copied. */
export function copyRow(text, copy, label) {
  const input = h("input", { type: "text", readonly: true, value: text, "aria-label": label || t("common.link") });
  input.addEventListener("focus", () => input.select());
  const button = h("button", { class: "small", type: "button", dataset: { testid: "copy" } }, t("common.copy"));
  button.addEventListener("click", async () => {
    const done = await copy(text);
    button.textContent = done ? t("common.copied") : t("common.copy_failed");
    button.classList.toggle("copied", done);
    if (!done) input.select();
    setTimeout(() => {
      button.textContent = t("common.copy");
      button.classList.remove("copied");
    }, 2000);
  });
  return h("div", { class: "copy-row" }, input, button);
}

/** How long ago `seconds` (a Unix time) was, in words of the current language. */
export function timeAgo(seconds, language) {
  const delta = Math.round(seconds - Date.now() / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  const abs = Math.abs(delta);
  if (abs < 60) return format.format(Math.round(delta / 10) * 10 || 0, "second");
  if (abs < 3600) return format.format(Math.round(delta / 60), "minute");
  if (abs < 86400) return format.format(Math.round(delta / 3600), "hour");
  return format.format(Math.round(delta / 86400), "day");
}

/** The one colour of a seat everywhere on a table's page: its game's own (Kamara: the diwa's) when the
 * `renderer` gives one, else the seat's colour. */
export function seatColourOf(renderer, seat) {
  if (seat === null || seat === undefined) return "var(--muted)";
  if (renderer && typeof renderer.seatColour === "function") {
    try {
      const own = renderer.seatColour(seat);
      if (own) return own;
    } catch {
      /* the seat's own colour */
    }
  }
  return `var(--seat-${seat % 8})`;
}

/** The words the table's log uses for one action text (such as "play 3"), in the page's language: the game's
 * `renderer.describeAction` (the contract in js/table.js), else the text itself. */
export function actionWords(renderer, action, seat) {
  if (renderer && typeof renderer.describeAction === "function") {
    try {
      const said = renderer.describeAction(action, seat);
      if (said) return said;
    } catch {
      /* the text itself */
    }
  }
  return action;
}

/** Load a game's stylesheet (/static/css/${game}.css) once; resolves when it is in (or missing, or slow). */
export function loadGameStyle(game) {
  return new Promise((resolve) => {
    if (document.querySelector(`link[data-game-style="${game}"]`)) return resolve();
    const link = h("link", { rel: "stylesheet", href: `/static/css/${game}.css`, dataset: { gameStyle: game } });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve); // a game without its own stylesheet
    setTimeout(resolve, 1500);
    document.head.append(link);
  });
}

/** Let a game's renderer go (see the contract in js/table.js): its `destroy()`, whose failure is only logged. */
export function dropRenderer(renderer) {
  if (!renderer) return;
  try {
    renderer.destroy();
  } catch (error) {
    console.error(error);
  }
}

// What a page assumes of a game the server does not describe (GET /api/games): the defaults of the game contract.
const PLAIN_GAME = { score_order: "high", steps: [], whole_turns: [], scored_rounds: false, component_options: [], components: false };

/** What the game declares about itself, from GET /api/games: whether low or high scores win (`score_order`), its
 * undoable `steps`, its `component_options`, whether it has `components` to draw… (docs/protocol.md). */
export async function gameInfo(game) {
  const games = await getGames().catch(() => []);
  return { ...PLAIN_GAME, ...(games.find((each) => each.name === game) || { name: game }) };
}

/** The components to draw a table or record of a game with: the game's (`base`), with the component data the
 * table's own `options` give in their place (a game's `component_options`, such as Kamara's tiles). */
export function componentsOf(info, base, options) {
  const own = {};
  for (const key of info.component_options) if (options && options[key] != null) own[key] = options[key];
  if (!Object.keys(own).length) return base;
  return { ...(base && typeof base === "object" ? base : {}), ...own };
}

/** The renderer of `game` (js/games/${game}.js, the contract at the top of js/table.js), or the plain view
 * (js/games/generic.js, with its stylesheet) for a game without its own. */
export async function loadRenderer(game) {
  try {
    return await import(`./games/${game}.js`);
  } catch {
    await loadGameStyle("generic");
    return import("./games/generic.js");
  }
}

/** A game's icon (img/${game}.svg), laro's own for a game without one. */
export function gameIcon(game) {
  const icon = h("img", { src: `/static/img/${game}.svg`, alt: "", class: "game-icon" });
  icon.addEventListener("error", () => icon.setAttribute("src", LOGO), { once: true });
  return icon;
}
