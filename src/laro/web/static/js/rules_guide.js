// "In the browser": what a player clicks at the table, with pictures drawn by the games' own code — a card, a tile
// with its paltik on both faces, a yellow card as printed and as it reads on the chamber. Shown above the rules
// on /rules/{game}; the terminal's commands stay in the terminal's `help`.

import { h } from "./dom.js";

const STEPS = { lama: ["play", "draw", "quit", "end"], kamara: ["setup", "move", "flip", "match", "green", "end"] };

function steps(game, t) {
  const items = (STEPS[game] || []).map((step) => h("li", {}, t(`guide.${game}.${step}`)));
  return h("ul", { class: "guide-steps" }, items, h("li", { dataset: { testid: "guide-clock" } }, t("guide.clock")));
}

function pictureSpan(markup) {
  const span = h("span", { class: "guide-cards" });
  span.innerHTML = markup; // drawn by the game's own SVG code from the public component data
  return span;
}

function figure(picture, caption) {
  return h("figure", { class: "guide-fig" }, picture, h("figcaption", {}, caption));
}

async function lamaPictures(t) {
  const { llamaSvg } = await import("./games/lama.js");
  const card = (rank, art = null) =>
    h("span", { class: `card face v${rank} big`, role: "img", "aria-label": rank }, h("span", { class: "corner tl" }, rank), art || h("span", { class: "face-num" }, rank), h("span", { class: "corner br" }, rank));
  return [
    figure(h("span", { class: "guide-cards" }, card("3"), card("4")), t("guide.lama.pic_follow")),
    figure(h("span", { class: "guide-cards" }, card("6"), card("L", h("span", { class: "face-art" }, llamaSvg()))), t("guide.lama.pic_llama")),
  ];
}

async function kamaraPictures(t) {
  const [{ tileSvg, codeSvg, printedEntries }, { readTiles, readCode, SLOTS }] = await Promise.all([import("./games/kamara/board.js"), import("./games/kamara/geometry.js")]);
  const data = await (await fetch("/api/games/kamara/components")).json();
  const tiles = readTiles(data.components && data.components.tiles);
  const tile = tiles.get("sulok") || [...tiles.values()][0];
  const card = ((data.components && data.components.yellow_cards && data.components.yellow_cards.cards) || [])[0];
  const pictures = [];
  if (tile) {
    const faces = pictureSpan(`${tileSvg(tile, 0, 0, 90, `${tile.id} A`)}${tileSvg(tile, 1, 0, 90, `${tile.id} B`)}`);
    pictures.push(figure(faces, t("guide.kamara.pic_tile", { tile: tile.id })));
  }
  if (card) {
    const turned = readCode(card.code, { logoTurns: 1, light: new Map() }).map((entry) => ({ cell: [Math.floor(entry.slot / 3), entry.slot % 3], wanted: entry.wanted, shows: null }));
    const both = `${codeSvg(printedEntries(card.code), 0, { size: 96, label: card.id })}${codeSvg(turned, 1, { size: 96, slots: SLOTS, label: card.id })}`;
    pictures.push(figure(pictureSpan(both), t("guide.kamara.pic_card", { card: card.id })));
  }
  return pictures;
}

/** The section for `game` (null for a game without one); its pictures are filled in once drawn. */
export function guideSection(game, t) {
  if (!STEPS[game]) return null;
  const scope = game === "kamara" ? " kamara" : ""; // the Kamara drawings take their colours inside .kamara
  const pictures = h("div", { class: `guide-pictures${scope}`, dataset: { testid: "guide-pictures" } });
  const section = h("section", { class: "panel rules-guide", dataset: { testid: "guide" } }, h("h2", {}, t("guide.title")), steps(game, t), pictures);
  const draw = game === "lama" ? lamaPictures : kamaraPictures;
  draw(t)
    .then((figures) => pictures.append(...figures))
    .catch((error) => console.error(error)); // the text stands without its pictures
  return section;
}
