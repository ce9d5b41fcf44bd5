// A small markdown-to-DOM renderer for the rules pages: headings, paragraphs, lists (nested, ordered or not),
// tables, block quotes, fenced code, rules, and inline bold, italic, code and links. It builds DOM nodes (never
// HTML strings), so the text cannot inject markup.

const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(```|~~~)(.*)$/;
const RULE = /^ {0,3}([-*_])( *\1){2,} *$/;
const TABLE_SEPARATOR = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

function el(tag, ...children) {
  const node = document.createElement(tag);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function indentOf(line) {
  return line.length - line.trimStart().length;
}

const blank = (line) => line.trim() === "";

function startsBlock(line) {
  return HEADING.test(line) || FENCE.test(line) || RULE.test(line) || LIST_ITEM.test(line) || /^ {0,3}>/.test(line) || /^ {0,3}\|/.test(line);
}

/** Inline markdown of `text` as a list of nodes. */
export function inline(text) {
  const nodes = [];
  const pattern = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^\s*][\s\S]*?)\*|(?<![\w])_([^\s_][\s\S]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    const [, , code, bold1, bold2, em1, em2, label, href] = match;
    if (code !== undefined) nodes.push(el("code", code.trim() || code));
    else if (bold1 !== undefined || bold2 !== undefined) nodes.push(el("strong", ...inline(bold1 ?? bold2)));
    else if (em1 !== undefined || em2 !== undefined) nodes.push(el("em", ...inline(em1 ?? em2)));
    else if (label !== undefined) {
      const link = el("a", ...inline(label));
      if (/^(https?:|\/|#|mailto:)/i.test(href)) link.href = href; // no javascript: links
      if (/^https?:/i.test(href)) link.rel = "noopener noreferrer";
      nodes.push(link);
    }
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

function cells(line) {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const out = [];
  let cell = "";
  let inCode = false;
  for (let i = 0; i < row.length; i += 1) {
    const char = row[i];
    if (char === "\\" && row[i + 1] === "|") {
      cell += "|";
      i += 1;
    } else if (char === "`") {
      inCode = !inCode;
      cell += char;
    } else if (char === "|" && !inCode) {
      out.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  out.push(cell.trim());
  return out;
}

function alignments(line) {
  return cells(line).map((cell) => (cell.startsWith(":") && cell.endsWith(":") ? "center" : cell.endsWith(":") ? "right" : cell.startsWith(":") ? "left" : ""));
}

function parseBlocks(lines) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (blank(line)) {
      i += 1;
      continue;
    }
    let match;
    if ((match = HEADING.exec(line))) {
      out.push(el(`h${match[1].length}`, ...inline(match[2])));
      i += 1;
    } else if ((match = FENCE.exec(line))) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trimStart().startsWith(match[1])) body.push(lines[i++]);
      i += 1;
      const code = el("code", body.join("\n"));
      if (match[2].trim()) code.className = `language-${match[2].trim()}`;
      out.push(el("pre", code));
    } else if (RULE.test(line)) {
      out.push(el("hr"));
      i += 1;
    } else if (/^ {0,3}\|/.test(line) && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1])) {
      const head = cells(line);
      const align = alignments(lines[i + 1]);
      i += 2;
      const rows = [];
      while (i < lines.length && /^ {0,3}\|/.test(lines[i])) rows.push(cells(lines[i++]));
      const cell = (tag, text, column) => {
        const node = el(tag, ...inline(text));
        if (align[column]) node.style.textAlign = align[column];
        return node;
      };
      const table = el(
        "table",
        el("thead", el("tr", ...head.map((text, column) => cell("th", text, column)))),
        el("tbody", ...rows.map((row) => el("tr", ...head.map((_, column) => cell("td", row[column] ?? "", column))))),
      );
      const wrap = el("div", table);
      wrap.className = "table-scroll";
      wrap.tabIndex = 0; // a wide table scrolls sideways by keys too
      out.push(wrap);
    } else if (/^ {0,3}>/.test(line)) {
      const body = [];
      while (i < lines.length && !blank(lines[i]) && /^ {0,3}>/.test(lines[i])) body.push(lines[i++].replace(/^ {0,3}> ?/, ""));
      out.push(el("blockquote", ...parseBlocks(body)));
    } else if ((match = LIST_ITEM.exec(line))) {
      const [list, next] = parseList(lines, i);
      out.push(list);
      i = next;
    } else {
      const body = [];
      while (i < lines.length && !blank(lines[i]) && !(body.length && startsBlock(lines[i]))) body.push(lines[i++].trim());
      out.push(el("p", ...inline(body.join("\n"))));
    }
  }
  return out;
}

function parseList(lines, start) {
  const first = LIST_ITEM.exec(lines[start]);
  const baseIndent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = el(ordered ? "ol" : "ul");
  if (ordered && parseInt(first[2], 10) !== 1) list.start = parseInt(first[2], 10);
  let i = start;
  let loose = false;
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i]);
    if (!match || match[1].length !== baseIndent || /\d/.test(match[2]) !== ordered) break;
    const contentIndent = baseIndent + match[2].length + 1;
    const body = [match[3]];
    i += 1;
    let sawBlank = false;
    while (i < lines.length) {
      const line = lines[i];
      if (blank(line)) {
        sawBlank = true;
        body.push("");
        i += 1;
        continue;
      }
      const indent = indentOf(line);
      if (indent > baseIndent) {
        body.push(line.slice(Math.min(indent, contentIndent)));
        i += 1;
        sawBlank = false;
        continue;
      }
      if (!sawBlank && !startsBlock(line)) {
        body.push(line.trim()); // a lazy continuation line
        i += 1;
        continue;
      }
      break;
    }
    while (body.length && blank(body[body.length - 1])) body.pop();
    if (body.some(blank)) loose = true;
    const item = el("li", ...parseBlocks(body));
    list.append(item);
    // a blank line between items makes a loose list; stop if what follows is not another item of this list
    let j = i;
    while (j < lines.length && blank(lines[j])) j += 1;
    const nextItem = j < lines.length ? LIST_ITEM.exec(lines[j]) : null;
    if (!nextItem || nextItem[1].length !== baseIndent) {
      i = j > i && nextItem && nextItem[1].length === baseIndent ? j : i;
      break;
    }
    if (j > i) loose = true;
    i = j;
  }
  if (!loose) list.classList.add("tight");
  return [list, i];
}

/** The markdown `text` as a document fragment. */
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  fragment.append(...parseBlocks(String(text).replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n")));
  return fragment;
}
