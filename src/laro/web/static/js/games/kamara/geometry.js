// Kamara's chamber geometry, as the engine defines it (src/laro/games/kamara/chamber.py):
// squares are numbered row * 9 + column with row 0 the north rank (9) and column 0 file "a";
// slots NW N NE / W C E / SW S SE are 0..8; a tile's canonical cell (r, c) turned a quarter clockwise is (c, 2 - r).

export const SLOTS = ["NW", "N", "NE", "W", "C", "E", "SW", "S", "SE"];
export const CENTRE = 4;
export const SLOT_KIND = ["corner", "edge", "corner", "edge", "centre", "edge", "corner", "edge", "corner"];
// Border tiles are turned so that their yellow edges face out (quarter turns clockwise).
export const OUTWARD = [0, 0, 1, 3, 0, 1, 3, 2, 2];
export const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
export const DELTAS = [[-1, 0], [-1, 1], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1]];
// The slot at each of the eight positions around the centre, in DIRECTIONS order.
export const POSITION_SLOT = [1, 2, 5, 8, 7, 6, 3, 0];
export const FILES = "abcdefghi";
export const COLOURS = ["red", "blue", "orange", "purple", "pink", "white", "black", "teal"];
// The same letters as the terminal board: pinK, blacK is X, Teal.
export const LETTERS = { red: "R", blue: "B", orange: "O", purple: "P", pink: "K", white: "W", black: "X", teal: "T" };
const SIDE_DIRECTION = { N: 0, E: 2, S: 4, W: 6 };
export const BORDER_SIDES = { centre: [], corner: [0, 6], edge: [0] }; // canonical yellow edges

export function squareName(square) {
  return `${FILES[square % 9]}${9 - Math.floor(square / 9)}`;
}

export function squareIndex(name) {
  return (9 - Number(name[1])) * 9 + FILES.indexOf(name[0]);
}

export function slotOfSquare(square) {
  return Math.floor(square / 27) * 3 + Math.floor((square % 9) / 3);
}

export function rotateCell(cell, turns) {
  let row = Math.floor(cell / 3);
  let col = cell % 3;
  for (let i = 0; i < ((turns % 4) + 4) % 4; i += 1) {
    [row, col] = [col, 2 - row];
  }
  return row * 3 + col;
}

export function placedSquare(slot, cell, turns) {
  const turned = rotateCell(cell, turns);
  return (Math.floor(slot / 3) * 3 + Math.floor(turned / 3)) * 9 + (slot % 3) * 3 + (turned % 3);
}

export function neighbour(square, direction) {
  const row = Math.floor(square / 9) + DELTAS[direction][0];
  const col = (square % 9) + DELTAS[direction][1];
  return row >= 0 && row < 9 && col >= 0 && col < 9 ? row * 9 + col : -1;
}

/** The direction from one square to a neighbouring one (-1 when they are not neighbours). */
export function directionTo(from, to) {
  const dr = Math.floor(to / 9) - Math.floor(from / 9);
  const dc = (to % 9) - (from % 9);
  return DELTAS.findIndex(([r, c]) => r === dr && c === dc);
}

function parseWall(text) {
  const side = /^([NESW])([0-2])$/.exec(text);
  if (side) {
    const direction = SIDE_DIRECTION[side[1]];
    const index = Number(side[2]);
    const [row, col] = { 0: [0, index], 2: [index, 2], 4: [2, index], 6: [index, 0] }[direction];
    return [[row * 3 + col, direction]];
  }
  const inner = /^([0-2]),([0-2])-([0-2]),([0-2])$/.exec(text);
  if (!inner) return [];
  const [r1, c1, r2, c2] = inner.slice(1).map(Number);
  for (const direction of [0, 2, 4, 6]) {
    const [dr, dc] = DELTAS[direction];
    if (r1 + dr === r2 && c1 + dc === c2) {
      return [[r1 * 3 + c1, direction], [r2 * 3 + c2, (direction + 4) % 8]];
    }
  }
  return [];
}

/** The tiles of a component set (tiles.json), by id: kind, blocks, paltik, tapos, logo and both faces. */
export function readTiles(data) {
  const tiles = new Map();
  for (const item of (data && data.tiles) || []) {
    const cells = item.grid.join("");
    const face = (label) => {
      const spec = (item.faces && item.faces[label]) || {};
      return { walls: (spec.walls || []).flatMap(parseWall), paltik: spec.paltik || null };
    };
    tiles.set(item.id, {
      id: item.id,
      kind: item.kind,
      blocks: new Set([...cells].flatMap((ch, i) => (ch === "#" ? [i] : []))),
      paltik: cells.indexOf("P") >= 0 ? cells.indexOf("P") : null,
      tapos: new Set([...cells].flatMap((ch, i) => (ch === "T" || ch === "K" ? [i] : []))),
      logo: cells.indexOf("K") >= 0 ? cells.indexOf("K") : null,
      faces: [face("A"), face("B")],
    });
  }
  return tiles;
}

/** Everything the chamber shows of the placed tiles: walls (half-edges "square:direction"), blocks, paltik
 * (square -> {slot, light}), tapos, the logo and which way it points, and per slot what lies there. */
export function chamberLayout(tilesObs, tiles) {
  const layout = {
    walls: new Set(),
    blocked: new Set(),
    paltik: new Map(),
    paltikOfSlot: new Map(),
    tapos: new Set(),
    logo: null,
    logoTurns: 0,
    placed: SLOTS.map(() => null),
    light: new Map(),
  };
  SLOTS.forEach((name, slot) => {
    const here = tilesObs && tilesObs[name];
    if (!here) return;
    const tile = tiles.get(here.tile);
    if (!tile) return;
    const faceIndex = here.face === "B" ? 1 : 0;
    const turns = Math.round((here.rotation || 0) / 90) % 4;
    const face = tile.faces[faceIndex];
    layout.placed[slot] = { tile, face: faceIndex, turns, id: tile.id };
    for (const cell of tile.blocks) layout.blocked.add(placedSquare(slot, cell, turns));
    for (const cell of tile.tapos) layout.tapos.add(placedSquare(slot, cell, turns));
    if (tile.paltik !== null) {
      const square = placedSquare(slot, tile.paltik, turns);
      const light = face.paltik === "light";
      layout.paltik.set(square, { slot, light });
      layout.paltikOfSlot.set(slot, square);
      layout.light.set(slot, light);
    }
    if (tile.logo !== null) {
      layout.logo = placedSquare(slot, tile.logo, turns);
      layout.logoTurns = turns;
    }
    for (const [cell, direction] of face.walls) {
      const square = placedSquare(slot, cell, turns);
      const turned = (direction + 2 * turns) % 8;
      layout.walls.add(`${square}:${turned}`);
      const other = neighbour(square, turned);
      if (other >= 0) layout.walls.add(`${other}:${(turned + 4) % 8}`);
    }
  });
  return layout;
}

/** Why a Move step from ``square`` in ``direction`` is not possible (a reason key), or null when it is;
 * ``occupied`` is a set of squares holding a diwa (empty for "one legal step" as poke counts it). */
export function stepProblem(layout, square, direction, occupied) {
  const target = neighbour(square, direction);
  if (target < 0) return "border";
  if (layout.blocked.has(target)) return "block";
  if (direction % 2 === 0) {
    if (layout.walls.has(`${square}:${direction}`)) return "wall";
  } else {
    if (slotOfSquare(square) !== slotOfSquare(target)) return "diagonal_tile";
    const [dr, dc] = DELTAS[direction];
    const vertical = dr < 0 ? 0 : 4;
    const horizontal = dc > 0 ? 2 : 6;
    const sideV = square + 9 * dr;
    const sideH = square + dc;
    if (layout.blocked.has(sideV) || layout.blocked.has(sideH)) return "diagonal_block";
    const touching = [[square, vertical], [square, horizontal], [sideV, horizontal], [sideH, vertical]];
    if (touching.some(([sq, d]) => layout.walls.has(`${sq}:${d}`))) return "diagonal_wall";
  }
  if (occupied && occupied.has(target)) return "occupied";
  return null;
}

/** The slot a yellow card position names, read from the logo's up arrow. */
export function slotOfPosition(position, logoTurns) {
  return POSITION_SLOT[(position + 2 * logoTurns) % 8];
}

/** A card's code against the chamber: per shown position the slot, the wanted state and whether it shows. */
export function readCode(code, layout) {
  return Object.entries(code || {}).map(([name, wanted]) => {
    const position = DIRECTIONS.indexOf(name);
    const slot = slotOfPosition(position, layout.logoTurns);
    const light = layout.light.has(slot) ? layout.light.get(slot) : null;
    return { position, name, wanted, slot, shows: light === null ? null : light === (wanted === "light") };
  });
}
