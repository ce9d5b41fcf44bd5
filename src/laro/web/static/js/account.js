// The lobby's account panel (sign up, sign in, sign out: docs/protocol.md, "Accounts") and "My games": the tables
// not over where the signed-in account holds a seat, each taken back with its seat's invite link.

import * as api from "./api.js";
import { h } from "./dom.js";
import { profileHref } from "./ratings.js";
import { lang, t, titleOf } from "./i18n.js";
import { gameIcon, showError, timeAgo } from "./shell.js";

/**
 * The account panel. `me` is who is signed in (null: nobody); `changed(me)` is called once that changes.
 */
export function accountPanel(me, changed) {
  if (me) {
    const out = h("button", { type: "button", class: "small", dataset: { testid: "sign-out" } }, t("account.sign_out"));
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await api.signOut();
        changed(null);
      } catch (error) {
        out.disabled = false;
        showError(error.code || "unknown", error.message);
      }
    });
    return h(
      "section",
      { class: "panel account-panel", dataset: { testid: "account" } },
      h("h2", {}, t("account.title")),
      h("p", { class: "account-who", dataset: { testid: "signed-in" } }, t("account.signed_in_as", { name: me.name })),
      h("div", { class: "account-actions" }, h("a", { class: "button small", href: profileHref(me.name), dataset: { testid: "my-profile" } }, t("account.profile")), out),
    );
  }
  const name = h("input", { type: "text", id: "account-name", maxlength: 24, autocomplete: "username", required: true, dataset: { testid: "account-name" } });
  const password = h("input", { type: "password", id: "account-password", minlength: 8, autocomplete: "current-password", required: true, dataset: { testid: "account-password" } });
  const signIn = h("button", { type: "submit", class: "primary small", dataset: { testid: "sign-in" } }, t("account.sign_in"));
  const signUp = h("button", { type: "submit", class: "small", dataset: { testid: "sign-up" } }, t("account.sign_up"));
  const form = h(
    "form",
    { class: "panel account-panel", dataset: { testid: "account" } },
    h("h2", {}, t("account.title")),
    h("p", { class: "help small muted" }, t("account.why")),
    h("div", { class: "field" }, h("label", { for: "account-name" }, t("account.name")), name),
    h("div", { class: "field" }, h("label", { for: "account-password" }, t("account.password")), password, h("span", { class: "help" }, t("account.password_help"))),
    h("div", { class: "account-actions" }, signIn, signUp),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const making = event.submitter === signUp;
    password.autocomplete = making ? "new-password" : "current-password";
    signIn.disabled = signUp.disabled = true;
    try {
      const me = making ? await api.signUp(name.value.trim(), password.value) : await api.signIn(name.value.trim(), password.value);
      changed(me);
    } catch (error) {
      signIn.disabled = signUp.disabled = false;
      showError(error.code || "unknown", error.message);
      password.focus();
    }
  });
  return form;
}

function gameRow(game) {
  const title = titleOf(game.game, game.title);
  return h(
    "li",
    { class: "table-row my-game", dataset: { table: game.id } },
    h(
      "div",
      { class: "table-row-main" },
      h(
        "div",
        { class: "table-row-head" },
        gameIcon(game.game),
        h("strong", {}, title),
        h("span", { class: `pill ${game.status}` }, t(`status.${game.status}`)),
        game.your_turn ? h("span", { class: "pill your-turn", dataset: { testid: "my-turn" } }, t("lobby.your_turn")) : null,
        h("span", { class: "muted small" }, timeAgo(game.updated, lang())),
      ),
      h("p", { class: "muted small" }, game.players.filter((name) => name).join(" · ")),
    ),
    h(
      "div",
      { class: "table-row-actions" },
      h("a", { class: "button primary small", href: game.invite, dataset: { testid: "my-game-seat" } }, t("lobby.to_my_seat")),
    ),
  );
}

/** "My games" of the signed-in account; null when nobody is signed in. */
export function myGamesPanel(me) {
  if (!me) return null;
  return h(
    "section",
    { class: "panel my-games", dataset: { testid: "my-games" } },
    h("h2", {}, t("lobby.my_games")),
    me.games.length
      ? h("ul", { class: "table-list" }, me.games.map(gameRow))
      : h("p", { class: "muted empty" }, t("lobby.my_games_empty")),
  );
}
