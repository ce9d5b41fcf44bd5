// The way each diwa went between two states, read from the actions of the log in between: a Move, a Poke, a
// Tagos step go to the next square, a Tulak pushes a diwa one square and then the next; a Port, a Tawag and a
// Lipat jump (the rules move them straight there, across whatever lies between). Tiles turned or swapped with a
// diwa on them, or actions the log leaves out, end in a jump from where the diwa stood to where it stands.
//
//   diwaWalks(entries, before, after, colours) -> Map colour -> [{square, jump}, …]  (first: where it stood)

import { DIRECTIONS, neighbour, squareIndex } from "./geometry.js";

function stepTo(square, direction) {
  return neighbour(square, DIRECTIONS.indexOf(direction));
}

/**
 * ``entries``: the log's actions since the state before (in order); ``before`` and ``after``: the observations'
 * diwa (colour -> square name); ``colours``: each seat's colour. Only diwa that moved have a walk.
 */
export function diwaWalks(entries, before, after, colours) {
  const at = new Map(Object.entries(before || {}).map(([colour, name]) => [colour, squareIndex(name)]));
  const walks = new Map([...at].map(([colour, square]) => [colour, [{ square, jump: false }]]));
  const go = (colour, square, jump) => {
    if (!walks.has(colour) || square < 0) return;
    at.set(colour, square);
    walks.get(colour).push({ square, jump });
  };
  for (const entry of entries) {
    const words = String(entry.action || "").split(" ");
    const own = (colours || [])[entry.seat];
    const [verb, effect] = words;
    if (verb === "move") go(own, stepTo(at.get(own), words[1]), false);
    else if (verb === "poke") go(words[1], squareIndex(words[2]), false);
    else if (verb === "port") go(own, squareIndex(words[1]), true);
    else if (verb === "play" && effect === "tagos") go(own, stepTo(at.get(own), words[2]), false);
    else if (verb === "play" && effect === "tawag") go(own, squareIndex(words[2]), true);
    else if (verb === "play" && effect === "tulak") {
      for (const direction of words.slice(3)) go(words[2], stepTo(at.get(words[2]), direction), false);
    } else if (verb === "play" && effect === "lipat") {
      const [mine, theirs] = [at.get(own), at.get(words[2])];
      go(own, theirs, true);
      go(words[2], mine, true);
    }
  }
  const moved = new Map();
  for (const [colour, name] of Object.entries(after || {})) {
    const walk = walks.get(colour);
    if (!walk) continue; // newly placed: it appears
    const end = squareIndex(name);
    if (walk[walk.length - 1].square !== end) walk.push({ square: end, jump: true }); // rode a tile, or unknown
    if (walk.length > 1) moved.set(colour, walk);
  }
  return moved;
}
