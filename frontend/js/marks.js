// Marks on rendered text: guardrail redaction placeholders ("[EMAIL]") and sentences the
// grounding check found unsupported by the sources. Both only wrap existing text nodes.

const PLACEHOLDER = /\[(EMAIL|PHONE|CARD|IBAN|IP_ADDRESS|SECRET|REDACTED)\]/g;

function textNodes(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  return nodes;
}

export function markRedactions(root) {
  for (const node of textNodes(root)) {
    const text = node.nodeValue;
    PLACEHOLDER.lastIndex = 0;
    if (!PLACEHOLDER.test(text)) continue;
    PLACEHOLDER.lastIndex = 0;
    const parts = [];
    let at = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      parts.push(text.slice(at, match.index));
      const span = document.createElement("span");
      span.className = "redacted";
      span.title = `${match[1].toLowerCase().replace("_", " ")} removed by the guardrails`;
      span.textContent = match[0];
      parts.push(span);
      at = match.index + match[0].length;
    }
    parts.push(text.slice(at));
    node.replaceWith(...parts.filter((p) => p !== ""));
  }
}

// The texts to mark from a message's `unsupported` or `flags` field: strings, or objects with
// `text` or a `start`/`end` character span of the content.
export function unsupportedTexts(items, content) {
  if (!Array.isArray(items)) return [];
  const texts = [];
  for (const item of items) {
    if (typeof item === "string") {
      texts.push(item);
    } else if (item && typeof item === "object") {
      const kind = item.kind || item.type;
      if (kind && kind !== "unsupported") continue;
      if (item.supported === true) continue;
      if (typeof item.text === "string") texts.push(item.text);
      else if (Number.isInteger(item.start) && Number.isInteger(item.end)) {
        texts.push(content.slice(item.start, item.end));
      }
    }
  }
  return texts.map((t) => t.trim()).filter((t) => t.length > 0);
}

// Wrap the first occurrence of `needle` in the rendered text, across element boundaries.
function markText(root, needle) {
  const nodes = textNodes(root);
  const full = nodes.map((n) => n.nodeValue).join("");
  const start = full.indexOf(needle);
  if (start < 0) return false;
  const end = start + needle.length;
  let offset = 0;
  for (const node of nodes) {
    const length = node.nodeValue.length;
    const from = Math.max(start, offset) - offset;
    const to = Math.min(end, offset + length) - offset;
    offset += length;
    if (to <= from) continue;
    const range = document.createRange();
    range.setStart(node, from);
    range.setEnd(node, to);
    const mark = document.createElement("mark");
    mark.className = "unsupported";
    mark.title = "Not supported by the cited sources";
    range.surroundContents(mark);
  }
  return true;
}

// Markdown changes the text (emphasis markers vanish), so a sentence is looked for as written
// and then without inline markers.
export function markUnsupported(root, texts) {
  for (const text of texts) {
    if (!markText(root, text)) markText(root, text.replace(/[*_`~]+/g, ""));
  }
}
