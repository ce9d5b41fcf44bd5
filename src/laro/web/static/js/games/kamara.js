// The Kamara table: the chamber in SVG with clickable targets, the setup steps, the actions, green-card effects
// with their targets, order/keep decisions, your cards and every player's matches.
//
// table.js loads this module and calls createTable(root, ctx) -> {update(message), destroy(), describeAction()};
// every action sent is one of message.legal_actions (a click that names no legal action is answered in words).
// The parts: kamara/geometry.js (the chamber as the engine defines it), kamara/board.js (the SVG), kamara/targets.js
// (what a click on the chamber means), kamara/panel.js (everything around it), kamara/dom.js (small helpers).

import { Flights } from "../motion.js";
import { Board } from "./kamara/board.js";
import { ARROWS, el, fill } from "./kamara/dom.js";
import { CENTRE, COLOURS, DIRECTIONS, OUTWARD, SLOTS, SLOT_KIND, chamberLayout, neighbour, readCode, readTiles, squareIndex } from "./kamara/geometry.js";
import { panelMethods } from "./kamara/panel.js";
import { boardMethods } from "./kamara/targets.js";
import { diwaWalks } from "./kamara/walks.js";
import EN from "../i18n/kamara.en.js";

const TOUCH = window.matchMedia("(pointer: coarse)"); // a touch screen: the hints say tap, not click
const LAST_MOVE_MS = 4000; // how long an opponent's latest action stays on their box

function ensureStyles() {
  // table.js loads css/kamara.css itself; this covers a page that does not
  if (document.querySelector('link[data-kamara-css], link[href$="/css/kamara.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../../css/kamara.css", import.meta.url).href;
  link.dataset.kamaraCss = "";
  document.head.append(link);
}

export function createTable(root, ctx) {
  ensureStyles();
  const table = new KamaraTable(root, ctx);
  return {
    update: (message) => table.update(message),
    destroy: () => table.destroy(),
    describeAction: (text, seat) => table.describeAction(text, seat),
    seatColour: (seat) => table.seatColour(seat),
  };
}

/** Whether `message` shows its seat acting on its turn: its turn, and no decision asked of it first. */
function actsNow(message) {
  return Boolean(message && message.your_turn && !(message.observation && message.observation.pending));
}

/** Whether the seat's turn begins with `message`: it acts now and did not at `previous`, or it did in another
 * phase or round (the setup's last placing was its own, and so is play's first turn), or in a turn before this
 * one (its actions are counted afresh). */
function turnBegins(message, previous) {
  if (!actsNow(message)) return false;
  if (!actsNow(previous)) return true;
  const now = message.observation;
  const before = previous.observation;
  return now.phase !== before.phase || now.round !== before.round || now.actions_left > before.actions_left;
}

class KamaraTable {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.flights = new Flights(); // a matched card on its way to its owner
    this.message = null;
    this.mode = null; // a green effect waiting for its targets
    this.pick = {}; // setup choices: tile, slot, face, rotation; diwa colour; poke colour
    this.signature = "";
    this.notice = "";
    this.busy = false;
    this.orderDraft = null;
    this.lastMoves = new Map(); // seat -> {words, at}: each opponent's latest action, shown on their box a while
    this.lastMoveTimer = null;
    this.setComponents(ctx.components);
    this.dom = {
      status: el("div", { class: "k-status" }),
      boardWrap: el("div", { class: "k-boardwrap" }),
      hint: el("div", { class: "k-hint", "aria-live": "polite" }),
      controls: el("section", { class: "k-controls" }),
      cards: el("section", { class: "k-mycards" }),
      players: el("section", { class: "k-players" }),
      legend: el("details", { class: "k-legend" }),
    };
    this.node = el(
      "div",
      { class: "kamara" },
      el(
        "div",
        { class: "k-layout" },
        el("div", { class: "k-main" }, this.dom.status, this.dom.boardWrap, this.dom.hint, this.dom.legend),
        el("div", { class: "k-side" }, this.dom.controls, this.dom.cards, this.dom.players),
      ),
    );
    root.append(this.node);
    this.board = new Board(this.dom.boardWrap, (at) => this.onBoard(at));
    this.board.onHover = (square) => this.previewFlip(square === null ? null : this.layout().paltik.get(square)?.slot ?? null);
    this.flipShown = null; // the slot whose other face is drawn on the chamber while the pointer rests on it
    if (!ctx.components || !ctx.components.tiles) {
      fetch("/api/games/kamara/components")
        .then((response) => response.json())
        .then((data) => {
          if (!this.components || !this.components.tiles) {
            this.setComponents(data.components);
            if (this.message) this.render();
          }
        })
        .catch(() => {});
    }
  }

  // -- words -------------------------------------------------------------------------------------------------

  t(key, params = {}) {
    let text = null;
    try {
      text = this.ctx.t ? this.ctx.t(key, params) : null;
    } catch {
      text = null;
    }
    if (typeof text !== "string" || text === key || text === "") text = fill(EN[key] ?? key, params);
    if (TOUCH.matches) text = text.replace(/\bClick\b/g, "Tap").replace(/\bclick\b/g, "tap"); // a finger taps
    return text;
  }

  has(key) {
    const text = this.t(key);
    return text !== key;
  }

  name(seat) {
    let name = null;
    if (typeof this.ctx.playerName === "function") {
      try {
        name = this.ctx.playerName(seat);
      } catch {
        name = null;
      }
    }
    if (!name) {
      const seats = (this.message && this.message.table && this.message.table.seats) || [];
      const found = seats.find((s) => s.seat === seat);
      name = (found && found.name) || this.t("kamara.seat", { seat: seat + 1 });
    }
    return seat === this.seat ? this.t("kamara.you_named", { name }) : name;
  }

  /** A player's colour on the whole page: their diwa's once chosen; neutral before (see table.js). */
  seatColour(seat) {
    const colour = this.message && (this.obs.colours || [])[seat];
    return colour ? `var(--diwa-${colour})` : "var(--muted)";
  }

  /** The log's words for one public action text, without the player's name (see table.js). */
  describeAction(text, seat) {
    void seat;
    const words = String(text).trim().split(/\s+/);
    const [verb, ...args] = words;
    const colour = (name) => (COLOURS.includes(name) ? this.colourName(name) : name);
    switch (verb) {
      case "place": {
        const [id, slot, face, rotation] = args;
        const tile = this.tiles.get(id);
        if (rotation !== undefined) {
          const turns = Number(rotation) / 90;
          return this.t("kamara.log.place_centre", { tile: this.tileName(id), slot, face, dir: this.t(`kamara.point.${turns}`), arrow: ARROWS[turns] || "" });
        }
        const state = tile ? tile.faces[face === "B" ? 1 : 0].paltik : null;
        return this.t("kamara.log.place", { tile: this.tileName(id), slot, face, state: state ? this.t(`kamara.${state}`) : "" });
      }
      case "diwa":
        return this.t("kamara.log.diwa", { colour: colour(args[0]), square: args[1] });
      case "move":
        return this.t("kamara.log.move", { dir: args[0] });
      case "port":
        return this.t("kamara.log.port", { square: args[0] });
      case "poke":
        return this.t("kamara.log.poke", { colour: colour(args[0]), square: args[1] });
      case "order":
      case "keep": // the table is told only the word; the cards are named to their owner (an analysis, a replay)
        return args.length ? this.t(`kamara.log.${verb}_cards`, { cards: args.join(" ") }) : this.t(`kamara.log.${verb}`);
      case "flip":
      case "match":
      case "exchange":
      case "end":
        return this.t(`kamara.log.${verb}`);
      case "play": {
        const [effect, ...rest] = args;
        if (effect === "ignore") return this.t("kamara.log.ignore");
        const params = { effect: this.effectName(effect) };
        if (effect === "pitik" || effect === "kandado") params.slot = rest[0];
        else if (effect === "ikot") params.way = this.t(`kamara.log.${rest[0]}`);
        else if (effect === "palitan") [params.a, params.b] = rest;
        else if (effect === "tulak") [params.colour, params.steps] = [colour(rest[0]), rest.slice(1).join(" ")];
        else if (effect === "tawag") params.square = rest[0];
        else if (effect === "lipat") params.colour = colour(rest[0]);
        else if (effect === "tagos") params.dir = rest[0];
        const key = `kamara.log.play.${effect}`;
        return this.has(key) ? this.t(key, params) : null;
      }
      default:
        return null;
    }
  }

  colourName(colour) {
    return this.t(`kamara.colour.${colour}`);
  }

  tileName(id) {
    const key = `kamara.tile.${id}`;
    return this.has(key) ? this.t(key) : id;
  }

  effectName(effect) {
    const key = `kamara.effect.${effect}`;
    if (this.has(key)) return this.t(key);
    return (this.green.get(effect) || {}).name || effect;
  }

  effectText(effect) {
    const key = `kamara.effect.${effect}.text`;
    if (this.has(key)) return this.t(key);
    return (this.green.get(effect) || {}).text || "";
  }

  // -- data --------------------------------------------------------------------------------------------------

  setComponents(components) {
    this.components = components || null;
    this.tiles = readTiles(components && components.tiles);
    this.codes = new Map(((components && components.yellow_cards && components.yellow_cards.cards) || []).map((c) => [c.id, c.code]));
    this.green = new Map(((components && components.green_cards && components.green_cards.cards) || []).map((c) => [c.effect, c]));
  }

  get obs() {
    return (this.message && this.message.observation) || {};
  }

  get seat() {
    const seat = this.message ? this.message.seat : this.ctx.seat;
    return seat === undefined ? null : seat;
  }

  get legal() {
    return new Set((this.message && this.message.legal_actions) || []);
  }

  get myTurn() {
    return Boolean(this.message && this.message.your_turn);
  }

  /** Whether the table still waits for a person to sit down: nothing is dealt and it is nobody's turn yet. */
  get waiting() {
    return Boolean(this.message && this.message.table && this.message.table.status === "open");
  }

  get myColour() {
    return this.seat === null ? null : (this.obs.colours || [])[this.seat] || null;
  }

  get mySquare() {
    const colour = this.myColour;
    return colour && this.obs.diwa && this.obs.diwa[colour] ? squareIndex(this.obs.diwa[colour]) : -1;
  }

  diwaAt() {
    const map = new Map();
    for (const [colour, square] of Object.entries(this.obs.diwa || {})) map.set(squareIndex(square), colour);
    return map;
  }

  seatOfColour(colour) {
    return (this.obs.colours || []).indexOf(colour);
  }

  // -- updates -----------------------------------------------------------------------------------------------

  update(message) {
    if (!message || !message.observation) return;
    if (message.observation.options && message.observation.options.tiles && !this.ownTiles) {
      this.ownTiles = true;
      const own = message.observation.options;
      this.setComponents({
        tiles: own.tiles,
        yellow_cards: own.yellow_cards || (this.components && this.components.yellow_cards),
        green_cards: own.green_cards || (this.components && this.components.green_cards),
      });
    }
    const previous = this.message;
    this.message = message;
    this.rememberMoves(message, previous);
    const obs = message.observation;
    const signature = [obs.phase, obs.current_player, obs.actions_left, (obs.pool || []).length, JSON.stringify(obs.pending), obs.round, JSON.stringify(obs.diwa), JSON.stringify(obs.tiles), message.your_turn].join("|");
    if (signature !== this.signature) {
      this.signature = signature;
      this.flipShown = null; // a new state: the pointer must come onto the paltik again
      this.board.hovered = null;
      this.mode = null;
      this.pick = this.keepSetupPick(previous);
      this.notice = "";
      this.orderDraft = null;
    }
    this.busy = false;
    clearTimeout(this.busyTimer);
    this.flights.land(); // a newer state: what flew before it has landed
    this.board.land(); // and every diwa still walking stands where it went
    this.render();
    this.board.walk(this.walks(message, previous));
    this.flyMatches(message, previous);
    if (this.board.narrow && turnBegins(message, previous)) this.showTurn();
  }

  /** A yellow card matched since the message before flies from its owner's diwa to their matched cards. */
  flyMatches(message, previous) {
    if (!previous || !previous.table || previous.table.status === "open") return;
    const obs = message.observation;
    for (const entry of message.log || []) {
      if (entry.type !== "act" || entry.seq <= previous.seq || entry.action !== "match") continue;
      const colour = (obs.colours || [])[entry.seat];
      const cards = this.root.querySelectorAll(`.k-player[data-seat="${entry.seat}"] .k-matched-card`);
      const card = cards[cards.length - 1];
      if (!card) continue;
      const copy = card.cloneNode(true);
      copy.classList.add("k-flying-card");
      this.flights.fly(copy, this.board.svg.querySelector(`.k-piece[data-colour="${colour}"]`), card, { duration: 350 });
    }
  }

  /** The way each diwa went since the message before, when the log holds every event in between; else none. */
  walks(message, previous) {
    if (!previous || !previous.table || previous.table.status === "open" || !(message.seq > previous.seq)) return new Map();
    const since = (message.log || []).filter((entry) => entry.seq > previous.seq && entry.seq <= message.seq);
    if (since.length !== message.seq - previous.seq) return new Map(); // a jump (a replay's slider, a reconnection)
    const acts = since.filter((entry) => entry.type === "act");
    const obs = message.observation;
    return diwaWalks(acts, previous.observation.diwa, obs.diwa, obs.colours);
  }

  /** On a phone, at the start of your turn (or as it goes on after a decision that began it): your actions at the
   * top, the chamber and your cards below them. */
  showTurn() {
    // at once, once the page is laid out: a smooth scroll could be overtaken by one still running
    requestAnimationFrame(() => this.dom.status.scrollIntoView({ block: "start", behavior: "auto" }));
  }

  /** Each opponent's newest action of the log since the message shown before (none on the first one). */
  rememberMoves(message, previous) {
    if (!previous || !previous.table || previous.table.status === "open") return;
    const acts = (message.log || []).filter((entry) => entry.type === "act" && entry.seq > previous.seq && entry.seat !== message.seat);
    for (const entry of acts) this.lastMoves.set(entry.seat, { words: this.describeAction(entry.action ?? "", entry.seat) || entry.action, at: Date.now() });
    if (!acts.length) return;
    clearTimeout(this.lastMoveTimer);
    this.lastMoveTimer = setTimeout(() => this.message && this.renderPlayers(), LAST_MOVE_MS + 50); // the note goes
  }

  /** The seat's latest action, for a few seconds after it (the fade goes on across redraws). */
  lastMoveNote(seat) {
    const move = this.lastMoves.get(seat);
    const age = move ? Date.now() - move.at : Infinity;
    if (age >= LAST_MOVE_MS) return null;
    const note = el("span", { class: "k-last-move", dataset: { testid: "last-move" } }, move.words);
    note.style.animationDelay = `-${age}ms`; // through the CSSOM: the page's policy allows no style attribute
    return note;
  }

  /** Draw the other face of the tile in ``slot`` on the chamber (a pointer on its paltik or on Flip), or stop. */
  previewFlip(slot) {
    const shown = this.obs.phase === "play" ? slot : null;
    if (shown === this.flipShown) return;
    this.flipShown = shown;
    if (this.message) this.renderBoard(this.layout());
  }

  keepSetupPick(previous) {
    // a half-made tile choice survives only if it is still possible
    const { tile, slot } = this.pick;
    if (!this.myTurn || !previous) return {};
    if (tile && (this.obs.pool || []).includes(tile) && (slot === undefined || !this.obs.tiles[SLOTS[slot]])) return { ...this.pick };
    return {};
  }

  destroy() {
    clearTimeout(this.busyTimer);
    clearTimeout(this.lastMoveTimer);
    this.board.destroy();
    this.node.remove();
  }

  act(text) {
    if (this.busy) return;
    if (!this.legal.has(text)) {
      this.say(this.t("kamara.why.not_now", { action: text }));
      return;
    }
    this.busy = true;
    this.node.dataset.busy = "true";
    this.busyTimer = setTimeout(() => {
      this.busy = false;
      this.node.dataset.busy = "false";
    }, 2500);
    this.notice = "";
    if (this.ctx.send(text) === false) {
      // not sent (offline, or an action for this state is already on its way)
      clearTimeout(this.busyTimer);
      this.busy = false;
      this.node.dataset.busy = "false";
    }
  }

  say(text) {
    this.notice = text;
    this.renderHint();
  }

  layout() {
    return chamberLayout(this.obs.tiles, this.tiles);
  }

  // -- rendering ---------------------------------------------------------------------------------------------

  render() {
    if (!this.message) return;
    const layout = this.layout();
    const data = this.node.dataset;
    data.phase = this.obs.phase || "";
    data.yourTurn = String(this.myTurn);
    data.seq = String(this.message.seq ?? "");
    data.busy = String(this.busy);
    data.mode = this.mode ? this.mode.effect : "";
    this.renderStatus();
    this.renderBoard(layout);
    this.renderHint();
    this.renderControls(layout);
    this.renderCards(layout);
    this.renderPlayers();
    this.renderLegend();
  }

  renderBoard(layout) {
    const obs = this.obs;
    const diwa = this.diwaAt();
    const locks = new Map(Object.entries(obs.locks || {}).map(([slot, seat]) => [SLOTS.indexOf(slot), (obs.colours || [])[seat] || null]));
    const current = obs.current_player === null || obs.current_player === undefined ? null : (obs.colours || [])[obs.current_player];
    let targets = new Map();
    let slotTargets = new Map();
    const selected = new Set();
    const selectedSlots = new Set();
    let ghost = null;
    const mine = this.myColour;
    if (this.myTurn && !this.busy) {
      if (obs.phase === "tiles") {
        const tile = this.pick.tile && this.tiles.get(this.pick.tile);
        if (tile && this.pick.slot === undefined) {
          SLOTS.forEach((name, slot) => {
            if (!obs.tiles[name] && SLOT_KIND[slot] === tile.kind) slotTargets.set(slot, { kind: "slot", label: this.t("kamara.target.slot", { tile: this.tileName(tile.id), slot: name }) });
          });
        } else if (!tile && this.pick.slot === undefined) {
          SLOTS.forEach((name, slot) => {
            if (!obs.tiles[name]) slotTargets.set(slot, { kind: "slot-open", label: this.t("kamara.target.slot_open", { slot: name }) });
          });
        }
        if (this.pick.slot !== undefined) {
          selectedSlots.add(this.pick.slot);
          if (tile) ghost = { slot: this.pick.slot, tile, face: this.pick.face === "B" ? 1 : 0, turns: this.pick.slot === CENTRE ? (this.pick.rotation || 0) / 90 : OUTWARD[this.pick.slot] };
        }
      } else if (obs.phase === "diwa" && this.pick.colour) {
        for (const text of this.legal) {
          const [, colour, square] = text.split(" ");
          if (colour === this.pick.colour) targets.set(squareIndex(square), { kind: "diwa", label: this.t("kamara.target.diwa", { colour: this.colourName(colour), square }) });
        }
      } else if (obs.phase === "play" && !obs.pending) {
        if (this.mode) {
          ({ targets, slotTargets } = this.effectTargets());
          if (this.mode.colour) selected.add(squareIndex(obs.diwa[this.mode.colour]));
          if (this.mode.first && this.mode.effect === "tulak") selected.add(neighbour(squareIndex(obs.diwa[this.mode.colour]), DIRECTIONS.indexOf(this.mode.first)));
          if (this.mode.first !== undefined && this.mode.effect === "palitan") selectedSlots.add(this.mode.first);
        } else {
          targets = this.playTargets().targets;
          if (this.pick.poke) selected.add(squareIndex(obs.diwa[this.pick.poke]));
        }
      }
    }
    const flipped = this.flipShown === null ? null : layout.placed[this.flipShown];
    if (!ghost && flipped) ghost = { slot: this.flipShown, tile: flipped.tile, face: 1 - flipped.face, turns: flipped.turns, flip: true };
    const flipRings = new Set();
    if (obs.code && layout.logo !== null && obs.phase !== "over") {
      for (const entry of readCode(obs.code, layout)) {
        if (entry.shows === false && layout.paltikOfSlot.has(entry.slot)) flipRings.add(layout.paltikOfSlot.get(entry.slot));
      }
    }
    this.board.svg.setAttribute("aria-label", this.t("kamara.board_label"));
    this.board.render({
      layout,
      diwa,
      mine,
      current,
      locks,
      targets,
      slotTargets,
      selected,
      selectedSlots,
      ghost,
      flipRings,
      slotLabel: (slot) => SLOTS[slot],
      squareLabel: (name, signs) => `${name}: ${signs.length ? signs.map(([sign, direction]) => this.t(`kamara.square.${sign}`, { direction: direction && this.t(`kamara.direction.${direction}`) })).join(", ") : this.t("kamara.square.floor")}`,
    });
  }

  pickTile(id) {
    if (this.busy) return;
    const waiting = this.waitingReason();
    if (waiting) return this.say(waiting);
    const tile = this.tiles.get(id);
    if (this.pick.slot !== undefined && SLOT_KIND[this.pick.slot] !== tile.kind) {
      return this.say(this.t("kamara.why.wrong_kind", { tile: this.tileName(id), kind: this.t(`kamara.kind.${tile.kind}`), slots: this.slotsOfKind(tile.kind) }));
    }
    if (this.pick.tile === id && this.pick.slot === undefined) this.pick = {};
    else this.pick = { ...this.pick, tile: id };
    this.notice = "";
    this.render();
    this.reveal(this.pick.slot === undefined ? this.dom.boardWrap : this.node.querySelector(".k-chooser"));
  }

  /** On a narrow screen the board and the controls lie one above the other: bring the next step into view —
   * with the chamber above it too when both fit on the screen (the setup's choices below the chamber). */
  reveal(node) {
    if (!node || typeof node.scrollIntoView !== "function") return;
    const behavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    const board = this.dom.boardWrap.getBoundingClientRect();
    const next = node.getBoundingClientRect();
    const span = next.bottom - board.top;
    if (node !== this.dom.boardWrap && this.board.narrow && board.top < next.top && span <= window.innerHeight - 12) {
      const by = next.bottom > window.innerHeight - 12 ? next.bottom - window.innerHeight + 12 : Math.min(0, board.top - 6);
      if (by) window.scrollBy({ top: by, behavior });
      return;
    }
    node.scrollIntoView({ block: "nearest", behavior });
  }

  choose(change) {
    this.pick = { ...this.pick, ...change };
    this.notice = "";
    this.render();
  }

  cancel() {
    this.pick = {};
    this.mode = null;
    this.notice = "";
    this.render();
  }

  pickColour(colour, owner, free) {
    if (this.busy) return;
    const waiting = this.waitingReason();
    if (waiting) return this.say(waiting);
    if (owner >= 0) return this.say(this.t("kamara.why.colour_taken", { colour: this.colourName(colour), name: this.name(owner) }));
    if (!free.has(colour)) return this.say(this.t("kamara.why.not_now", { action: colour }));
    this.pick = this.pick.colour === colour ? {} : { colour };
    this.notice = "";
    this.render();
    if (this.pick.colour) this.reveal(this.dom.boardWrap);
  }

  startMode(effect) {
    if (this.mode && this.mode.effect === effect) {
      this.cancel();
      return;
    }
    this.mode = { effect };
    this.pick = {};
    this.notice = "";
    this.render();
    this.reveal(this.dom.boardWrap);
  }

}

Object.assign(KamaraTable.prototype, boardMethods, panelMethods);
