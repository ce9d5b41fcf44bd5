// Undo at the table: the bar with "Undo" (a step back within your turn) and "Take back turn" (against bots, at a
// table created with takebacks allowed), the practice game's badge, and how the log tells an undo.
//
// The server says in each state which undo this seat may ask for now, and why not (`message.undo`): the buttons
// follow it, so a refused undo is rare (it happens only when the table moved on meanwhile: stale_seq).

import { h } from "./dom.js";
import { has } from "./i18n.js";

/** Whether `entry` (a log entry) is an undo. */
export const isUndo = (entry) => entry.type === "undo";

/**
 * The undo bar for a seat's state, or null when nothing may ever be undone here (a spectator, or a game whose
 * actions are never a step and a table without takebacks); `info` is what the game declares (GET /api/games: its
 * `steps`). `sendUndo(kind)` sends it.
 */
export function undoBar(message, summary, info, sendUndo, t) {
  const offer = message && message.undo;
  if (!offer || summary.status !== "running") return null;
  const stepsExist = info.steps.length > 0; // none where every action shows or draws something (L.A.M.A.)
  if (!stepsExist && !summary.takebacks) return null;
  const button = (kind, label, key) =>
    h(
      "button",
      {
        type: "button",
        class: `small undo-${kind}`,
        disabled: !offer[kind],
        title: offer[kind] ? t(`undo.${kind}_title`) : why(offer, kind, t),
        "aria-keyshortcuts": key,
        dataset: { testid: `undo-${kind}` },
        onclick: () => sendUndo(kind),
      },
      label,
    );
  return h(
    "div",
    { class: "undo-bar", dataset: { testid: "undo-bar" } },
    stepsExist ? button("step", t("undo.step"), "Control+Z") : null,
    summary.takebacks ? button("takeback", t("undo.takeback"), null) : null,
    summary.takebacks ? h("span", { class: "muted small" }, t("undo.practice_help")) : null,
  );
}

/** Why an undo is refused, in the page's language when its code has words there (else the server's words). */
function why(offer, kind, t) {
  const reason = offer[`${kind}_why`];
  if (reason && has(`undo.why.${reason.code}`)) return t(`undo.why.${reason.code}`, { action: reason.action ?? "" });
  return offer[`${kind}_refusal`] || "";
}

/** The "practice" badge of a table created with takebacks allowed (unrated), or null. */
export function practiceBadge(summary, t) {
  if (!summary.practice) return null;
  return h("span", { class: "badge practice-badge", title: t("undo.practice_title"), dataset: { testid: "practice" } }, t("undo.practice"));
}

/** The words of an undo in the log, after the player's name. */
export function describeUndo(entry, t) {
  const undone = entry.undone || [];
  if (entry.kind === "step") return t("log.undo_step", { action: undone[0] ?? "" });
  return t("log.undo_takeback", { n: undone.length });
}

/** Ctrl+Z (or ⌘Z) asks for a step back when the bar offers one; returns the listener to remove later. */
export function undoKeys(current, sendUndo) {
  const listener = (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "z" || event.shiftKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return; // the field's own undo
    const message = current();
    if (message && message.undo && message.undo.step) {
      event.preventDefault();
      sendUndo("step");
    }
  };
  document.addEventListener("keydown", listener);
  return listener;
}
