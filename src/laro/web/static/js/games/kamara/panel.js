// The panels around the chamber: the status line, the hint, the setup choices, the action buttons, decisions,
// your cards, every player's diwa and matches, and the key. Methods of the Kamara table (js/games/kamara.js).

import { blockMark, codeSvg, diwaChip, flipMark, logoMark, paltikMark, printedEntries, taposMark, tileSvg } from "./board.js";
import { ARROWS, chipSvg, el } from "./dom.js";
import { clockBadge } from "../../clock.js";
import { CENTRE, COLOURS, DIRECTIONS, LETTERS, OUTWARD, SLOTS, SLOT_KIND, readCode, slotOfPosition } from "./geometry.js";

const TARGETED = new Set(["pitik", "kandado", "palitan", "tulak", "tawag", "lipat", "tagos"]); // effects with targets

export const panelMethods = {
  renderStatus() {
    const obs = this.obs;
    const parts = [];
    const current = this.waiting ? null : obs.current_player; // nobody's turn until everyone sits down
    const who = current === null || current === undefined ? "" : this.myTurn || current === this.seat ? this.t("kamara.turn.yours") : this.t("kamara.turn.other", { name: this.name(current) });
    const currentColour = current === null || current === undefined ? null : (obs.colours || [])[current];
    if (obs.phase === "tiles") parts.push(el("span", { class: "k-phase" }, this.t("kamara.phase.tiles")));
    else if (obs.phase === "diwa") parts.push(el("span", { class: "k-phase" }, this.t("kamara.phase.diwa")));
    else if (obs.phase === "over") parts.push(el("span", { class: "k-phase" }, this.t("kamara.phase.over")));
    else {
      const max = (obs.options || {}).max_rounds;
      const key = max && max < 100 ? "kamara.round" : "kamara.round_only"; // the default cap of 100 is rarely met
      parts.push(el("span", { class: "k-phase" }, this.t(key, { round: obs.round, max })));
    }
    if (this.waiting) parts.push(el("span", { class: "k-who", dataset: { testid: "k-waiting" } }, this.t("kamara.turn.waiting")));
    if (who) {
      parts.push(el("span", { class: `k-who${this.myTurn ? " is-you" : ""}` }, currentColour ? el("span", { html: chipSvg(currentColour, 18) }) : null, who, clockBadge(this.message && this.message.table, current)));
    }
    if (obs.phase === "play") {
      const total = (obs.options || {}).actions_per_turn || 5;
      const left = obs.actions_left || 0;
      const pips = el("span", { class: "k-pips", "aria-hidden": "true" });
      for (let i = 0; i < Math.max(total, left); i += 1) pips.append(el("i", { class: i < left ? "is-left" : "" }));
      parts.push(el("span", { class: "k-actions-left", dataset: { left: String(left) } }, pips, this.t("kamara.actions_left", { left, total })));
    }
    if (obs.phase !== "tiles") {
      parts.push(el("span", { class: "k-decks" }, this.t("kamara.decks", { yellow: obs.yellow_deck_count ?? "?", green: obs.green_deck_count ?? "?" })));
    }
    this.dom.status.replaceChildren(...parts);
  },

  renderHint() {
    const node = this.dom.hint;
    if (this.notice) {
      node.className = "k-hint is-notice";
      node.replaceChildren(el("span", { class: "k-hint-icon", "aria-hidden": "true" }, "!"), el("span", {}, this.notice));
      return;
    }
    node.className = "k-hint";
    node.replaceChildren(el("span", {}, this.hintText()));
  },

  hintText() {
    const obs = this.obs;
    if (obs.phase === "over" || obs.is_over) return this.overText();
    if (this.seat === null) return this.t("kamara.hint.spectator");
    if (this.waiting) return this.t("kamara.hint.open");
    if (!this.myTurn) {
      const name = obs.current_player === null || obs.current_player === undefined ? "" : this.name(obs.current_player);
      if (obs.phase === "tiles") return this.t("kamara.hint.wait_tiles", { name });
      if (obs.phase === "diwa") return this.t("kamara.hint.wait_diwa", { name });
      return this.t("kamara.hint.wait_play", { name });
    }
    if (obs.phase === "tiles") {
      if (!this.pick.tile && this.pick.slot === undefined) return this.t("kamara.hint.tiles_pick");
      if (!this.pick.tile) return this.t("kamara.hint.tiles_pick_tile", { slot: SLOTS[this.pick.slot] });
      if (this.pick.slot === undefined) return this.t("kamara.hint.tiles_slot", { tile: this.tileName(this.pick.tile) });
      return this.pick.slot === CENTRE ? this.t("kamara.hint.tiles_face_rotation") : this.t("kamara.hint.tiles_face");
    }
    if (obs.phase === "diwa") return this.pick.colour ? this.t("kamara.hint.diwa_square", { colour: this.colourName(this.pick.colour) }) : this.t("kamara.hint.diwa_colour");
    if (obs.pending) return this.t(`kamara.hint.${obs.pending.decision}`);
    if (this.mode) return this.modeHint();
    if (this.pick.poke) return this.t("kamara.hint.poke", { colour: this.colourName(this.pick.poke) });
    return this.t("kamara.hint.play");
  },

  modeHint() {
    const mode = this.mode;
    if (mode.effect === "palitan") return mode.first === undefined ? this.t("kamara.hint.palitan_first") : this.t("kamara.hint.palitan_second", { slot: SLOTS[mode.first] });
    if (mode.effect === "tulak") {
      if (!mode.colour) return this.t("kamara.hint.tulak_pick");
      if (!mode.first) return this.t("kamara.hint.tulak_first", { colour: this.colourName(mode.colour) });
      return this.t("kamara.hint.tulak_second", { colour: this.colourName(mode.colour) });
    }
    return this.t(`kamara.hint.${mode.effect}`);
  },

  overText() {
    const obs = this.obs;
    const winners = obs.winners || [];
    const target = (obs.options || {}).target_matches || 3;
    const scores = obs.scores || [];
    let how;
    if (scores.some((score) => score >= target)) how = this.t("kamara.over.target", { name: this.name(winners[0]), target });
    else if (obs.yellow_deck_count === 0) how = this.t("kamara.over.deck");
    else how = this.t("kamara.over.rounds", { rounds: obs.round });
    const names = winners.map((seat) => this.name(seat)).join(", ");
    const line = winners.length === 1 ? this.t("kamara.over.wins", { name: names }) : this.t("kamara.over.shared", { names });
    return `${how} ${line}`;
  },

  renderControls(layout) {
    const obs = this.obs;
    const box = this.dom.controls;
    const parts = [];
    if (obs.phase === "tiles") parts.push(...this.tilesControls());
    else if (obs.phase === "diwa") parts.push(...this.diwaControls());
    else if (obs.phase === "play") parts.push(...this.playControls(layout));
    else parts.push(el("h2", { class: "k-h" }, this.t("kamara.phase.over")), el("p", { class: "k-over" }, this.overText()));
    box.replaceChildren(...parts);
  },

  tilesControls() {
    const obs = this.obs;
    const parts = [el("h2", { class: "k-h" }, this.t("kamara.pool.title"))];
    const pool = el("div", { class: "k-pool", role: "list" });
    const slotKind = this.pick.slot === undefined ? null : SLOT_KIND[this.pick.slot];
    for (const id of obs.pool || []) {
      const tile = this.tiles.get(id);
      if (!tile) continue;
      const chosen = this.pick.tile === id;
      const fits = !slotKind || slotKind === tile.kind;
      const button = el(
        "button",
        {
          type: "button",
          class: `k-pooltile${chosen ? " is-chosen" : ""}${fits ? "" : " is-unfit"}`,
          dataset: { tile: id, kind: tile.kind },
          "aria-pressed": chosen ? "true" : "false",
          onclick: () => this.pickTile(id),
        },
        el("span", { class: "k-pool-name" }, this.tileName(id)),
        el("span", { class: "k-pool-kind" }, this.t(`kamara.kind.${tile.kind}`)),
        el(
          "span",
          { class: "k-pool-faces" },
          el("span", { class: "k-face-pic", html: tileSvg(tile, 0, 0, 44, `${id} A`) }, el("small", {}, "A")),
          el("span", { class: "k-face-pic", html: tileSvg(tile, 1, 0, 44, `${id} B`) }, el("small", {}, "B")),
        ),
      );
      pool.append(el("div", { role: "listitem" }, button));
    }
    parts.push(pool);
    parts.push(el("p", { class: "k-note" }, this.t("kamara.pool.note")));
    if (this.myTurn && this.pick.tile && this.pick.slot !== undefined) parts.push(this.placeChooser());
    return parts;
  },

  placeChooser() {
    const tile = this.tiles.get(this.pick.tile);
    const slot = this.pick.slot;
    const centre = slot === CENTRE;
    const turns = centre ? (this.pick.rotation || 0) / 90 : OUTWARD[slot];
    const box = el("div", { class: "k-chooser" });
    box.append(el("h3", { class: "k-h" }, this.t("kamara.place.title", { tile: this.tileName(tile.id), slot: SLOTS[slot] })));
    const faces = el("div", { class: "k-choice-row", role: "group", "aria-label": this.t("kamara.place.face") });
    for (const [index, face] of [[0, "A"], [1, "B"]]) {
      const light = tile.faces[index].paltik;
      const note = light ? this.t(`kamara.place.face_${light}`) : "";
      faces.append(
        el(
          "button",
          { type: "button", class: `k-choice${this.pick.face === face ? " is-chosen" : ""}`, dataset: { face }, "aria-pressed": this.pick.face === face ? "true" : "false", onclick: () => this.choose({ face }) },
          el("span", { html: tileSvg(tile, index, turns, 56, `${tile.id} ${face}`) }),
          el("span", { class: "k-choice-label" }, this.t("kamara.place.face_n", { face }), note ? el("small", {}, note) : null),
        ),
      );
    }
    box.append(faces);
    if (centre) {
      const rotations = el("div", { class: "k-choice-row k-rotations", role: "group", "aria-label": this.t("kamara.place.rotation") });
      for (const rotation of [0, 90, 180, 270]) {
        const chosen = (this.pick.rotation || 0) === rotation;
        rotations.append(
          el(
            "button",
            { type: "button", class: `k-choice k-rot${chosen ? " is-chosen" : ""}`, dataset: { rot: String(rotation) }, "aria-pressed": chosen ? "true" : "false", onclick: () => this.choose({ rotation }) },
            el("span", { class: "k-arrow", "aria-hidden": "true" }, ARROWS[rotation / 90]),
            el("span", { class: "k-choice-label" }, `${rotation}°`, el("small", {}, this.t(`kamara.point.${rotation / 90}`))),
          ),
        );
      }
      box.append(el("p", { class: "k-note" }, this.t("kamara.place.rotation_note")), rotations);
    }
    const text = `place ${tile.id} ${SLOTS[slot]} ${this.pick.face || "A"}${centre ? ` ${this.pick.rotation || 0}` : ""}`;
    box.append(
      el(
        "div",
        { class: "k-buttons" },
        el("button", { type: "button", class: "k-btn k-primary", dataset: { k: "place" }, onclick: () => this.act(text) }, this.t("kamara.place.confirm", { tile: this.tileName(tile.id), slot: SLOTS[slot], face: this.pick.face || "A" })),
        el("button", { type: "button", class: "k-btn k-quiet", dataset: { k: "cancel" }, onclick: () => this.cancel() }, this.t("kamara.cancel")),
      ),
    );
    return box;
  },

  diwaControls() {
    const obs = this.obs;
    const parts = [el("h2", { class: "k-h" }, this.t("kamara.diwa.title"))];
    const free = new Set([...this.legal].map((text) => text.split(" ")[1]));
    const row = el("div", { class: "k-colours", role: "group", "aria-label": this.t("kamara.diwa.title") });
    for (const colour of COLOURS) {
      const owner = (obs.colours || []).indexOf(colour);
      const chosen = this.pick.colour === colour;
      const taken = owner >= 0;
      row.append(
        el(
          "button",
          {
            type: "button",
            class: `k-colour${chosen ? " is-chosen" : ""}${taken ? " is-taken" : ""}`,
            dataset: { colour },
            "aria-pressed": chosen ? "true" : "false",
            onclick: () => this.pickColour(colour, owner, free),
          },
          el("span", { html: chipSvg(colour, 26) }),
          el("span", { class: "k-colour-name" }, this.colourName(colour), taken ? el("small", {}, this.name(owner)) : null),
        ),
      );
    }
    parts.push(row, el("p", { class: "k-note" }, this.t("kamara.diwa.note")));
    return parts;
  },

  playControls(layout) {
    const obs = this.obs;
    const parts = [];
    if (this.seat === null) return parts;
    if (this.myTurn && obs.pending) return [this.decisionBox(layout)];
    parts.push(el("h2", { class: "k-h" }, this.t("kamara.actions.title")));
    const legal = this.legal;
    const buttons = el("div", { class: "k-actions" });
    const me = this.mySquare;
    const paltik = layout.paltik.get(me);
    const flipNote = paltik ? this.t("kamara.flip.note", { slot: SLOTS[paltik.slot], state: this.t(paltik.light ? "kamara.dark" : "kamara.light") }) : this.t("kamara.flip.off");
    const yellow = (obs.yellow || [])[this.seat];
    const actions = [
      ["flip", this.t("kamara.flip"), flipNote],
      ["match", this.t("kamara.match"), yellow ? this.t("kamara.match.note", { card: yellow }) : this.t("kamara.match.none")],
      ["exchange", this.t("kamara.exchange"), this.t("kamara.exchange.note")],
      ["end", this.t("kamara.end"), this.t("kamara.end.note", { left: obs.actions_left || 0 })],
    ];
    for (const [text, label, note] of actions) {
      const ok = legal.has(text);
      const button = el(
        "button",
        { type: "button", class: `k-btn k-act${ok ? " is-ready" : " is-off"}${text === "match" && ok ? " k-primary" : ""}`, "aria-disabled": ok ? "false" : "true", dataset: { k: text }, onclick: () => (ok ? this.act(text) : this.say(this.whyNotAction(text, layout))) },
        el("span", { class: "k-btn-label" }, label),
        el("small", {}, note),
      );
      if (text === "flip" && paltik) {
        // a mouse on Flip (or the keyboard's focus) draws the tile's other face on the chamber
        const show = (event) => event.pointerType !== "touch" && this.previewFlip(paltik.slot);
        button.addEventListener("pointerenter", show);
        button.addEventListener("focus", () => this.previewFlip(paltik.slot));
        for (const end of ["pointerleave", "blur"]) button.addEventListener(end, () => this.previewFlip(null));
      }
      buttons.append(button);
    }
    parts.push(buttons);
    if (paltik && layout.placed[paltik.slot]) parts.push(this.flipPreview(layout.placed[paltik.slot], paltik.slot));
    if (this.mode) {
      parts.push(
        el(
          "div",
          { class: "k-mode" },
          el("strong", {}, this.effectName(this.mode.effect)),
          el("span", {}, this.modeHint()),
          this.mode.effect === "tulak" && this.mode.first && legal.has(`play tulak ${this.mode.colour} ${this.mode.first}`)
            ? el("button", { type: "button", class: "k-btn", dataset: { k: "tulak-one" }, onclick: () => this.act(`play tulak ${this.mode.colour} ${this.mode.first}`) }, this.t("kamara.tulak.one"))
            : null,
          el("button", { type: "button", class: "k-btn k-quiet", dataset: { k: "cancel" }, onclick: () => this.cancel() }, this.t("kamara.cancel")),
        ),
      );
    } else if (this.pick.poke) {
      parts.push(el("div", { class: "k-mode" }, el("strong", {}, this.t("kamara.poke")), el("span", {}, this.t("kamara.hint.poke", { colour: this.colourName(this.pick.poke) })), el("button", { type: "button", class: "k-btn k-quiet", dataset: { k: "cancel" }, onclick: () => this.cancel() }, this.t("kamara.cancel"))));
    }
    return parts;
  },

  /** The tile you stand on as it lies now and as a flip would turn it (its other face: other walls). */
  flipPreview(placed, slot) {
    const now = tileSvg(placed.tile, placed.face, placed.turns, 56, `${placed.id} ${"AB"[placed.face]}`);
    const after = tileSvg(placed.tile, 1 - placed.face, placed.turns, 56, `${placed.id} ${"AB"[1 - placed.face]}`);
    return el(
      "div",
      { class: "k-flip-preview", dataset: { testid: "flip-preview", face: "AB"[1 - placed.face] } },
      el("span", {}, this.t("kamara.flip.preview", { slot: SLOTS[slot] })),
      el("figure", {}, el("span", { html: now }), el("figcaption", {}, this.t("kamara.flip.now"))),
      el("span", { "aria-hidden": "true" }, "→"),
      el("figure", { class: "k-flip-after" }, el("span", { html: after }), el("figcaption", {}, this.t("kamara.flip.after"))),
    );
  },

  decisionBox(layout) {
    const obs = this.obs;
    const pending = obs.pending;
    const box = el("div", { class: "k-decision" });
    const own = (obs.yellow || [])[this.seat];
    if (pending.decision === "order") {
      const cards = pending.cards || [];
      if (!this.orderDraft || this.orderDraft.length !== cards.length) this.orderDraft = [...cards];
      box.append(el("h2", { class: "k-h" }, this.t("kamara.order.title")), el("p", { class: "k-note" }, this.t("kamara.order.note")));
      const row = el("ol", { class: "k-cardrow" });
      this.orderDraft.forEach((card, index) => {
        const move = (delta) => {
          const draft = [...this.orderDraft];
          const other = index + delta;
          if (other < 0 || other >= draft.length) return;
          [draft[index], draft[other]] = [draft[other], draft[index]];
          this.orderDraft = draft;
          this.render();
        };
        row.append(
          el(
            "li",
            { class: "k-cardpick", dataset: { card } },
            el("span", { class: "k-cardpick-place" }, index === 0 ? this.t("kamara.order.top") : this.t("kamara.order.nth", { n: index + 1 })),
            this.cardPicture(card, layout, 80),
            el("span", { class: "k-cardpick-id" }, card),
            el(
              "span",
              { class: "k-buttons k-tight" },
              el("button", { type: "button", class: "k-btn k-small", "aria-label": this.t("kamara.order.earlier", { card }), disabled: index === 0, dataset: { k: "earlier" }, onclick: () => move(-1) }, "◀"),
              el("button", { type: "button", class: "k-btn k-small", "aria-label": this.t("kamara.order.later", { card }), disabled: index === this.orderDraft.length - 1, dataset: { k: "later" }, onclick: () => move(1) }, "▶"),
            ),
          ),
        );
      });
      box.append(row);
      const text = `order ${this.orderDraft.join(" ")}`;
      box.append(el("div", { class: "k-buttons" }, el("button", { type: "button", class: "k-btn k-primary", dataset: { k: "order" }, onclick: () => this.act(text) }, this.t("kamara.order.confirm", { cards: this.orderDraft.join(" ") }))));
    } else {
      const cards = [...(pending.drawn || []), ...(own ? [own] : [])];
      box.append(el("h2", { class: "k-h" }, this.t("kamara.keep.title")), el("p", { class: "k-note" }, this.t("kamara.keep.note")));
      const row = el("ul", { class: "k-cardrow" });
      for (const card of cards) {
        const text = `keep ${card}`;
        row.append(
          el(
            "li",
            { class: "k-cardpick", dataset: { card } },
            el("span", { class: "k-cardpick-place" }, card === own ? this.t("kamara.keep.yours") : this.t("kamara.keep.drawn")),
            this.cardPicture(card, layout, 80),
            el("span", { class: "k-cardpick-id" }, card),
            el("button", { type: "button", class: "k-btn k-primary k-small", dataset: { keep: card }, onclick: () => this.act(text) }, this.t("kamara.keep.button", { card })),
          ),
        );
      }
      box.append(row);
    }
    return box;
  },

  cardPicture(card, layout, size) {
    const code = card === (this.obs.yellow || [])[this.seat] && this.obs.code ? this.obs.code : this.codes.get(card);
    if (!code) return el("span", { class: "k-code-missing" }, "?");
    const shows = (position) => {
      if (layout.logo === null) return null;
      const slot = slotOfPosition(position, layout.logoTurns);
      if (!layout.light.has(slot)) return null;
      return layout.light.get(slot) === (code[DIRECTIONS[position]] === "light");
    };
    return el("span", { class: "k-code-wrap", html: codeSvg(printedEntries(code, shows), 0, { size, label: this.codeLabel(card, code) }) });
  },

  codeLabel(card, code) {
    const parts = Object.entries(code).map(([position, state]) => `${position} ${this.t(`kamara.${state}`)}`);
    return `${card}: ${parts.join(", ")}`;
  },

  renderCards(layout) {
    const obs = this.obs;
    const box = this.dom.cards;
    if (this.seat === null) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const parts = [];
    const yellow = this.waiting ? null : (obs.yellow || [])[this.seat]; // yours once everyone sits down
    const yellowBox = el("div", { class: "k-yellow" });
    if (!yellow) {
      const none = this.waiting ? "kamara.yellow.not_dealt" : obs.phase === "over" || obs.is_over ? "kamara.yellow.none_over" : "kamara.yellow.none";
      yellowBox.append(el("h2", { class: "k-h" }, this.t("kamara.yellow.title")), el("p", { class: "k-note", dataset: { testid: "yellow-none" } }, this.t(none)));
    } else {
      const code = obs.code || this.codes.get(yellow) || {};
      yellowBox.append(el("h2", { class: "k-h" }, this.t("kamara.yellow.title_id", { card: yellow })));
      const pics = el("div", { class: "k-code-pair" });
      const entries = readCode(code, layout);
      const byPosition = new Map(entries.map((entry) => [entry.position, entry]));
      const placedLogo = layout.logo !== null;
      pics.append(
        el(
          "figure",
          { class: "k-fig" },
          el("span", { html: codeSvg(printedEntries(code, (p) => (placedLogo && byPosition.has(p) ? byPosition.get(p).shows : null)), 0, { size: 92, label: this.codeLabel(yellow, code) }) }),
          el("figcaption", {}, this.t("kamara.yellow.printed")),
        ),
      );
      if (placedLogo) {
        const chamberEntries = entries.map((entry) => ({ cell: [Math.floor(entry.slot / 3), entry.slot % 3], wanted: entry.wanted, shows: entry.shows }));
        pics.append(
          el(
            "figure",
            { class: "k-fig" },
            el("span", { html: codeSvg(chamberEntries, layout.logoTurns, { size: 92, slots: SLOTS, label: this.t("kamara.yellow.on_chamber_label") }) }),
            el("figcaption", {}, this.t("kamara.yellow.on_chamber", { arrow: ARROWS[layout.logoTurns] })),
          ),
        );
      }
      yellowBox.append(pics);
      if (obs.phase === "over") {
        // nothing left to do with it
      } else if (placedLogo) {
        const wrong = entries.filter((entry) => entry.shows === false);
        const unknown = entries.some((entry) => entry.shows === null);
        if (wrong.length) yellowBox.append(el("p", { class: "k-todo" }, this.t("kamara.yellow.flip", { flips: this.flipList(wrong) })));
        else if (!unknown) yellowBox.append(el("p", { class: "k-ready" }, this.t(obs.phase === "play" ? "kamara.yellow.ready" : "kamara.yellow.ready_setup")));
      } else {
        yellowBox.append(el("p", { class: "k-note" }, this.t("kamara.yellow.read_note")));
      }
    }
    parts.push(yellowBox);
    parts.push(this.greenBox());
    if ((obs.seen_on_top || []).length) parts.push(el("p", { class: "k-note" }, this.t("kamara.seen_on_top", { cards: obs.seen_on_top.join(" ") })));
    box.replaceChildren(...parts);
  },

  greenBox() {
    const obs = this.obs;
    const effect = (obs.green || [])[this.seat];
    const box = el("div", { class: "k-green" });
    if (!effect) {
      const over = obs.phase === "over" || obs.is_over;
      const none = over ? "kamara.green.none_over" : this.waiting || obs.phase !== "play" ? "kamara.green.none_yet" : "kamara.green.none";
      box.append(el("h2", { class: "k-h" }, this.t("kamara.green.title")), el("p", { class: "k-note", dataset: { testid: "green-none" } }, this.t(none)));
      return box;
    }
    box.classList.add("has-card");
    box.append(el("h2", { class: "k-h" }, this.t("kamara.green.title")), el("p", { class: "k-green-name" }, this.effectName(effect)), el("p", { class: "k-green-text" }, this.effectText(effect)));
    if (!this.myTurn || obs.phase !== "play" || obs.pending) return box;
    const legal = this.legal;
    const buttons = el("div", { class: "k-buttons" });
    const mine = [...legal].filter((text) => text.startsWith(`play ${effect}`));
    const notUseful = this.t("kamara.why.effect_useless");
    if (effect === "ikot") {
      for (const way of ["cw", "ccw"]) {
        const text = `play ikot ${way}`;
        const ok = legal.has(text);
        buttons.append(el("button", { type: "button", class: `k-btn${ok ? " is-ready" : " is-off"}`, "aria-disabled": ok ? "false" : "true", dataset: { k: `ikot-${way}` }, onclick: () => (ok ? this.act(text) : this.say(this.ikotWhy())) }, this.t(`kamara.ikot.${way}`)));
      }
    } else if (TARGETED.has(effect)) {
      const ok = mine.length > 0;
      const active = this.mode && this.mode.effect === effect;
      buttons.append(
        el(
          "button",
          { type: "button", class: `k-btn${ok ? " is-ready" : " is-off"}${active ? " is-chosen" : ""}`, "aria-disabled": ok ? "false" : "true", "aria-pressed": active ? "true" : "false", dataset: { k: "play" }, onclick: () => (ok ? this.startMode(effect) : this.say(notUseful)) },
          this.t("kamara.green.play", { effect: this.effectName(effect) }),
        ),
      );
    } else {
      const text = `play ${effect}`;
      const ok = legal.has(text);
      buttons.append(el("button", { type: "button", class: `k-btn${ok ? " is-ready" : " is-off"}`, "aria-disabled": ok ? "false" : "true", dataset: { k: "play" }, onclick: () => (ok ? this.act(text) : this.say(notUseful)) }, this.t("kamara.green.play", { effect: this.effectName(effect) })));
    }
    const ignore = legal.has("play ignore");
    buttons.append(el("button", { type: "button", class: `k-btn k-quiet${ignore ? "" : " is-off"}`, dataset: { k: "ignore" }, onclick: () => (ignore ? this.act("play ignore") : this.say(this.t("kamara.why.not_now", { action: "play ignore" }))) }, this.t("kamara.green.ignore")));
    box.append(buttons);
    return box;
  },

  renderPlayers() {
    const obs = this.obs;
    const n = obs.num_players || (obs.colours || []).length;
    const target = (obs.options || {}).target_matches || 3;
    const list = el("ul", { class: "k-playerlist" });
    for (let seat = 0; seat < n; seat += 1) {
      const colour = (obs.colours || [])[seat];
      const matched = (obs.matched || [])[seat] || [];
      const open = this.message && this.message.open ? this.message.open[seat] || {} : {}; // a replay, every card open
      const yellow = this.waiting ? null : (open.yellow || obs.yellow || [])[seat];
      const green = (open.green || obs.green || [])[seat];
      const current = !this.waiting && obs.current_player === seat;
      const winner = (obs.winners || []).includes(seat);
      const holds = el("span", { class: "k-holds" });
      holds.append(el("span", { class: `k-held k-held-yellow${yellow ? "" : " is-none"}`, title: yellow ? this.t("kamara.holds.yellow") : this.t("kamara.holds.no_yellow") }, yellow && yellow !== "?" ? yellow : yellow ? "?" : "–"));
      holds.append(el("span", { class: `k-held k-held-green${green ? "" : " is-none"}`, title: green ? this.t("kamara.holds.green") : this.t("kamara.holds.no_green") }, green && green !== "?" ? green : green ? "?" : "–"));
      const lockCount = Object.values(obs.locks || {}).filter((s) => s === seat).length;
      const matches = el("span", { class: "k-matched" }, el("span", { class: "k-score" }, this.t("kamara.matched", { count: matched.length, target })));
      for (const card of matched) {
        const code = this.codes.get(card);
        matches.append(
          el(
            "span",
            { class: "k-matched-card", title: code ? this.codeLabel(card, code) : card },
            code ? el("span", { html: codeSvg(printedEntries(code), 0, { size: 34, label: card }) }) : null,
            el("small", {}, card),
          ),
        );
      }
      list.append(
        el(
          "li",
          { class: `k-player${current ? " is-current" : ""}${seat === this.seat ? " is-you" : ""}${winner ? " is-winner" : ""}`, dataset: { seat: String(seat) } },
          el("span", { class: "k-turnmark", "aria-hidden": "true" }, current ? "▶" : ""),
          colour ? el("span", { class: "k-player-chip", html: chipSvg(colour, 24), title: this.colourName(colour) }) : el("span", { class: "k-player-chip is-none" }, "·"),
          el("span", { class: "k-player-name" }, this.name(seat), winner ? el("span", { class: "k-badge" }, this.t("kamara.winner")) : null, lockCount ? el("span", { class: "k-badge k-badge-lock" }, this.t("kamara.locks_n", { count: lockCount })) : null, clockBadge(this.message && this.message.table, seat)),
          holds,
          matches,
          this.lastMoveNote(seat),
        ),
      );
    }
    this.dom.players.replaceChildren(el("h2", { class: "k-h" }, this.t("kamara.players.title")), list);
  },

  renderLegend() {
    if (this.legendLang === this.ctx.lang && this.dom.legend.childElementCount) return;
    this.legendLang = this.ctx.lang;
    const pic = (inner) => `<svg viewBox="0 0 40 40" width="22" height="22" aria-hidden="true">${inner}</svg>`;
    const item = (svg, key) => el("li", {}, el("span", { class: "k-legend-pic", html: svg }), this.t(key));
    const floor = '<rect class="k-floor" x="0" y="0" width="40" height="40"/>';
    const list = el(
      "ul",
      { class: "k-legend-list" },
      item(pic(floor + paltikMark(0, 0, 40, true)), "kamara.legend.light"),
      item(pic(floor + paltikMark(0, 0, 40, false)), "kamara.legend.dark"),
      item(pic(floor + taposMark(0, 0, 40)), "kamara.legend.tapos"),
      item(pic(floor + logoMark(0, 0, 40, 0)), "kamara.legend.logo"),
      item(pic(blockMark(0, 0, 40)), "kamara.legend.block"),
      item(pic(`${floor}<line class="k-wall" x1="20" y1="2" x2="20" y2="38"/>`), "kamara.legend.wall"),
      item(pic(`${floor}<line class="k-border" x1="4" y1="2" x2="4" y2="38"/>`), "kamara.legend.border"),
      item(pic(`${floor}<g class="k-lock"><rect x="12" y="18" width="16" height="13" rx="2"/><path d="M15.5 18v-3a4.5 4.5 0 0 1 9 0v3"/></g>`), "kamara.legend.lock"),
      item(pic(floor + paltikMark(0, 0, 40, true) + flipMark(0, 0, 40)), "kamara.legend.flip_ring"),
      item(pic(`${floor}${diwaChip(0, 0, 40, "red")}<g class="k-t-poke-source"><rect x="3" y="3" width="34" height="34" rx="6"/></g>`), "kamara.legend.poke"),
      item(pic(`${floor}<g class="k-legend-target"><rect x="2.5" y="2.5" width="35" height="35" rx="7"/><circle cx="20" cy="20" r="4"/></g>`), "kamara.legend.target"),
    );
    const colours = el("ul", { class: "k-legend-colours" });
    for (const colour of COLOURS) colours.append(el("li", {}, el("span", { html: chipSvg(colour, 20) }), `${LETTERS[colour]} ${this.colourName(colour)}`));
    this.dom.legend.replaceChildren(el("summary", {}, this.t("kamara.legend.title")), list, colours);
    this.dom.legend.open = window.matchMedia("(min-width: 900px)").matches;
  },
};
