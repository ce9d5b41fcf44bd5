// Small helpers for building the Kamara table's HTML.

import { diwaChip } from "./board.js";

/** An element with attributes (class, html, dataset, on<event> handlers, others as attributes) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** ``text`` with each {name} replaced by params.name. */
export function fill(text, params = {}) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A diwa's chip (its colour and letter) as a small inline SVG. */
export function chipSvg(colour, size = 22) {
  return `<svg class="k-chip" viewBox="0 0 40 40" width="${size}" height="${size}" aria-hidden="true">${diwaChip(0, 0, 40, colour)}</svg>`;
}

export const ARROWS = ["↑", "→", "↓", "←"]; // the logo's up arrow, by the centre tile's quarter turns
