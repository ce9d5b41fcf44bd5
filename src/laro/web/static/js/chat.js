// Chat at the table: the state's last lines of chat (`message.chat`), a field to say a line, and a switch per
// other player to mute them for yourself (kept in this browser's local storage; the others still see them).
//
// Every line is shown as text (DOM text nodes, never HTML): what a player writes cannot become markup here.

import { h, replace } from "./dom.js";

const MUTED_KEY = "laro.chat.muted"; // the names this browser muted, and whether spectators are muted
const MOST = 500; // characters a line may hold (the server's limit)

function loadMuted() {
  try {
    const stored = JSON.parse(localStorage.getItem(MUTED_KEY) || "null");
    return { names: Array.isArray(stored?.names) ? stored.names : [], spectators: Boolean(stored?.spectators) };
  } catch {
    return { names: [], spectators: false };
  }
}

function saveMuted(muted) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify(muted));
  } catch {
    /* storage may be full or off: muting lasts as long as the page */
  }
}

const key = (name) => String(name).toLocaleLowerCase();

/**
 * The chat panel. `send(text)` sends a line (false when it could not); `t` the i18n lookup; `playerName(seat)`
 * the seat's name as shown. `update(message, summary, mySeat)` draws a state's chat.
 */
export function chatPanel({ send, t, playerName }) {
  const muted = loadMuted();
  const list = h("ol", { class: "chat-list", tabindex: "0", "aria-label": t("chat.lines"), dataset: { testid: "chat-lines" } });
  const field = h("input", {
    type: "text",
    maxlength: String(MOST),
    autocomplete: "off",
    "aria-label": t("chat.say"),
    placeholder: t("chat.say"),
    dataset: { testid: "chat-input" },
  });
  const form = h(
    "form",
    {
      class: "chat-form",
      dataset: { testid: "chat-form" },
      onsubmit: (event) => {
        event.preventDefault();
        const text = field.value.trim();
        if (text && send(text)) field.value = "";
      },
    },
    field,
    h("button", { type: "submit", class: "small", dataset: { testid: "chat-send" } }, t("chat.send")),
  );
  const readOnly = h("p", { class: "muted small", hidden: true, dataset: { testid: "chat-read-only" } }, t("chat.spectators_read"));
  const mutes = h("div", { class: "chat-mutes", dataset: { testid: "chat-mutes" } });
  const el = h("section", { class: "panel chat", "aria-labelledby": "chat-title", dataset: { testid: "chat" } }, h("h2", { id: "chat-title" }, t("chat.title")), list, form, readOnly, mutes);
  let follows = true;
  list.addEventListener("scroll", () => {
    follows = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  });
  let last = { message: null, summary: null, seat: null };

  const isMuted = (line) => (line.seat === null || line.seat === undefined ? muted.spectators : muted.names.includes(key(line.by ?? "")));

  function toggle(name) {
    if (name === null) muted.spectators = !muted.spectators;
    else if (muted.names.includes(key(name))) muted.names = muted.names.filter((each) => each !== key(name));
    else muted.names = [...muted.names, key(name)];
    saveMuted(muted);
    if (last.message) update(last.message, last.summary, last.seat);
  }

  function muteButton(name, label, pressed) {
    return h(
      "button",
      { type: "button", class: "small chat-mute", "aria-pressed": String(pressed), dataset: { testid: "chat-mute" }, onclick: () => toggle(name) },
      pressed ? t("chat.unmute", { name: label }) : t("chat.mute", { name: label }),
    );
  }

  function drawMutes(summary, seat) {
    const others = summary.seats.filter((each) => each.seat !== seat && each.joined && !each.bot && each.name);
    const buttons = others.map((each) => muteButton(each.name, playerName(each.seat), muted.names.includes(key(each.name))));
    if (summary.spectator_chat) buttons.push(muteButton(null, t("chat.spectators"), muted.spectators));
    replace(mutes, buttons);
  }

  function update(message, summary, seat) {
    last = { message, summary, seat };
    const lines = (message.chat || []).filter((line) => line.seat === seat || !isMuted(line));
    const hidden = (message.chat || []).length - lines.length;
    replace(
      list,
      lines.map((line) =>
        h(
          "li",
          { class: "chat-line", dataset: { seq: line.seq } },
          h("b", { class: "chat-by" }, line.seat === null || line.seat === undefined ? t("chat.spectator") : line.by || playerName(line.seat)),
          " ",
          h("span", { class: "chat-text" }, line.text),
        ),
      ),
    );
    if (!lines.length) list.append(h("li", { class: "muted" }, t("chat.empty")));
    if (hidden) list.append(h("li", { class: "muted small" }, t("chat.hidden", { n: hidden })));
    if (follows) list.scrollTop = list.scrollHeight;
    const writes = seat !== null && seat !== undefined ? true : Boolean(summary.spectator_chat);
    form.hidden = !writes || !["open", "running"].includes(summary.status);
    readOnly.hidden = writes;
    drawMutes(summary, seat);
  }

  return { el, update };
}
