// What a click on the chamber means: setup choices, moves, ports, pokes and green-card targets; and, for a
// click that names no legal action, why not (in words). Methods of the Kamara table (js/games/kamara.js).

import {
  CENTRE,
  DIRECTIONS,
  SLOTS,
  SLOT_KIND,
  directionTo,
  neighbour,
  readCode,
  slotOfSquare,
  squareIndex,
  squareName,
  stepProblem,
} from "./geometry.js";

export const boardMethods = {
  onBoard({ square, slot }) {
    if (this.busy) return;
    const obs = this.obs;
    if (slot === null) slot = slotOfSquare(square);
    const waiting = this.waitingReason();
    if (obs.phase === "tiles") return this.boardTiles(slot, waiting);
    if (waiting) return this.say(waiting);
    if (obs.phase === "diwa") return this.boardDiwa(square);
    if (obs.phase !== "play") return;
    if (obs.pending) return this.say(this.t("kamara.why.decide_first"));
    if (this.mode) return this.boardEffect(square, slot);
    return this.boardPlay(square);
  },

  waitingReason() {
    const obs = this.obs;
    if (obs.phase === "over" || obs.is_over) return this.t("kamara.why.over");
    if (this.seat === null) return this.t("kamara.why.spectator");
    if (!this.myTurn) {
      if (obs.current_player === null || obs.current_player === undefined) return this.t("kamara.why.wait");
      return this.t("kamara.why.not_your_turn", { name: this.name(obs.current_player) });
    }
    return "";
  },

  boardTiles(slot, waiting) {
    const obs = this.obs;
    if (obs.tiles[SLOTS[slot]]) {
      const here = obs.tiles[SLOTS[slot]];
      return this.say(this.t("kamara.why.slot_taken", { slot: SLOTS[slot], tile: this.tileName(here.tile) }));
    }
    if (waiting) return this.say(waiting);
    const tile = this.pick.tile && this.tiles.get(this.pick.tile);
    if (tile && tile.kind !== SLOT_KIND[slot]) {
      return this.say(this.t("kamara.why.wrong_kind", { tile: this.tileName(tile.id), kind: this.t(`kamara.kind.${tile.kind}`), slots: this.slotsOfKind(tile.kind) }));
    }
    this.pick = { ...this.pick, slot, face: this.pick.face || "A", rotation: this.pick.rotation || 0 };
    if (!tile) this.pick.tile = undefined;
    this.notice = "";
    this.render();
    this.reveal(tile ? this.node.querySelector(".k-chooser") : this.node.querySelector(".k-pool"));
  },

  slotsOfKind(kind) {
    return SLOTS.filter((_, slot) => SLOT_KIND[slot] === kind).join(" ");
  },

  boardDiwa(square) {
    const colour = this.pick.colour;
    if (!colour) return this.say(this.t("kamara.why.colour_first"));
    const text = `diwa ${colour} ${squareName(square)}`;
    if (this.legal.has(text)) return this.act(text);
    const layout = this.layout();
    const slot = slotOfSquare(square);
    let why = "kamara.why.diwa_square";
    if (slot === CENTRE) why = "kamara.why.diwa_centre";
    else if (layout.blocked.has(square)) why = "kamara.why.block";
    else if (layout.paltik.has(square)) why = "kamara.why.diwa_paltik";
    else if (this.diwaAt().has(square)) why = "kamara.why.occupied";
    this.say(this.t(why, { square: squareName(square) }));
  },

  playTargets() {
    // square -> {kind, action, label} for the default play mode (moves, ports, pokes)
    const targets = new Map();
    const me = this.mySquare;
    const pokeSources = new Map();
    for (const text of this.legal) {
      const words = text.split(" ");
      if (words[0] === "move") {
        const target = neighbour(me, DIRECTIONS.indexOf(words[1]));
        targets.set(target, { kind: "move", action: text, label: this.t("kamara.target.move", { dir: words[1], square: squareName(target) }) });
      } else if (words[0] === "port") {
        const target = squareIndex(words[1]);
        if (!targets.has(target)) targets.set(target, { kind: "port", action: text, label: this.t("kamara.target.port", { square: words[1] }) });
      } else if (words[0] === "poke") {
        if (!pokeSources.has(words[1])) pokeSources.set(words[1], []);
        pokeSources.get(words[1]).push(text);
      }
    }
    if (this.pick.poke && pokeSources.has(this.pick.poke)) {
      const poke = new Map();
      for (const text of pokeSources.get(this.pick.poke)) {
        const square = squareIndex(text.split(" ")[2]);
        poke.set(square, { kind: "poke", action: text, label: this.t("kamara.target.poke", { colour: this.colourName(this.pick.poke), square: squareName(square) }) });
      }
      return { targets: poke, pokeSources };
    }
    for (const colour of pokeSources.keys()) {
      const square = squareIndex(this.obs.diwa[colour]);
      targets.set(square, { kind: "poke-source", colour, label: this.t("kamara.target.poke_source", { colour: this.colourName(colour) }) });
    }
    return { targets, pokeSources };
  },

  boardPlay(square) {
    let { targets, pokeSources } = this.playTargets();
    let target = targets.get(square);
    if (this.pick.poke && !target) {
      // a click away from the poke targets stops poking; it may still be a move
      this.pick = {};
      ({ targets, pokeSources } = this.playTargets());
      target = targets.get(square);
      if (!target || target.kind === "poke-source") {
        this.notice = "";
        this.render();
        return;
      }
    }
    if (target && target.kind === "poke-source") {
      this.pick = { poke: target.colour };
      this.notice = "";
      return this.render();
    }
    if (target) return this.act(target.action);
    if (square === this.mySquare && this.pick.poke) return;
    this.say(this.whyNotSquare(square, pokeSources));
  },

  whyNotSquare(square, pokeSources = new Map()) {
    const layout = this.layout();
    const me = this.mySquare;
    const diwa = this.diwaAt();
    const sq = squareName(square);
    if (square === me) return this.t("kamara.why.yourself");
    if (diwa.has(square)) {
      const colour = diwa.get(square);
      if (pokeSources.size === 0 || !pokeSources.has(colour)) return this.t("kamara.why.no_poke", { colour: this.colourName(colour) });
    }
    const direction = directionTo(me, square);
    if (direction >= 0) {
      const problem = stepProblem(layout, me, direction, new Set(diwa.keys()));
      if (problem) return this.t(`kamara.why.step.${problem}`, { square: sq });
    }
    if (layout.tapos.has(square)) {
      if (!layout.tapos.has(me)) return this.t("kamara.why.port_stand", { square: sq });
      if (diwa.has(square)) return this.t("kamara.why.occupied", { square: sq });
    }
    if (layout.blocked.has(square)) return this.t("kamara.why.step.block", { square: sq });
    return this.t("kamara.why.too_far", { square: sq });
  },

  effectTargets() {
    const mode = this.mode;
    const targets = new Map();
    const slotTargets = new Map();
    const legal = [...this.legal].filter((text) => text.startsWith(`play ${mode.effect} `));
    const args = legal.map((text) => text.split(" ").slice(2));
    const label = (key, params) => this.t(key, params);
    if (mode.effect === "pitik" || mode.effect === "kandado") {
      for (const [slot] of args) slotTargets.set(SLOTS.indexOf(slot), { kind: "effect", action: `play ${mode.effect} ${slot}`, label: label(`kamara.target.${mode.effect}`, { slot }) });
    } else if (mode.effect === "palitan") {
      for (const [a, b] of args) {
        if (mode.first === undefined) {
          for (const slot of [a, b]) slotTargets.set(SLOTS.indexOf(slot), { kind: "effect", label: label("kamara.target.palitan_first", { slot }) });
        } else if (a === SLOTS[mode.first] || b === SLOTS[mode.first]) {
          const other = a === SLOTS[mode.first] ? b : a;
          slotTargets.set(SLOTS.indexOf(other), { kind: "effect", action: `play palitan ${a} ${b}`, label: label("kamara.target.palitan", { a: SLOTS[mode.first], b: other }) });
        }
      }
    } else if (mode.effect === "tulak") {
      if (!mode.colour) {
        for (const [colour] of args) {
          targets.set(squareIndex(this.obs.diwa[colour]), { kind: "effect", colour, label: label("kamara.target.tulak_pick", { colour: this.colourName(colour) }) });
        }
      } else {
        const start = squareIndex(this.obs.diwa[mode.colour]);
        for (const [colour, first, second] of args) {
          if (colour !== mode.colour) continue;
          if (!mode.first) {
            const target = neighbour(start, DIRECTIONS.indexOf(first));
            targets.set(target, { kind: "effect", first, label: label("kamara.target.tulak_step", { dir: first, square: squareName(target) }) });
          } else if (first === mode.first && second) {
            const middle = neighbour(start, DIRECTIONS.indexOf(first));
            const target = neighbour(middle, DIRECTIONS.indexOf(second));
            targets.set(target, { kind: "effect", action: `play tulak ${colour} ${first} ${second}`, label: label("kamara.target.tulak_step", { dir: second, square: squareName(target) }) });
          }
        }
      }
    } else if (mode.effect === "tawag") {
      for (const [square] of args) targets.set(squareIndex(square), { kind: "effect", action: `play tawag ${square}`, label: label("kamara.target.tawag", { square }) });
    } else if (mode.effect === "lipat") {
      for (const [colour] of args) targets.set(squareIndex(this.obs.diwa[colour]), { kind: "effect", action: `play lipat ${colour}`, label: label("kamara.target.lipat", { colour: this.colourName(colour) }) });
    } else if (mode.effect === "tagos") {
      for (const [dir] of args) {
        const target = neighbour(this.mySquare, DIRECTIONS.indexOf(dir));
        targets.set(target, { kind: "effect", action: `play tagos ${dir}`, label: label("kamara.target.tagos", { dir, square: squareName(target) }) });
      }
    }
    return { targets, slotTargets };
  },

  boardEffect(square, slot) {
    const mode = this.mode;
    const { targets, slotTargets } = this.effectTargets();
    const slotTarget = slotTargets.get(slot);
    const target = targets.get(square);
    if (["pitik", "kandado", "palitan"].includes(mode.effect)) {
      if (!slotTarget) return this.say(this.whyNotSlot(mode, slot));
      if (slotTarget.action) return this.act(slotTarget.action);
      this.mode = { ...mode, first: slot };
      this.notice = "";
      return this.render();
    }
    if (!target) return this.say(this.whyNotEffectSquare(mode, square));
    if (target.action && !(mode.effect === "tulak" && !mode.first && target.first)) return this.act(target.action);
    if (mode.effect === "tulak" && !mode.colour) this.mode = { ...mode, colour: target.colour };
    else if (mode.effect === "tulak" && !mode.first) this.mode = { ...mode, first: target.first };
    this.notice = "";
    this.render();
  },

  whyNotSlot(mode, slot) {
    const locks = this.obs.locks || {};
    const name = SLOTS[slot];
    if (name in locks) return this.t("kamara.why.locked", { slot: name, name: this.name(locks[name]) });
    if (mode.effect === "pitik" && slot === CENTRE) return this.t("kamara.why.pitik_centre");
    if (mode.effect === "palitan") {
      if (slot === CENTRE) return this.t("kamara.why.palitan_centre");
      if (mode.first !== undefined && SLOT_KIND[slot] !== SLOT_KIND[mode.first]) return this.t("kamara.why.palitan_kind", { slot: SLOTS[mode.first], kind: this.t(`kamara.kind.${SLOT_KIND[mode.first]}`) });
      if (mode.first === slot) return this.t("kamara.why.palitan_same");
    }
    return this.t("kamara.why.not_target");
  },

  whyNotEffectSquare(mode, square) {
    const diwa = this.diwaAt();
    const layout = this.layout();
    const sq = squareName(square);
    if (mode.effect === "tulak" && !mode.colour) {
      if (square === this.mySquare) return this.t("kamara.why.tulak_self");
      return diwa.has(square) ? this.t("kamara.why.tulak_stuck", { colour: this.colourName(diwa.get(square)) }) : this.t("kamara.why.pick_diwa");
    }
    if (mode.effect === "tulak") {
      const from = mode.first ? neighbour(squareIndex(this.obs.diwa[mode.colour]), DIRECTIONS.indexOf(mode.first)) : squareIndex(this.obs.diwa[mode.colour]);
      const direction = directionTo(from, square);
      if (direction < 0) return this.t("kamara.why.tulak_far");
      const occupied = new Set(diwa.keys());
      occupied.delete(squareIndex(this.obs.diwa[mode.colour]));
      const problem = stepProblem(layout, from, direction, occupied);
      return problem ? this.t(`kamara.why.step.${problem}`, { square: sq }) : this.t("kamara.why.not_target");
    }
    if (mode.effect === "lipat") return square === this.mySquare ? this.t("kamara.why.lipat_self") : this.t("kamara.why.pick_diwa");
    if (mode.effect === "tawag") {
      if (!layout.tapos.has(square)) return this.t("kamara.why.tawag_tapos");
      return this.t("kamara.why.occupied", { square: sq });
    }
    if (mode.effect === "tagos") {
      const direction = directionTo(this.mySquare, square);
      if (direction < 0 || direction % 2) return this.t("kamara.why.tagos_dir");
      if (layout.blocked.has(square)) return this.t("kamara.why.step.block", { square: sq });
      if (diwa.has(square)) return this.t("kamara.why.occupied", { square: sq });
    }
    return this.t("kamara.why.not_target");
  },

  whyNotAction(text, layout) {
    const waiting = this.waitingReason();
    if (waiting) return waiting;
    const obs = this.obs;
    if (obs.pending) return this.t("kamara.why.decide_first");
    const me = this.mySquare;
    const yellow = (obs.yellow || [])[this.seat];
    if (text === "flip") {
      const paltik = layout.paltik.get(me);
      if (!paltik) return this.t("kamara.why.flip_stand");
      const locker = (obs.locks || {})[SLOTS[paltik.slot]];
      if (locker !== undefined) return this.t("kamara.why.locked", { slot: SLOTS[paltik.slot], name: this.name(locker) });
    }
    if (text === "match") {
      if (!yellow) return this.t("kamara.why.no_yellow");
      const wrong = readCode(obs.code, layout).filter((entry) => entry.shows === false);
      if (wrong.length) return this.t("kamara.why.match_code", { flips: this.flipList(wrong) });
      if (!layout.tapos.has(me)) return this.t("kamara.why.match_stand");
    }
    if (text === "exchange") {
      if (!yellow) return this.t("kamara.why.no_yellow");
      if (obs.exchanged) return this.t("kamara.why.exchanged");
      if (!obs.yellow_deck_count) return this.t("kamara.why.deck_empty");
    }
    return this.t("kamara.why.not_now", { action: text });
  },

  flipList(entries) {
    return entries.map((entry) => `${SLOTS[entry.slot]} → ${this.t(`kamara.${entry.wanted}`)}`).join(", ");
  },

  ikotWhy() {
    const locker = (this.obs.locks || {}).C;
    if (locker !== undefined) return this.t("kamara.why.locked", { slot: "C", name: this.name(locker) });
    return this.t("kamara.why.effect_useless");
  },
};
