// Markdown -> safe DOM. Raw HTML in the text is shown as text; the rendered HTML then goes
// through DOMPurify (no scripts, handlers, styles, forms or remote images), and the page's CSP
// forbids inline script besides. Code blocks get highlighting and a copy button afterwards.

import { Marked } from "../vendor/marked/marked.esm.js";
import DOMPurify from "../vendor/dompurify/purify.es.js";
import { highlight } from "./code.js";
import { el } from "./dom.js";

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const marked = new Marked({ gfm: true, breaks: true });
marked.use({
  renderer: {
    // Model output like "<b>" or "<script>" is meant as text, so show it as such.
    html(token) {
      return escapeHtml(token.text);
    },
  },
});

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["img", "style", "form", "button", "textarea", "select", "iframe", "video",
    "audio", "source", "picture"],
  FORBID_ATTR: ["style", "id", "name"],
  RETURN_DOM_FRAGMENT: true,
};

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.hasAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

export function sanitize(html) {
  return DOMPurify.sanitize(html, PURIFY);
}

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    return navigator.clipboard.writeText(text);
  }
  // Plain-http pages (a LAN address) have no clipboard API: copy through a selection.
  const area = el("textarea", { class: "offscreen", readonly: true });
  area.value = text;
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
}

export function copyButton(getText, label = "Copy") {
  const button = el("button", { type: "button", class: "copy-button", text: label });
  button.addEventListener("click", () => {
    copyText(getText()).then(
      () => { button.textContent = "Copied"; },
      () => { button.textContent = "Copy failed"; },
    ).finally(() => setTimeout(() => { button.textContent = label; }, 1500));
  });
  return button;
}

function enhanceCode(fragment) {
  for (const code of fragment.querySelectorAll("pre > code")) {
    const text = code.textContent;
    const match = /(?:^|\s)language-([\w+#-]+)/.exec(code.className);
    const language = match ? match[1].toLowerCase() : null;
    const html = highlight(text, language);
    if (html !== null) {
      code.replaceChildren(sanitize(html));
      code.classList.add("hljs");
    }
    const pre = code.parentElement;
    const block = el("div", { class: "code-block" });
    pre.replaceWith(block);
    block.append(el("div", { class: "code-bar" },
      el("span", { class: "code-lang", text: language || "" }),
      copyButton(() => text)), pre);
  }
}

function wrapTables(fragment) {
  for (const table of fragment.querySelectorAll("table")) {
    const wrap = el("div", { class: "table-wrap" });
    table.before(wrap);
    wrap.append(table);
  }
}

export function renderMarkdown(text) {
  const fragment = sanitize(marked.parse(text));
  enhanceCode(fragment);
  wrapTables(fragment);
  return fragment;
}

export { copyText };
