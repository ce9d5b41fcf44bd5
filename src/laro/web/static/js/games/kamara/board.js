// The chamber in SVG: tiles (floor, blocks, paltik, tapos, the logo), thick lines, the yellow border, locks,
// coordinates, highlighted targets and the diwa; plus small pictures of single tiles (the pool) and of yellow
// cards. Colours come from css/kamara.css through class names.

import {
  BORDER_SIDES,
  DIRECTIONS,
  FILES,
  LETTERS,
  SLOTS,
  SLOT_KIND,
  neighbour,
  placedSquare,
  rotateCell,
  squareName,
} from "./geometry.js";

const NS = "http://www.w3.org/2000/svg";
export const S = 40; // one square
export const M = 22; // the margin for coordinates
const SIZE = 9 * S + 2 * M;
const HIT = 2.5; // units a target's hit area reaches past its square
const NARROW = 480; // px: below this the chamber drops its margin (see Board.fit)

let uid = 0;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function xy(square) {
  return [M + (square % 9) * S, M + Math.floor(square / 9) * S];
}

// -- marks inside a square (x, y: its top-left corner; s: its size) --------------------------------------------

export function blockMark(x, y, s) {
  return `<rect class="k-block" x="${x}" y="${y}" width="${s}" height="${s}"/>`;
}

export function taposMark(x, y, s) {
  const c = s / 2;
  const r = s * 0.32;
  return `<path class="k-tapos" d="M${x + c} ${y + c - r}L${x + c + r} ${y + c}L${x + c} ${y + c + r}L${x + c - r} ${y + c}Z"/>`;
}

export function paltikMark(x, y, s, light) {
  const c = s / 2;
  return `<circle class="k-paltik ${light ? "is-light" : "is-dark"}" cx="${x + c}" cy="${y + c}" r="${s * 0.27}"/>`;
}

/** "Flip this tile for your card": a solid ring round the paltik with a turning arrow at its corner (the poke
 * sign is a dashed square, so the two never look alike). */
export function flipMark(x, y, s) {
  const c = s / 2;
  return `<g class="k-flip-mark"><circle class="k-flip-ring" cx="${x + c}" cy="${y + c}" r="${s * 0.4}"/><circle class="k-flip-badge" cx="${x + s * 0.8}" cy="${y + s * 0.2}" r="${s * 0.17}"/><text class="k-flip-arrow" x="${x + s * 0.8}" y="${y + s * 0.2}" dy="0.35em" font-size="${s * 0.26}">↻</text></g>`;
}

export function logoMark(x, y, s, turns) {
  const c = s / 2;
  const cx = x + c;
  const cy = y + c;
  const a = s * 0.22;
  const arrow = `M${cx} ${cy - a * 1.25}L${cx + a * 0.85} ${cy - a * 0.1}L${cx + a * 0.32} ${cy - a * 0.1}L${cx + a * 0.32} ${cy + a}L${cx - a * 0.32} ${cy + a}L${cx - a * 0.32} ${cy - a * 0.1}L${cx - a * 0.85} ${cy - a * 0.1}Z`;
  return `<g class="k-logo"><circle cx="${cx}" cy="${cy}" r="${s * 0.42}"/><path d="${arrow}" transform="rotate(${90 * turns} ${cx} ${cy})"/></g>`;
}

export function diwaChip(x, y, s, colour, extra = "") {
  const c = s / 2;
  return `<g class="k-diwa k-c-${colour} ${extra}"><circle cx="${x + c}" cy="${y + c}" r="${s * 0.36}"/><text x="${x + c}" y="${y + c}" dy="0.36em" font-size="${s * 0.42}">${LETTERS[colour] || "?"}</text></g>`;
}

/** A wall segment on side ``direction`` (0 N, 2 E, 4 S, 6 W) of the square at (x, y). */
function side(x, y, s, direction) {
  const ends = {
    0: [x, y, x + s, y],
    2: [x + s, y, x + s, y + s],
    4: [x, y + s, x + s, y + s],
    6: [x, y, x, y + s],
  }[direction];
  return ends;
}

function line(cls, [x1, y1, x2, y2]) {
  return `<line class="${cls}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
}

// -- one tile on its own (the pool, the face choice) -------------------------------------------------------------

/** A tile as it lies with ``turns`` quarter turns, as an <svg> of its own (``size`` pixels wide). */
export function tileSvg(tile, face, turns, size = 66, label = "") {
  const s = 20;
  const p = 3;
  const parts = [];
  const cellAt = new Map(); // turned cell -> canonical cell
  for (let cell = 0; cell < 9; cell += 1) cellAt.set(rotateCell(cell, turns), cell);
  for (let placed = 0; placed < 9; placed += 1) {
    const cell = cellAt.get(placed);
    const x = p + (placed % 3) * s;
    const y = p + Math.floor(placed / 3) * s;
    parts.push(`<rect class="k-floor" x="${x}" y="${y}" width="${s}" height="${s}"/>`);
    if (tile.blocks.has(cell)) parts.push(blockMark(x, y, s));
    else if (cell === tile.logo) parts.push(logoMark(x, y, s, turns));
    else if (cell === tile.paltik) parts.push(paltikMark(x, y, s, tile.faces[face].paltik === "light"));
    else if (tile.tapos.has(cell)) parts.push(taposMark(x, y, s));
  }
  for (let r = 1; r < 3; r += 1) {
    parts.push(line("k-grid", [p, p + r * s, p + 3 * s, p + r * s]));
    parts.push(line("k-grid", [p + r * s, p, p + r * s, p + 3 * s]));
  }
  parts.push(`<rect class="k-tile-edge" x="${p}" y="${p}" width="${3 * s}" height="${3 * s}"/>`);
  for (const [cell, direction] of tile.faces[face].walls) {
    const placed = rotateCell(cell, turns);
    const turned = (direction + 2 * turns) % 8;
    const x = p + (placed % 3) * s;
    const y = p + Math.floor(placed / 3) * s;
    parts.push(line("k-wall", side(x, y, s, turned)));
  }
  for (const direction of BORDER_SIDES[tile.kind] || []) {
    const turned = (direction + 2 * turns) % 8;
    parts.push(line("k-border", side(p, p, 3 * s, turned)));
  }
  const box = 3 * s + 2 * p;
  const title = label ? `<title>${esc(label)}</title>` : "";
  return `<svg class="k-tile-pic" viewBox="0 0 ${box} ${box}" width="${size}" height="${size}" role="img" aria-label="${esc(label)}">${title}${parts.join("")}</svg>`;
}

// -- yellow cards ----------------------------------------------------------------------------------------------

// Where each card position (N NE E SE S SW W NW) sits in a 3-by-3 picture, as [row, column].
const PLACE = [[0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0], [1, 0], [0, 0]];

/** A yellow card's 3-by-3 picture: the logo in the middle (its arrow ``turns`` quarter turns from up), and for
 * each entry {cell: [row, col], wanted: "light"|"dark", shows: true|false|null} the state asked for, with a tick
 * or a cross when ``shows`` says whether the chamber agrees. ``slots`` names the squares (e.g. slot names). */
export function codeSvg(entries, turns, { size = 96, label = "", slots = null, cls = "" } = {}) {
  const s = 30;
  const p = 2;
  const parts = [`<rect class="k-card-bg" x="0" y="0" width="${3 * s + 2 * p}" height="${3 * s + 2 * p}" rx="6"/>`];
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 3; c += 1) {
      const x = p + c * s;
      const y = p + r * s;
      parts.push(`<rect class="k-card-cell" x="${x + 1.5}" y="${y + 1.5}" width="${s - 3}" height="${s - 3}" rx="4"/>`);
      if (slots && !(r === 1 && c === 1)) {
        parts.push(`<text class="k-card-slot" x="${x + 4}" y="${y + 9}">${esc(slots[r * 3 + c])}</text>`);
      }
    }
  }
  parts.push(logoMark(p + s, p + s, s, turns));
  for (const entry of entries) {
    const [r, c] = entry.cell;
    const x = p + c * s;
    const y = p + r * s;
    const light = entry.wanted === "light";
    const cx = x + s / 2 + (slots ? 2 : 0);
    const cy = y + s / 2 + (slots ? 3 : 1);
    parts.push(
      `<circle class="k-paltik ${light ? "is-light" : "is-dark"}" cx="${cx}" cy="${cy}" r="${s * (slots ? 0.26 : 0.3)}"/>` +
        `<text class="k-card-state ${light ? "on-light" : "on-dark"}" x="${cx}" y="${cy}" dy="0.35em">${light ? "L" : "D"}</text>`,
    );
    if (entry.shows === true) {
      parts.push(`<path class="k-ok" d="M${x + s - 11} ${y + s - 7}l3 3l6 -7"/>`);
    } else if (entry.shows === false) {
      parts.push(`<path class="k-bad" d="M${x + s - 11} ${y + s - 11}l7 7M${x + s - 4} ${y + s - 11}l-7 7"/>`);
    }
  }
  const box = 3 * s + 2 * p;
  return `<svg class="k-code ${cls}" viewBox="0 0 ${box} ${box}" width="${size}" height="${size}" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${parts.join("")}</svg>`;
}

/** Entries for ``codeSvg`` as the card is printed (positions around an upright logo). */
export function printedEntries(code, shows = () => null) {
  return Object.entries(code || {}).map(([name, wanted]) => {
    const position = DIRECTIONS.indexOf(name);
    return { cell: PLACE[position], wanted, shows: shows(position) };
  });
}

// -- the chamber -----------------------------------------------------------------------------------------------

/**
 * The board. ``onPick({square, slot})`` is called for a click (or Enter) on a square, ``onHover(square|null)`` when
 * a mouse or pen comes onto another square (or leaves the chamber); ``render(view)`` draws:
 * view = {layout, diwa: Map square -> colour, mine: colour|null, current: colour|null, locks: Map slot -> colour|null,
 *         targets: Map square -> {kind, label}, slotTargets: Map slot -> {kind, label}, selected: Set of squares,
 *         selectedSlots: Set of slots, ghost: {slot, tile, face, turns, flip}|null, flipRings: Set of squares,
 *         slotLabel(slot), squareLabel(square)}
 */
/** What a square of the chamber holds, as [sign, direction?] pairs: its paltik, tapos, logo or block, and the
 * walls on its sides (north, east, south, west). */
function squareSigns(layout, square) {
  const signs = [];
  const paltik = layout.paltik.get(square);
  if (paltik) signs.push([paltik.light ? "light" : "dark"]);
  if (layout.logo === square) signs.push(["logo"]);
  else if (layout.tapos.has(square)) signs.push(["tapos"]);
  if (layout.blocked.has(square)) signs.push(["block"]);
  for (const [direction, name] of [[0, "N"], [2, "E"], [4, "S"], [6, "W"]]) {
    if (layout.walls.has(`${square}:${direction}`)) signs.push(["wall", name]);
  }
  return signs;
}

const TURN_MS = 300; // a tile turning over
const STEP_MS = 150; // a diwa's step to the next square; a whole walk takes 200 to 400 ms
const WALK_MS = [200, 400];
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");

export class Board {
  constructor(parent, onPick, labels) {
    this.onPick = onPick;
    this.labels = labels;
    this.id = `kb${(uid += 1)}`;
    this.svg = document.createElementNS(NS, "svg");
    this.svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
    this.svg.setAttribute("class", "k-board");
    this.svg.setAttribute("role", "group");
    this.static = document.createElementNS(NS, "g");
    this.pieces = document.createElementNS(NS, "g");
    this.pieces.setAttribute("class", "k-pieces");
    this.overlay = document.createElementNS(NS, "g");
    this.motion = document.createElementNS(NS, "g"); // what moves a moment over the chamber: a tile turning over
    this.motion.setAttribute("class", "k-motion");
    this.motion.setAttribute("aria-hidden", "true");
    this.faces = null; // each slot's face as last drawn
    this.svg.append(this.static, this.motion, this.pieces, this.overlay);
    this.diwaNodes = new Map();
    this.walking = new Set(); // the diwa's walks under way (Animations)
    parent.append(this.svg);
    // on a narrow screen the chamber takes the whole width, its coordinates inside the edge squares, so that a
    // square is as big as a fingertip
    this.narrow = false;
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => this.fit(parent.clientWidth)).observe(parent);
    }
    this.fit(parent.clientWidth);
    this.svg.addEventListener("click", (event) => this.pick(event));
    this.hovered = null; // the square under a mouse or pen (a finger has no hover)
    this.onHover = null;
    this.svg.addEventListener("pointermove", (event) => this.hover(event.pointerType === "touch" ? null : this.squareAt(event)));
    this.svg.addEventListener("pointerleave", () => this.hover(null));
    this.svg.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.pick(event);
      }
    });
  }

  /** The chamber alone (no margin) below ``NARROW`` pixels of width, else with its coordinates around it. */
  fit(width) {
    const narrow = width > 0 && width < NARROW;
    if (narrow === this.narrow && this.svg.hasAttribute("viewBox")) return;
    this.narrow = narrow;
    this.svg.setAttribute("viewBox", narrow ? `${M} ${M} ${9 * S} ${9 * S}` : `0 0 ${SIZE} ${SIZE}`);
    this.svg.classList.toggle("is-narrow", narrow);
  }

  /** The square under a pointer event, or null outside the chamber. */
  squareAt(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const at = point.matrixTransform(matrix.inverse());
    const col = Math.floor((at.x - M) / S);
    const row = Math.floor((at.y - M) / S);
    return col < 0 || col > 8 || row < 0 || row > 8 ? null : row * 9 + col;
  }

  hover(square) {
    if (square === this.hovered) return;
    this.hovered = square;
    if (this.onHover) this.onHover(square);
  }

  pick(event) {
    const slotNode = event.target.closest("[data-slot]");
    if (slotNode) {
      this.onPick({ slot: SLOTS.indexOf(slotNode.dataset.slot), square: null });
      return;
    }
    const node = event.target.closest("[data-sq]");
    if (!node) {
      const square = this.squareAt(event);
      if (square !== null) this.onPick({ square, slot: null });
      return;
    }
    const square = (9 - Number(node.dataset.sq[1])) * 9 + FILES.indexOf(node.dataset.sq[0]);
    this.onPick({ square, slot: null });
  }

  render(view) {
    const layout = view.layout;
    const parts = [];
    parts.push(`<defs><pattern id="${this.id}-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="8" class="k-hatch"/></pattern></defs>`);
    parts.push(`<rect class="k-board-bg" x="0" y="0" width="${SIZE}" height="${SIZE}" rx="10"/>`);
    // the squares
    for (let square = 0; square < 81; square += 1) {
      const [x, y] = xy(square);
      const slot = Math.floor(square / 27) * 3 + Math.floor((square % 9) / 3);
      if (!layout.placed[slot]) continue;
      // each square says what is on it: "c4: light paltik, wall to the north"
      const label = view.squareLabel ? view.squareLabel(squareName(square), squareSigns(layout, square)) : squareName(square);
      parts.push(`<rect class="k-floor" data-sq="${squareName(square)}" role="img" aria-label="${esc(label)}" x="${x}" y="${y}" width="${S}" height="${S}"/>`);
    }
    // empty slots
    SLOTS.forEach((name, slot) => {
      if (layout.placed[slot]) return;
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      parts.push(`<rect class="k-empty-slot k-empty-${SLOT_KIND[slot]}" x="${x + 3}" y="${y + 3}" width="${3 * S - 6}" height="${3 * S - 6}" rx="6"/>`);
      if (!view.ghost || view.ghost.slot !== slot) {
        parts.push(`<text class="k-slot-name" x="${x + 1.5 * S}" y="${y + 1.5 * S}" dy="0.35em">${esc(view.slotLabel(slot))}</text>`);
      }
    });
    // faint lines between the squares of each placed tile
    layout.placed.forEach((placed, slot) => {
      if (!placed) return;
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      for (let k = 1; k < 3; k += 1) {
        parts.push(line("k-grid", [x + k * S, y, x + k * S, y + 3 * S]));
        parts.push(line("k-grid", [x, y + k * S, x + 3 * S, y + k * S]));
      }
    });
    // blocks, tapos, paltik, the logo
    for (const square of layout.blocked) {
      const [x, y] = xy(square);
      parts.push(blockMark(x, y, S));
    }
    for (const square of layout.tapos) {
      if (square === layout.logo) continue;
      const [x, y] = xy(square);
      parts.push(taposMark(x, y, S));
    }
    for (const [square, { light }] of layout.paltik) {
      const [x, y] = xy(square);
      parts.push(paltikMark(x, y, S, light));
      if (view.flipRings && view.flipRings.has(square)) {
        parts.push(flipMark(x, y, S));
      }
    }
    if (layout.logo !== null) {
      const [x, y] = xy(layout.logo);
      parts.push(logoMark(x, y, S, layout.logoTurns));
    }
    // seams between placed tiles
    for (let k = 1; k < 3; k += 1) {
      parts.push(line("k-seam", [M + k * 3 * S, M, M + k * 3 * S, M + 9 * S]));
      parts.push(line("k-seam", [M, M + k * 3 * S, M + 9 * S, M + k * 3 * S]));
    }
    // thick lines
    const drawn = new Set();
    for (const key of layout.walls) {
      const [square, direction] = key.split(":").map(Number);
      const other = neighbour(square, direction);
      const norm = other >= 0 && (direction === 2 || direction === 4) ? `${other}:${(direction + 4) % 8}` : key;
      if (drawn.has(norm)) continue;
      drawn.add(norm);
      const [x, y] = xy(square);
      parts.push(line("k-wall", side(x, y, S, direction)));
    }
    // the yellow border of every placed border tile
    layout.placed.forEach((placed, slot) => {
      if (!placed) return;
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      for (const direction of BORDER_SIDES[placed.tile.kind] || []) {
        parts.push(line("k-border", side(x, y, 3 * S, (direction + 2 * placed.turns) % 8)));
      }
    });
    // a tile being placed (preview)
    if (view.ghost) parts.push(this.ghost(view.ghost));
    // locks
    for (const [slot, colour] of view.locks) {
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      parts.push(`<rect class="k-lock-veil" x="${x}" y="${y}" width="${3 * S}" height="${3 * S}" fill="url(#${this.id}-hatch)"/>`);
      parts.push(`<rect class="k-lock-edge" x="${x + 2}" y="${y + 2}" width="${3 * S - 4}" height="${3 * S - 4}" rx="4"/>`);
      // the badge sits on the tile's corner nearest the middle of the chamber, over the seam
      const middle = M + 4.5 * S;
      const corners = [[x, y], [x + 3 * S, y], [x, y + 3 * S], [x + 3 * S, y + 3 * S]];
      const [bx, by] = corners.reduce((best, c) => (Math.hypot(c[0] - middle, c[1] - middle) < Math.hypot(best[0] - middle, best[1] - middle) - 0.5 ? c : best));
      const w = colour ? 40 : 22;
      parts.push(`<g class="k-lock-badge"><rect x="${bx - w / 2}" y="${by - 11}" width="${w}" height="22" rx="11"/>`);
      const lx = bx - w / 2 + 4;
      parts.push(`<g class="k-lock"><rect x="${lx}" y="${by - 3}" width="13" height="10" rx="2"/><path d="M${lx + 3} ${by - 3}v-2.5a3.5 3.5 0 0 1 7 0v2.5"/></g>`);
      if (colour) parts.push(diwaChip(bx + 1, by - 9, 18, colour, "k-lock-chip"));
      parts.push("</g>");
    }
    // coordinates: around the chamber, and small inside its edge squares for a narrow screen (see fit)
    for (let i = 0; i < 9; i += 1) {
      parts.push(`<text class="k-coord-in" x="${M + i * S + S - 3}" y="${M + 9 * S - 3}">${FILES[i]}</text>`);
      parts.push(`<text class="k-coord-in k-coord-rank" x="${M + 3}" y="${M + i * S + 9}">${9 - i}</text>`);
    }
    for (let i = 0; i < 9; i += 1) {
      const cx = M + i * S + S / 2;
      parts.push(`<text class="k-coord" x="${cx}" y="${M / 2}" dy="0.35em">${FILES[i]}</text>`);
      parts.push(`<text class="k-coord" x="${cx}" y="${SIZE - M / 2}" dy="0.35em">${FILES[i]}</text>`);
      const cy = M + i * S + S / 2;
      parts.push(`<text class="k-coord" x="${M / 2}" y="${cy}" dy="0.35em">${9 - i}</text>`);
      parts.push(`<text class="k-coord" x="${SIZE - M / 2}" y="${cy}" dy="0.35em">${9 - i}</text>`);
    }
    this.static.innerHTML = parts.join("");
    this.turnOver(layout);
    this.renderDiwa(view);
    this.renderTargets(view);
  }

  /** A tile whose face changed since the last drawing turns over: a panel over it folds away (300 ms, none
   * under prefers-reduced-motion); a newer drawing ends the one before. */
  turnOver(layout) {
    const faces = layout.placed.map((placed) => (placed ? `${placed.tile.id}:${placed.face}` : null));
    const before = this.faces;
    this.faces = faces;
    for (const running of this.motion.getAnimations({ subtree: true })) running.finish();
    if (!before || STILL.matches) return;
    faces.forEach((face, slot) => {
      if (!face || !before[slot] || before[slot] === face || before[slot].split(":")[0] !== face.split(":")[0]) return;
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      const panel = document.createElementNS(NS, "rect");
      for (const [name, value] of Object.entries({ class: "k-turning", x, y, width: 3 * S, height: 3 * S, rx: 4 })) panel.setAttribute(name, String(value));
      panel.dataset.slot = SLOTS[slot];
      this.motion.append(panel);
      const turning = panel.animate([{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }], { duration: TURN_MS, easing: "ease-in" });
      turning.onfinish = turning.oncancel = () => panel.remove();
    });
  }

  ghost({ slot, tile, face, turns, flip = false }) {
    const x0 = M + (slot % 3) * 3 * S;
    const y0 = M + Math.floor(slot / 3) * 3 * S;
    const marks = flip ? ` is-flip" data-testid="flip-ghost" data-slot="${SLOTS[slot]}" data-face="${"AB"[face]}` : "";
    const parts = [`<g class="k-ghost${marks}">`];
    const cellAt = new Map();
    for (let cell = 0; cell < 9; cell += 1) cellAt.set(rotateCell(cell, turns), cell);
    for (let placed = 0; placed < 9; placed += 1) {
      const cell = cellAt.get(placed);
      const x = x0 + (placed % 3) * S;
      const y = y0 + Math.floor(placed / 3) * S;
      parts.push(`<rect class="k-floor" x="${x}" y="${y}" width="${S}" height="${S}"/>`);
      if (tile.blocks.has(cell)) parts.push(blockMark(x, y, S));
      else if (cell === tile.logo) parts.push(logoMark(x, y, S, turns));
      else if (cell === tile.paltik) parts.push(paltikMark(x, y, S, tile.faces[face].paltik === "light"));
      else if (tile.tapos.has(cell)) parts.push(taposMark(x, y, S));
    }
    for (const [cell, direction] of tile.faces[face].walls) {
      const placed = rotateCell(cell, turns);
      const x = x0 + (placed % 3) * S;
      const y = y0 + Math.floor(placed / 3) * S;
      parts.push(line("k-wall", side(x, y, S, (direction + 2 * turns) % 8)));
    }
    for (const direction of BORDER_SIDES[tile.kind] || []) {
      parts.push(line("k-border", side(x0, y0, 3 * S, (direction + 2 * turns) % 8)));
    }
    parts.push(`<rect class="k-ghost-edge" x="${x0 + 1.5}" y="${y0 + 1.5}" width="${3 * S - 3}" height="${3 * S - 3}" rx="3"/>`);
    parts.push("</g>");
    return parts.join("");
  }

  renderDiwa(view) {
    const seen = new Set();
    for (const [square, colour] of view.diwa) {
      seen.add(colour);
      let node = this.diwaNodes.get(colour);
      if (!node) {
        node = document.createElementNS(NS, "g");
        node.innerHTML = `<circle class="k-diwa-halo" cx="0" cy="0" r="${S * 0.47}"/>` + diwaChip(-S / 2, -S / 2, S, colour);
        this.pieces.append(node);
        this.diwaNodes.set(colour, node);
      }
      const [x, y] = xy(square);
      node.style.transform = `translate(${x + S / 2}px, ${y + S / 2}px)`;
      node.setAttribute("class", `k-piece k-piece-${colour}${colour === view.mine ? " is-mine" : ""}${colour === view.current ? " is-current" : ""}`);
      node.dataset.colour = colour;
      node.dataset.square = squareName(square);
    }
    for (const [colour, node] of this.diwaNodes) {
      if (!seen.has(colour)) {
        node.remove();
        this.diwaNodes.delete(colour);
      }
    }
  }

  /** Each diwa of ``walks`` (colour -> [{square, jump}, …], see walks.js) goes square by square from where it
   * stood to where it is now drawn; a jump rises over what lies between. Nothing moves under reduced motion. */
  walk(walks) {
    if (STILL.matches) return;
    for (const [colour, path] of walks) {
      const node = this.diwaNodes.get(colour);
      if (!node || path.length < 2) continue;
      const frames = [];
      const at = ({ square }, lift = 1) => {
        const [x, y] = xy(square);
        return `translate(${x + S / 2}px, ${y + S / 2}px) scale(${lift})`;
      };
      const share = 1 / (path.length - 1);
      path.forEach((stop, index) => {
        if (index > 0 && stop.jump) {
          const [x0, y0] = xy(path[index - 1].square);
          const [x1, y1] = xy(stop.square);
          const middle = `translate(${(x0 + x1) / 2 + S / 2}px, ${(y0 + y1) / 2 + S / 2}px) scale(1.3)`;
          frames.push({ transform: middle, offset: (index - 0.5) * share });
        }
        frames.push({ transform: at(stop), offset: index * share, easing: "ease-in-out" });
      });
      const duration = Math.min(WALK_MS[1], Math.max(WALK_MS[0], STEP_MS * (path.length - 1)));
      const motion = node.animate(frames, { duration });
      this.walking.add(motion);
      motion.onfinish = motion.oncancel = () => this.walking.delete(motion);
    }
  }

  /** Every walk under way ends now: each diwa stands where it went. */
  land() {
    for (const motion of [...this.walking]) motion.finish();
  }

  renderTargets(view) {
    const active = document.activeElement;
    const focused = active && this.overlay.contains(active) ? active.getAttribute("data-sq") || active.getAttribute("data-slot") : null;
    const parts = [];
    for (const square of view.selected || []) {
      const [x, y] = xy(square);
      parts.push(`<rect class="k-selected" x="${x + 2}" y="${y + 2}" width="${S - 4}" height="${S - 4}" rx="6"/>`);
    }
    for (const slot of view.selectedSlots || []) {
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      parts.push(`<rect class="k-selected-slot" x="${x + 3}" y="${y + 3}" width="${3 * S - 6}" height="${3 * S - 6}" rx="6"/>`);
    }
    for (const [slot, { kind, label }] of view.slotTargets || []) {
      const x = M + (slot % 3) * 3 * S;
      const y = M + Math.floor(slot / 3) * 3 * S;
      parts.push(`<rect class="k-slot-target k-t-${kind}" data-slot="${SLOTS[slot]}" tabindex="0" role="button" aria-label="${esc(label)}" x="${x + 4}" y="${y + 4}" width="${3 * S - 8}" height="${3 * S - 8}" rx="6"><title>${esc(label)}</title></rect>`);
    }
    for (const [square, { kind, label }] of view.targets || []) {
      const [x, y] = xy(square);
      const name = squareName(square);
      // the hit area reaches a little past the square, so that a fingertip's target is at least 44 px on a phone
      const hit = `<rect class="k-hit" x="${x - HIT}" y="${y - HIT}" width="${S + 2 * HIT}" height="${S + 2 * HIT}"/>`;
      parts.push(`<g class="k-target k-t-${kind}" data-sq="${name}" data-kind="${kind}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title>${hit}<rect x="${x + 3}" y="${y + 3}" width="${S - 6}" height="${S - 6}" rx="7"/><circle cx="${x + S / 2}" cy="${y + S / 2}" r="${S * 0.09}"/></g>`);
    }
    this.overlay.innerHTML = parts.join("");
    if (focused) {
      // keep the keyboard where it was when the same target is still there
      const again = this.overlay.querySelector(`[data-sq="${focused}"], [data-slot="${focused}"]`);
      if (again) again.focus();
    }
  }

  destroy() {
    this.svg.remove();
  }
}
