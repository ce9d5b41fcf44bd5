// A tiny helper to build DOM nodes: h("button", {class: "x", onclick: f}, "text", child, …).

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) node.style.setProperty(property, setting);
    }
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** An SVG element (namespaced) with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

/** Replace every child of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/**
 * Bring the children of `node` to `children` (nodes made by `h`, with no listeners of their own) by changing
 * what differs in place: a node that stays keeps its identity, so the focus and a click under way are not lost
 * when a list is drawn again. Elements with a `data-key` are matched by it, the rest by position.
 */
export function update(node, ...children) {
  const fresh = children
    .flat(Infinity)
    .filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  const keyed = new Map();
  for (const child of node.childNodes) if (child.dataset?.key) keyed.set(child.dataset.key, child);
  let at = node.firstChild;
  for (const wanted of fresh) {
    const key = wanted.dataset?.key;
    let kept = key ? keyed.get(key) : at && !at.dataset?.key ? at : null;
    if (kept && sameKind(kept, wanted)) patch(kept, wanted);
    else kept = wanted;
    if (kept !== at) node.insertBefore(kept, at);
    else at = at.nextSibling;
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
  return node;
}

function sameKind(old, wanted) {
  return old.nodeType === wanted.nodeType && old.nodeName === wanted.nodeName;
}

function patch(old, wanted) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== wanted.nodeValue) old.nodeValue = wanted.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) if (!wanted.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of wanted.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  update(old, ...wanted.childNodes);
}
