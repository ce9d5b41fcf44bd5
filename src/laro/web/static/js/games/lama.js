// The L.A.M.A. table: hands, the discard and draw piles, opponents' cards, quits and tokens, round results.
// A renderer module for table.js (see the contract at the top of js/table.js).

import { h, replace, svg } from "../dom.js";
import { clockBadge, countdown, roundPaused, serverNow } from "../clock.js";
import { Flights } from "../motion.js";

const LLAMA = "L";
const PINK = "P"; // the Party Edition's pink llama; its plus cards are written "1+" … "6+"
const ORDER = ["1", "2", "3", "4", "5", "6", LLAMA];

/** What a card counts as: a plus card as its number, the pink llama as a llama. */
export function rankOf(card) {
  return card === PINK ? LLAMA : card.endsWith("+") ? card.slice(0, -1) : card;
}

const isPlus = (card) => card.endsWith("+");

/** The llama drawn as an SVG silhouette (the same drawing as /static/img/llama.svg). */
export function llamaSvg(className = "llama-svg") {
  return svg(
    "svg",
    { viewBox: "0 0 100 100", class: className, "aria-hidden": "true", focusable: "false" },
    svg(
      "g",
      { fill: "currentColor" },
      svg("path", { d: "M30.5 3.5 L35 15 L28.5 15 Z" }),
      svg("path", { d: "M38.5 3 L42 15 L36 15 Z" }),
      svg("path", { d: "M27 13 C33 10.5 41 11 43.5 16 C45 19 45 22 44.5 26 C44 29 41.5 30.5 38 30.5 L22 30.5 C17 30.5 14 28.5 14 25 C14 21.5 17 19.5 21 19 C23 16 24.5 14 27 13 Z" }),
      svg("path", { d: "M31 26 L45 23 C46.5 32 47 40 48 46 L31.5 52 C31 43 30.5 34 31 26 Z" }),
      svg("path", { d: "M34 44 C38 40 44 41.5 48 42 C58 40.5 70 40 80 41.5 C86 42.5 90 46 90.5 52 C91 59 88 65 82 67.5 C72 70 58 70 46 69 C38 68.5 33 64 32 57 C31.5 52 32 47 34 44 Z" }),
      svg("path", { d: "M87 44 C91 42 95 44 95 48 C95 52 92 54 89.5 54 Z" }),
      svg("rect", { x: 35.5, y: 62, width: 7, height: 33, rx: 3.5 }),
      svg("rect", { x: 45.5, y: 63, width: 7, height: 32, rx: 3.5 }),
      svg("rect", { x: 70, y: 63, width: 7, height: 32, rx: 3.5 }),
      svg("rect", { x: 80, y: 62, width: 7, height: 33, rx: 3.5 }),
    ),
    svg("circle", { cx: 35.5, cy: 19.5, r: 2, fill: "var(--llama-eye, #fff)" }),
  );
}

/** What each rank left in hand costs: "3" costs 3, the llamas 10 — or 20 with the pink llama among them. */
function costs(cards) {
  const ranks = [...new Set(cards.map(rankOf))].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  const llamas = cards.includes(PINK) ? 20 : 10;
  return ranks.map((rank) => (rank === LLAMA ? llamas : Number(rank)));
}

/** The penalty of a hand: each distinct number once (a plus card is its number), any llamas 10, 20 with the
 * pink llama. */
export function penalty(cards) {
  return costs(cards).reduce((sum, cost) => sum + cost, 0);
}

/** How a hand's penalty adds up: "3 + 4 + 10" (each number once, the llamas 10), or null for one value. */
function breakdown(cards) {
  const parts = costs(cards);
  if (parts.length < 2) return null;
  return h("span", { class: "breakdown" }, parts.join(" + "));
}

/** The ranks that may follow `top`: its rank's and the next (6 → llama → 1). */
function followers(top) {
  const index = ORDER.indexOf(rankOf(top));
  return [ORDER[index], ORDER[(index + 1) % ORDER.length]];
}

function cardName(ctx, card) {
  if (card === PINK) return ctx.t("lama.card.pink");
  if (isPlus(card)) return ctx.t("lama.card.plus", { n: rankOf(card) });
  return card === LLAMA ? ctx.t("lama.card.llama") : card;
}

/** A card face (a <button> when it can be clicked). A plus card is its number's card with a "+" badge; the pink
 * llama is a llama drawn in pink. */
function cardFace(ctx, card, { size = "", playable = false, onclick = null, label = null } = {}) {
  const rank = rankOf(card);
  const llama = rank === LLAMA;
  const inner = [
    h("span", { class: "corner tl", "aria-hidden": "true" }, card),
    llama
      ? h("span", { class: "face-art" }, llamaSvg())
      : h("span", { class: "face-num", "aria-hidden": "true" }, rank, isPlus(card) ? h("span", { class: "plus-mark" }, "+") : null),
    h("span", { class: "corner br", "aria-hidden": "true" }, card),
  ];
  const kind = card === PINK ? " vP pink" : isPlus(card) ? " plus" : "";
  const attrs = {
    class: `card face v${rank}${kind} ${size}${playable ? " playable" : ""}`,
    dataset: { card },
    "aria-label": label || cardName(ctx, card),
    title: label || cardName(ctx, card),
  };
  if (onclick) {
    const button = h("button", { ...attrs, type: "button" }, inner);
    button.addEventListener("click", onclick);
    return button;
  }
  return h("span", { ...attrs, role: "img" }, inner);
}

function cardBack(extraClass = "") {
  return h("span", { class: `card back ${extraClass}`, "aria-hidden": "true" }, h("span", { class: "back-art" }, llamaSvg()));
}

/** A token chip: white (1 point), black (10 points) or pink (20, Party Edition), drawn with a ring so they read
 * without colour. */
function chip(kind) {
  return svg(
    "svg",
    { viewBox: "0 0 20 20", class: `chip chip-${kind}`, "aria-hidden": "true" },
    svg("circle", { cx: 10, cy: 10, r: 9 }),
    svg("circle", { cx: 10, cy: 10, r: 5.5, class: "chip-ring" }),
  );
}

function tokens(ctx, held, score) {
  const party = held.pink !== undefined; // only the Party Edition's tokens count pinks
  const counts = { pink: held.pink, black: held.black, white: held.white, points: score };
  const label = ctx.t(party ? "lama.tokens_label_party" : "lama.tokens_label", counts);
  return h(
    "span",
    { class: "tokens", title: label, "aria-label": label, role: "img" },
    party ? h("span", { class: "token-count", dataset: { testid: "pink-tokens" } }, chip("pink"), h("span", {}, `×${held.pink}`)) : null,
    h("span", { class: "token-count" }, chip("black"), h("span", {}, `×${held.black}`)),
    h("span", { class: "token-count" }, chip("white"), h("span", {}, `×${held.white}`)),
    held.owed ? h("span", { class: "owed" }, ctx.t("lama.owed", { n: held.owed })) : null,
    h("span", { class: "points" }, ctx.t("lama.points", { n: score })),
  );
}

const LAST_MOVE_MS = 4000; // how long an opponent's last move stays on their box
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");

export function createTable(root, ctx) {
  const t = ctx.t;
  let last = null;
  let lastRoundShown = null;
  let topKey = null;
  const lastMoves = new Map(); // seat -> {words, at}: each opponent's latest move, shown on their box a while

  const els = {
    info: h("div", { class: "lama-info" }),
    opponents: h("div", { class: "opponents", dataset: { testid: "opponents" } }),
    draw: h("div", { class: "pile draw-pile" }),
    discard: h("div", { class: "pile discard-pile" }),
    prompt: h("div", { class: "prompt", "aria-live": "polite" }),
    me: h("section", { class: "me-area" }),
    result: h("section", { class: "round-result panel", hidden: true, dataset: { testid: "round-result" } }),
    pause: h("section", { class: "round-panel panel", hidden: true, role: "dialog", "aria-labelledby": "round-panel-title", "aria-live": "polite", dataset: { testid: "round-panel" } }),
  };
  let pauseTimer = null;
  const board = h(
    "div",
    { class: "lama" },
    els.info,
    els.opponents,
    h("div", { class: "felt center" }, els.draw, els.discard, els.prompt),
    els.me,
    els.result,
    els.pause,
  );
  root.append(board);

  function legalPlays(message) {
    const plays = new Set();
    for (const action of message.legal_actions || []) if (action.startsWith("play ")) plays.add(action.slice(5));
    return plays;
  }

  function can(message, action) {
    return (message.legal_actions || []).includes(action);
  }

  async function askQuit() {
    const obs = last.observation;
    const points = penalty(obs.hand || []);
    const yes = await ctx.confirm({
      title: t("lama.quit_title"),
      text: t("lama.quit_text", { n: points }),
      yes: t("lama.quit_yes"),
      no: t("common.cancel"),
      danger: true,
    });
    if (yes && last && can(last, "quit")) ctx.send("quit");
  }

  function drawInfo(message) {
    const obs = message.observation;
    const party = obs.options.edition === "party";
    replace(
      els.info,
      h("span", { class: "round", dataset: { testid: "round" } }, t("lama.round", { n: obs.round })),
      party ? h("span", { class: "badge party-badge", dataset: { testid: "edition" } }, t("lama.party_edition")) : null,
      h("span", { class: "muted" }, t("lama.ends_at", { n: obs.options.end_score })),
      h("span", { class: "hint muted" }, t("lama.hint")),
      party ? h("span", { class: "hint muted" }, t("lama.party_hint")) : null,
    );
  }

  /** Whether the player to move takes another turn: they have just played a plus card (Party Edition). */
  function anotherTurn(obs) {
    const pile = obs.discard_pile || [];
    return !obs.is_over && pile.length > 1 && isPlus(obs.top_card) && obs.last_player === obs.current_player;
  }

  function seatBadge(seat, obs, message) {
    const current = !obs.is_over && obs.current_player === seat && message.table.status === "running" && !roundPaused(message.table);
    const quit = obs.quit[seat];
    return { current, quit };
  }

  function drawOpponents(message) {
    const obs = message.observation;
    const me = message.seat;
    const n = obs.num_players;
    const order = [];
    for (let step = 1; step <= n; step += 1) {
      const seat = me === null || me === undefined ? step - 1 : (me + step) % n;
      if (seat !== me) order.push(seat);
    }
    replace(
      els.opponents,
      order.map((seat) => {
        const { current, quit } = seatBadge(seat, obs, message);
        const waiting = message.table.status === "open"; // nothing is dealt until everyone sits down
        const count = obs.hand_sizes[seat];
        const shown = message.open && message.open[seat] ? message.open[seat].hand : null; // a replay, every hand open
        const backs = waiting || shown ? 0 : Math.min(count, 6);
        return h(
          "div",
          { class: `opponent${current ? " current" : ""}${quit ? " quit" : ""}`, dataset: { seat, testid: "opponent" } },
          h(
            "div",
            { class: "opp-head" },
            h("span", { class: "turn-mark", "aria-hidden": "true" }, current ? "▶" : ""),
            h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat % 8})` } }),
            h("span", { class: "opp-name" }, ctx.playerName(seat)),
            current ? h("span", { class: "badge turn-badge" }, t("lama.turn_badge")) : null,
            quit ? h("span", { class: "badge quit-badge", dataset: { testid: "quit-badge" } }, "⏏ ", t("lama.quit_badge")) : null,
            clockBadge(message.table, seat),
          ),
          h(
            "div",
            { class: "opp-cards", title: t("lama.cards_count", { n: count }) },
            shown
              ? h("span", { class: "opp-open-hand", dataset: { testid: "open-hand" } }, shown.map((card) => cardFace(ctx, card, { size: "tiny" })))
              : h("span", { class: "mini-backs" }, Array.from({ length: backs }, () => cardBack("mini"))),
            h("span", { class: "count", dataset: { testid: "card-count" } }, waiting ? t("lama.not_dealt") : t("lama.cards_count", { n: count })),
          ),
          tokens(ctx, obs.tokens[seat], obs.scores[seat]),
          lastMoveNote(seat),
        );
      }),
    );
  }

  /** The seat's latest move, for a few seconds after it (the fade goes on across redraws). */
  function lastMoveNote(seat) {
    const move = lastMoves.get(seat);
    const age = move ? Date.now() - move.at : Infinity;
    if (age >= LAST_MOVE_MS) return null;
    return h("div", { class: "last-move", dataset: { testid: "last-move" }, style: { "animation-delay": `-${age}ms` } }, move.words);
  }

  /** The acts of the log that are newer than the message shown before this one. */
  function newActs(message, previous) {
    if (!previous || previous.table.status === "open") return [];
    return (message.log || []).filter((entry) => entry.type === "act" && entry.seq > previous.seq);
  }

  function remember(acts, me) {
    for (const entry of acts) {
      if (entry.seat === me) continue;
      lastMoves.set(entry.seat, { words: describe(entry.action ?? ""), at: Date.now() });
      setTimeout(() => {
        if (last) drawOpponents(last);
      }, LAST_MOVE_MS + 50);
    }
  }

  /** Where a seat's cards are on the page: your hand, or the opponent's box. */
  function handOf(seat, me) {
    if (seat === me) return els.me.querySelector("[data-testid=hand]") || els.me;
    return els.opponents.querySelector(`[data-seat="${seat}"] .opp-cards`) || els.opponents;
  }

  /** A card flying from one place to another (played: from the hand to the pile; drawn: from the pile). */
  function fly(card, from, to) {
    const flyer = card ? cardFace(ctx, card, { size: "big" }) : cardBack("flying-back");
    flyer.classList.add("flying-card");
    if (flights.fly(flyer, from, to)) board.dataset.flights = String(Number(board.dataset.flights || 0) + 1);
  }

  const flights = new Flights(); // the cards in the air

  function flyActs(acts, me) {
    flights.land(); // a newer state: the cards before it have landed
    for (const entry of acts) {
      const found = /^play (\S+)$/.exec(entry.action ?? "");
      const top = els.discard.querySelector(".discard-stack");
      const pile = els.draw.querySelector("[data-testid=draw-pile]");
      if (found) fly(found[1], handOf(entry.seat, me), top);
      else if (entry.action === "draw") fly(null, pile, handOf(entry.seat, me));
    }
  }

  /** At your turn, bring your hand and your buttons into view if they are below the fold (a phone). */
  function showHand() {
    const box = els.me.getBoundingClientRect();
    if (box.bottom > window.innerHeight) els.me.scrollIntoView({ block: "end", behavior: STILL.matches ? "auto" : "smooth" });
  }

  function describe(text) {
    if (text === "draw") return t("lama.log.draw");
    if (text === "quit") return t("lama.log.quit");
    const found = /^play (\S+)$/.exec(text);
    if (found && found[1] === PINK) return t("lama.log.play_pink");
    if (found && isPlus(found[1])) return t("lama.log.play_plus", { card: found[1] });
    if (found) return found[1] === LLAMA ? t("lama.log.play_llama") : t("lama.log.play", { card: found[1] });
    return null;
  }

  function drawPiles(message) {
    const obs = message.observation;
    const canDraw = can(message, "draw");
    const drawButton = h(
      "button",
      {
        type: "button",
        class: `stack${canDraw ? " can-draw" : ""}`,
        disabled: !canDraw,
        dataset: { action: "draw", testid: "draw-pile" },
        "aria-label": t("lama.draw_label", { n: obs.draw_pile_count }),
        title: canDraw ? t("lama.draw_label", { n: obs.draw_pile_count }) : t("lama.draw_pile", { n: obs.draw_pile_count }),
      },
      obs.draw_pile_count > 2 ? cardBack("under2") : null,
      obs.draw_pile_count > 1 ? cardBack("under1") : null,
      obs.draw_pile_count > 0 ? cardBack("top") : h("span", { class: "card empty-slot" }, t("lama.empty")),
      canDraw ? h("span", { class: "stack-cta" }, t("lama.draw")) : null,
    );
    drawButton.addEventListener("click", () => {
      if (last && can(last, "draw")) ctx.send("draw");
    });
    replace(
      els.draw,
      drawButton,
      h("div", { class: "pile-label" }, h("strong", {}, t("lama.draw_pile_title")), " ", h("span", { class: "pile-count", dataset: { testid: "draw-count" } }, String(obs.draw_pile_count))),
    );

    if (message.table.status === "open") {
      replace(
        els.discard,
        h("div", { class: "discard-stack", dataset: { testid: "discard" } }, h("span", { class: "card big empty-slot" }, t("lama.not_dealt"))),
        h("div", { class: "pile-label" }, h("strong", {}, t("lama.discard_title"))),
      );
      return;
    }
    const pile = obs.discard_pile || [obs.top_card];
    const under = pile.slice(-3, -1);
    const key = `${obs.round}:${pile.length}`;
    const changed = topKey !== null && key !== topKey;
    topKey = key;
    const top = cardFace(ctx, obs.top_card, { size: "big", label: t("lama.top_card", { card: cardName(ctx, obs.top_card) }) });
    if (changed) top.classList.add("arrived");
    const [same, next] = followers(obs.top_card);
    replace(
      els.discard,
      h(
        "div",
        { class: "discard-stack", dataset: { testid: "discard", top: obs.top_card } },
        under.map((card, index) => {
          const face = cardFace(ctx, card, { size: "big" });
          face.classList.add(`under-${under.length - index}`);
          face.setAttribute("aria-hidden", "true");
          return face;
        }),
        top,
      ),
      h("div", { class: "pile-label" }, h("strong", {}, t("lama.discard_title")), " ", h("span", { class: "muted" }, t("lama.next_cards", { a: cardName(ctx, same), b: cardName(ctx, next) }))),
    );
  }

  /** Whether a person's seat has no connection (and no bot plays it): nobody is playing there. */
  function offline(message, seat) {
    const info = message.table.seats[seat];
    return Boolean(info && info.kind === "human" && info.joined && !info.connected && !info.handed);
  }

  function drawPrompt(message) {
    const obs = message.observation;
    let text;
    let cls = "prompt";
    if (message.table.status === "open") text = t("lama.prompt_open");
    else if (obs.is_over) text = t("lama.prompt_over");
    else if (roundPaused(message.table)) text = t("table.round_pause");
    else if (message.your_turn) {
      const plays = legalPlays(message);
      text = plays.size ? t("lama.prompt_play") : can(message, "draw") ? t("lama.prompt_cannot_play") : t("lama.prompt_must_quit");
      if (anotherTurn(obs)) text = `${t("lama.prompt_again", { card: obs.top_card })} ${text}`;
      cls += " mine";
    } else if (message.seat !== null && message.seat !== undefined && obs.quit[message.seat]) text = t("lama.prompt_you_quit");
    else if (anotherTurn(obs)) text = t("lama.prompt_wait_again", { name: ctx.playerName(obs.current_player), card: obs.top_card });
    else if (offline(message, obs.current_player)) text = t("absent.offline", { name: ctx.playerName(obs.current_player) });
    else text = t("lama.prompt_wait", { name: ctx.playerName(obs.current_player) });
    els.prompt.dataset.again = anotherTurn(obs) ? "true" : "false";
    els.prompt.className = cls;
    els.prompt.textContent = text;
  }

  /** ← and → (Home, End) move the keyboard from card to card in the hand, as Tab and Shift+Tab do. */
  function moveInHand(event) {
    const steps = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
    const cards = [...event.currentTarget.querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    const step = steps[event.key];
    const next = Number.isFinite(step) ? Math.max(0, Math.min(cards.length - 1, at + step)) : step < 0 ? 0 : cards.length - 1;
    cards[next].focus();
  }

  function drawMe(message) {
    const obs = message.observation;
    const seat = message.seat;
    if (seat === null || seat === undefined) {
      replace(els.me, h("p", { class: "muted watching-note" }, t("lama.watching")));
      els.me.className = "me-area watching";
      return;
    }
    const plays = legalPlays(message);
    const mine = message.your_turn;
    const quit = obs.quit[seat];
    const current = mine;
    const waiting = message.table.status === "open"; // your cards are yours once everyone sits down
    const hand = waiting ? [] : obs.hand || [];
    const cards = hand.map((card) => {
      const playable = mine && plays.has(card);
      if (!playable) {
        // a button all the same, that the keyboard stays in the hand between turns; it plays nothing now
        const face = cardFace(ctx, card, { onclick: () => {} });
        face.setAttribute("aria-disabled", "true");
        if (mine) face.classList.add("dim");
        return face;
      }
      return cardFace(ctx, card, {
        playable,
        label: t("lama.play_label", { card: cardName(ctx, card) }),
        onclick: () => {
          if (last && can(last, `play ${card}`)) ctx.send(`play ${card}`);
        },
      });
    });
    const drawBtn = h("button", { type: "button", disabled: !can(message, "draw"), dataset: { action: "draw-button" } }, t("lama.draw"));
    drawBtn.addEventListener("click", () => {
      if (last && can(last, "draw")) ctx.send("draw");
    });
    const quitBtn = h("button", { type: "button", class: "danger", disabled: !can(message, "quit"), dataset: { action: "quit", testid: "quit" } }, t("lama.quit"));
    quitBtn.addEventListener("click", askQuit);
    els.me.className = `me-area${current ? " current" : ""}${quit ? " quit" : ""}${mine ? " my-turn" : ""}`;
    replace(
      els.me,
      h(
        "div",
        { class: "me-head" },
        h("span", { class: "turn-mark", "aria-hidden": "true" }, current ? "▶" : ""),
        h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat % 8})` } }),
        h("strong", {}, ctx.playerName(seat)),
        waiting ? null : h("span", { class: "muted" }, t("lama.your_hand", { n: hand.length, points: penalty(hand) })),
        quit ? h("span", { class: "badge quit-badge" }, "⏏ ", t("lama.quit_badge")) : null,
        h("span", { class: "spacer" }),
        clockBadge(message.table, seat),
        tokens(ctx, obs.tokens[seat], obs.scores[seat]),
      ),
      h("div", { class: `hand${quit ? " laid-down" : ""}`, role: "group", "aria-label": t("lama.hand_label"), dataset: { testid: "hand" }, onkeydown: moveInHand }, cards.length ? cards : h("span", { class: "muted" }, t(waiting ? "lama.prompt_open" : "lama.no_cards"))),
      obs.is_over || waiting ? null : h("div", { class: "me-actions" }, drawBtn, quitBtn),
    );
  }

  /** The table of a round's end: each player's cards left, penalty and total (and tokens, in the pause). */
  function resultTable(message, result, withTokens) {
    const obs = message.observation;
    const n = result.scores.length;
    const rows = [];
    for (let seat = 0; seat < n; seat += 1) {
      const emptied = result.emptied === seat;
      rows.push(
        h(
          "tr",
          { class: `${emptied ? "emptied" : ""}${seat === message.seat ? " me" : ""}`, dataset: { seat } },
          h(
            "th",
            { scope: "row" },
            h("span", { class: "seat-dot", style: { "--seat-color": `var(--seat-${seat % 8})` } }),
            " ",
            ctx.playerName(seat),
            withTokens && ((message.table.clock || {}).ready || []).includes(seat) ? h("span", { class: "badge ready-badge", dataset: { testid: "ready-badge" } }, "✓ ", t("round.ready")) : null,
          ),
          h(
            "td",
            { class: "left-cards" },
            result.hands[seat].length
              ? result.hands[seat].map((card) => cardFace(ctx, card, { size: "tiny" }))
              : h("span", { class: "emptied-note" }, "✓ ", t("lama.result_emptied")),
          ),
          h(
            "td",
            { class: "num" },
            emptied && result.returned
              ? h("span", { class: "returned" }, t("lama.result_returned", { n: result.returned }))
              : [`+${result.penalties[seat]}`, breakdown(result.hands[seat])],
          ),
          h("td", { class: "num total" }, String(result.scores[seat])),
          withTokens ? h("td", { class: "round-tokens" }, tokens(ctx, obs.tokens[seat], obs.scores[seat])) : null,
        ),
      );
    }
    return h(
      "div",
      { class: "table-scroll", tabindex: "0", "aria-label": t("lama.result_table") }, // scrolled by keys on a phone
      h(
        "table",
        { class: "result-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("lama.result_player")),
            h("th", {}, t("lama.result_cards")),
            h("th", { class: "num" }, t("lama.result_penalty")),
            h("th", { class: "num" }, t("lama.result_total")),
            withTokens ? h("th", {}, t("round.tokens")) : null,
          ),
        ),
        h("tbody", {}, rows),
      ),
    );
  }

  function endedByText(result) {
    return result.emptied !== null ? t("lama.result_by_empty", { name: ctx.playerName(result.emptied) }) : t("lama.result_by_quit");
  }

  function drawResult(message) {
    const result = message.observation.last_round;
    if (!result) {
      els.result.hidden = true;
      return;
    }
    const fresh = lastRoundShown !== null && lastRoundShown !== result.round;
    lastRoundShown = result.round;
    const endedBy = endedByText(result);
    replace(els.result, h("h2", {}, t("lama.result_title", { n: result.round })), h("p", { class: "muted small" }, endedBy), resultTable(message, result, false));
    els.result.hidden = false;
    if (fresh) {
      els.result.classList.remove("flash");
      void els.result.offsetWidth;
      els.result.classList.add("flash");
    }
  }

  function startsIn(until) {
    const [before, after = ""] = t("round.starts_in", { time: "\u0000" }).split("\u0000");
    return [before, countdown(until), after];
  }

  /** The pause at a round's end (clock.paused_until): the round's scores in view, "Next round" and a countdown. */
  function drawPause(message) {
    clearTimeout(pauseTimer);
    const clock = message.table.clock || {};
    const result = message.observation.last_round;
    const until = clock.paused_until;
    const left = typeof until === "number" ? until - serverNow() : 0;
    if (!result || message.table.status !== "running" || left <= 0) {
      els.pause.hidden = true;
      board.classList.remove("paused");
      return;
    }
    const seat = message.seat;
    const seated = seat !== null && seat !== undefined;
    const ready = (clock.ready || []).includes(seat);
    const next = h("button", { type: "button", class: "primary", disabled: ready, dataset: { testid: "next-round" } }, t("round.next"));
    next.addEventListener("click", () => {
      if (ctx.ready()) next.disabled = true;
    });
    replace(
      els.pause,
      h("h2", { id: "round-panel-title" }, t("round.title", { n: result.round })),
      h("p", { class: "muted small" }, endedByText(result)),
      resultTable(message, result, true),
      h(
        "div",
        { class: "round-actions" },
        seated ? next : null,
        seated && ready ? h("span", { class: "muted small", dataset: { testid: "ready-note" } }, t("round.waiting")) : null,
        h("span", { class: "spacer" }),
        h("span", { class: "muted round-countdown" }, ...startsIn(until)),
      ),
    );
    els.pause.hidden = false;
    board.classList.add("paused");
    pauseTimer = setTimeout(() => drawPause(message), Math.max(50, left * 1000 + 100)); // closes once it is over
  }

  return {
    update(message) {
      const previous = last;
      last = message;
      if (!message.observation) return;
      const acts = newActs(message, previous);
      remember(acts, message.seat);
      drawInfo(message);
      drawOpponents(message);
      drawPiles(message);
      drawPrompt(message);
      drawMe(message);
      drawResult(message);
      drawPause(message);
      board.classList.toggle("my-turn", Boolean(message.your_turn));
      flyActs(acts, message.seat);
      if (message.your_turn && !(previous && previous.your_turn)) showHand();
    },
    destroy() {
      clearTimeout(pauseTimer);
      board.remove();
    },
    describeAction: describe,
  };
}
