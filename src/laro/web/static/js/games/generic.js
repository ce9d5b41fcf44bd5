/*
 * The plain view of a game without a view of its own (the renderer contract is at the top of js/table.js): what
 * the seat may know (its observation) as a readable list, the legal actions as buttons, nothing more. Words come
 * from the game's strings where it has some (js/i18n/${game}.${lang}.js: `${game}.key.<name>` for an
 * observation's key, `${game}.action.<text>` for an action), else from the names themselves ("draw_pile" →
 * "draw pile").
 */

import { h, replace } from "../dom.js";
import { has } from "../i18n.js";

const MAX_DEPTH = 4; // deeper parts of an observation are shown as their JSON text

/** "draw_pile" → "draw pile": a key read aloud. */
const spoken = (name) => String(name).replaceAll("_", " ");

export function createTable(root, ctx) {
  const t = ctx.t;
  const game = () => (ctx.table && ctx.table.game) || "";
  const words = (kind, name) => {
    const key = `${game()}.${kind}.${name}`;
    return has(key) ? t(key) : spoken(name);
  };
  const els = {
    prompt: h("p", { class: "generic-prompt", "aria-live": "polite", dataset: { testid: "generic-prompt" } }),
    actions: h("div", { class: "generic-actions", role: "group", "aria-label": t("generic.actions"), dataset: { testid: "generic-actions" } }),
    observation: h("dl", { class: "generic-observation", dataset: { testid: "generic-observation" } }),
  };
  root.append(
    h(
      "div",
      { class: "generic panel" },
      els.prompt,
      els.actions,
      h("h2", { class: "small" }, ctx.seat === null || ctx.seat === undefined ? t("generic.table") : t("generic.you_know")),
      els.observation,
    ),
  );

  function value(data, depth) {
    if (data === null || data === undefined) return h("span", { class: "muted" }, "–");
    if (typeof data !== "object") return String(data);
    if (depth >= MAX_DEPTH) return h("code", {}, JSON.stringify(data));
    if (Array.isArray(data)) {
      if (!data.length) return h("span", { class: "muted" }, t("generic.none"));
      if (data.every((item) => item === null || typeof item !== "object")) return data.map((item) => (item === null ? "–" : String(item))).join(", ");
      return h("ol", { start: 0 }, data.map((item) => h("li", {}, value(item, depth + 1))));
    }
    return h("dl", {}, Object.entries(data).map(([key, item]) => [h("dt", {}, words("key", key)), h("dd", { dataset: { key } }, value(item, depth + 1))]));
  }

  function update(message) {
    const legal = message.legal_actions || [];
    const whose = message.observation && Number.isInteger(message.observation.current_player) ? message.observation.current_player : null;
    const summary = message.table || ctx.table || {};
    let prompt = "";
    if (summary.status === "over") prompt = t("generic.over");
    else if (message.your_turn) prompt = t("generic.your_turn");
    else if (whose !== null) prompt = t("generic.waiting", { name: ctx.playerName(whose) });
    els.prompt.textContent = prompt;
    replace(
      els.actions,
      legal.map((action) =>
        h("button", { type: "button", class: "generic-action", dataset: { action }, onclick: () => ctx.send(action) }, words("action", action)),
      ),
    );
    els.actions.hidden = !legal.length;
    const observation = message.observation || {};
    replace(
      els.observation,
      Object.entries(observation).map(([key, item]) => [h("dt", {}, words("key", key)), h("dd", { dataset: { key } }, value(item, 1))]),
    );
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
    describeAction(actionText) {
      const key = `${game()}.action.${actionText}`;
      return has(key) ? t(key) : null;
    },
  };
}
