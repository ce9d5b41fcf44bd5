/*
 * The analysis of a finished game (docs/analysis.md), on the table page once the game is over: a seat to
 * analyse and an "Analyse" button (POST /api/tables/{id}/analysis), then — once the server's worker has made it
 * (GET /api/tables/{id}/analysis?seat=N, asked again every POLL_MS until it is done) — a summary, a chart of the
 * win chance over the game (SVG) and the list of the seat's decisions with the marked moves and, a click away,
 * every move compared at each, each move a link to the replay page at that move (/table/{id}/replay#step=N).
 *
 *   analysisPanel(root, { tableId, players, seat, playerName(seat), t, say(action, seat) }) → { destroy() }
 *     root        an empty element the panel owns
 *     players     the number of seats
 *     seat        the seat shown first (this browser's, or 0)
 *     say         a move's words as the table's log says it (js/table.js: the renderer's describeAction), so
 *                 the played move, the best one and the marked ones read as they do everywhere on the page
 */

import * as api from "./api.js";
import { h, replace, svg } from "./dom.js";

const POLL_MS = 1500;
const GIVE_UP_MS = 10 * 60 * 1000; // an analysis still not made after this is reported as failed
const MARKS = ["inaccuracy", "mistake", "blunder"];
const CHART = { width: 640, height: 220, left: 40, right: 12, top: 12, bottom: 28 };

export function analysisPanel(root, { tableId, players, seat, playerName, t, say = (action) => action }) {
  let current = seat ?? 0;
  let timer = null;
  let gone = false;
  const body = h("div", { class: "analysis-body", dataset: { testid: "analysis-body" }, "aria-live": "polite" });
  const choice = h(
    "select",
    { dataset: { testid: "analysis-seat" }, "aria-label": t("analysis.seat") },
    Array.from({ length: players }, (_, n) => h("option", { value: n, selected: n === current }, playerName(n))),
  );
  const button = h("button", { class: "primary", type: "button", dataset: { testid: "analyse" } }, t("analysis.analyse"));
  choice.addEventListener("change", () => {
    current = Number(choice.value);
    stop();
    look(false);
  });
  button.addEventListener("click", () => start());
  replace(
    root,
    h("h2", {}, t("analysis.title")),
    h("p", { class: "muted small" }, t("analysis.help")),
    h("div", { class: "analysis-controls" }, h("label", {}, t("analysis.seat"), " ", choice), button),
    body,
  );

  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  async function start() {
    stop();
    button.disabled = true;
    try {
      show(await api.requestAnalysis(tableId, current), Date.now(), true);
    } catch (error) {
      failed(error);
    }
  }

  async function look(poll, since = Date.now()) {
    try {
      let answer = await api.getAnalysis(tableId, current);
      // asked for, yet none: the server restarted meanwhile, or another of its processes answers; ask again
      if (poll && answer.status === "none") answer = await api.requestAnalysis(tableId, current);
      show(answer, since, poll);
    } catch (error) {
      failed(error);
    }
  }

  // asked: this browser asked for the analysis, so "none" means it is being made elsewhere (keep asking)
  function show(answer, since, asked = false) {
    if (gone) return;
    if (answer.status === "done") {
      button.hidden = true; // made once: the same game, seat and settings give the same analysis
      drawAnalysis(body, answer.analysis, { tableId, playerName, t, say });
      return;
    }
    if (answer.status === "running" || (asked && answer.status === "none")) {
      button.disabled = true;
      replace(body, h("p", { class: "analysis-wait", dataset: { testid: "analysis-running" } }, t("analysis.running")));
      if (Date.now() - since > GIVE_UP_MS) {
        failed({ message: t("analysis.too_long") });
        return;
      }
      timer = setTimeout(() => look(true, since), POLL_MS);
      return;
    }
    if (answer.status === "failed") {
      failed({ message: answer.message });
      return;
    }
    button.disabled = false;
    button.hidden = false;
    replace(body);
  }

  function failed(error) {
    if (gone) return;
    button.disabled = false;
    button.hidden = false;
    replace(body, h("p", { class: "analysis-failed", dataset: { testid: "analysis-failed" } }, t("analysis.failed"), " ", h("span", { class: "muted", lang: "en" }, error.message || "")));
  }

  look(false);
  return {
    destroy() {
      gone = true;
      stop();
    },
  };
}

const percent = (value) => `${Math.round(100 * value)}%`;
const points = (loss) => (100 * loss).toFixed(1);

/** The replay of the table at the position right after action `move` (js/replay.js reads `#step=`). */
const replayAt = (tableId, move) => `/table/${encodeURIComponent(tableId)}/replay#step=${move}`;

function drawAnalysis(root, data, { tableId, playerName, t, say }) {
  const summary = data.summary;
  const words = (action) => say(action, data.seat);
  const byMove = new Map(data.decisions.map((decision) => [decision.move, decision]));
  const parts = [];
  if (!summary.graded) {
    replace(root, h("p", {}, t("analysis.nothing")));
    return;
  }
  parts.push(
    h(
      "p",
      { class: "analysis-summary", dataset: { testid: "analysis-summary" } },
      h("strong", {}, t("analysis.accuracy", { n: percent(summary.accuracy) })),
      " · ",
      t("analysis.graded", { n: summary.graded, name: playerName(data.seat) }),
      " · ",
      t("analysis.average_loss", { n: points(summary.average_loss) }),
    ),
    h(
      "p",
      { class: "analysis-marks" },
      MARKS.map((mark) => h("span", { class: `mark mark-${mark}` }, t(`analysis.count.${mark}`, { n: summary[`${mark === "inaccuracy" ? "inaccuracies" : mark + "s"}`] }))),
    ),
  );
  if (summary.biggest.length) {
    parts.push(
      h(
        "ol",
        { class: "analysis-biggest", dataset: { testid: "analysis-biggest" } },
        summary.biggest.map((move) => {
          const decision = byMove.get(move);
          return h(
            "li",
            { class: `mark-${decision.verdict}` },
            h("a", { href: replayAt(tableId, move), title: t("analysis.see_replay") }, t("analysis.biggest", { move, played: words(decision.played), best: words(decision.best), loss: points(decision.loss), mark: t(`analysis.mark.${decision.verdict}`) })),
          );
        }),
      ),
    );
  }
  parts.push(chart(data, t, words));
  parts.push(moveList(data, tableId, t, words));
  parts.push(h("p", { class: "muted small" }, t("analysis.settings", { budget: data.budget, seed: data.seed })));
  replace(root, parts);
}

/** The win chance after each move played (a line) and the best move's (dashed), the marked moves as dots. */
function chart(data, t, words) {
  const { width, height, left, right, top, bottom } = CHART;
  const span = Math.max(1, data.actions);
  const x = (move) => left + ((width - left - right) * move) / span;
  const y = (value) => top + (height - top - bottom) * (1 - value);
  const line = (key) => data.decisions.map((d) => `${x(d.move).toFixed(1)},${y(d[key]).toFixed(1)}`).join(" ");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((value) =>
    svg(
      "g",
      { class: "grid" },
      svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value) }),
      svg("text", { x: left - 6, y: y(value) + 4, "text-anchor": "end" }, document.createTextNode(percent(value))),
    ),
  );
  const dots = data.decisions
    .filter((d) => d.verdict !== "good")
    .map((d) =>
      svg(
        "circle",
        { class: `dot mark-${d.verdict}`, cx: x(d.move).toFixed(1), cy: y(d.played_value).toFixed(1), r: d.verdict === "blunder" ? 5 : 4 },
        svg("title", {}, document.createTextNode(t("analysis.dot", { move: d.move, played: words(d.played), n: percent(d.played_value), mark: t(`analysis.mark.${d.verdict}`) }))),
      ),
    );
  return svg(
    "svg",
    {
      class: "analysis-chart",
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": t("analysis.chart"),
      "data-testid": "analysis-chart",
    },
    grid,
    svg("polyline", { class: "best", points: line("best_value") }),
    svg("polyline", { class: "played", points: line("played_value") }),
    dots,
    svg("text", { class: "axis", x: width - right, y: height - 6, "text-anchor": "end" }, document.createTextNode(t("analysis.axis", { n: data.actions }))),
  );
}

/** Every move the search compared at a decision, best first, each with its win chance; the one played marked. */
function compared(d, t, words) {
  if (!d.compared || d.compared.length < 2) return "";
  return h(
    "details",
    { class: "analysis-compared" },
    h("summary", {}, t("analysis.compared", { n: d.compared.length })),
    h(
      "ol",
      {},
      d.compared.map(([action, value]) =>
        h("li", { class: action === d.played ? "is-played" : "", dataset: { action } }, words(action), ` (${percent(value)})`, action === d.played ? [" · ", t("analysis.compared_played")] : null),
      ),
    ),
  );
}

/** Every graded decision: the move, what was played and its win chance, the best found, the loss and the mark,
 * and the moves compared. */
function moveList(data, tableId, t, words) {
  const header = h(
    "tr",
    {},
    ["move", "played", "chance", "best", "loss", "mark", "compared"].map((key) => h("th", { scope: "col" }, t(`analysis.column.${key}`))),
  );
  const rows = data.decisions.map((d) => {
    const same = d.best === d.played;
    return h(
      "tr",
      { class: d.verdict === "good" ? "" : `marked mark-${d.verdict}`, dataset: { move: d.move, verdict: d.verdict, played: d.played, best: d.best } },
      h("td", { class: "num" }, h("a", { href: replayAt(tableId, d.move), title: t("analysis.see_replay"), dataset: { testid: "analysis-replay" } }, String(d.move))),
      h("td", { class: "words" }, words(d.played)),
      h("td", { class: "num" }, percent(d.played_value)),
      h("td", { class: "words" }, same ? "" : `${words(d.best)} (${percent(d.best_value)})`),
      h("td", { class: "num" }, same ? "" : points(d.loss)),
      h("td", {}, d.verdict === "good" ? "" : t(`analysis.mark.${d.verdict}`)),
      h("td", { class: "words compared" }, compared(d, t, words)),
    );
  });
  return h(
    "div",
    { class: "analysis-moves" },
    h("table", { dataset: { testid: "analysis-moves" } }, h("thead", {}, header), h("tbody", {}, rows)),
  );
}
