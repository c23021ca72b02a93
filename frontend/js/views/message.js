// One message as a DOM node. Input is a plain view object (see chat.js `viewOf`):
// {id, role, content, status, citations, usage, finish_reason, unsupported, blocked, error,
//  streaming, ttftMs, tokensPerSecond, droppedTurns}.

import { el } from "../dom.js";
import { copyButton, renderMarkdown } from "../markdown.js";
import { markRedactions, markUnsupported, unsupportedTexts } from "../marks.js";

const FINISH_NOTES = {
  cancelled: "Stopped",
  length: "Reached the max-token limit",
};

function blockedNotice(m) {
  const b = m.blocked;
  if (b && b.stage === "input") {
    return `Your message was blocked by the guardrails${b.rail ? ` (${b.rail})` : ""}` +
      `${b.reason ? `: ${b.reason}` : "."}`;
  }
  if (b) {
    return `The rest of this answer was withheld by the guardrails${b.rail ? ` (${b.rail})` : ""}` +
      `${b.reason ? `: ${b.reason}` : "."}`;
  }
  return m.content ? "The rest of this answer was withheld by the guardrails."
    : "This exchange was blocked by the guardrails.";
}

function notices(m) {
  const out = [];
  const blocked = m.blocked || m.status === "blocked" || m.finish_reason === "blocked";
  if (blocked && m.role === "assistant") {
    out.push(el("div", { class: "notice notice-blocked", role: "note" },
      el("strong", { text: "Blocked. " }), blockedNotice(m)));
  }
  if (m.error) {
    out.push(el("div", { class: "notice notice-error", role: "alert" },
      `The answer failed: ${m.error.message}`));
  } else if (m.role === "assistant" && !m.streaming && !blocked &&
             (m.finish_reason === "error" || m.status === "error")) {
    out.push(el("div", { class: "notice notice-error", role: "alert" },
      "The answer failed on the server."));
  } else if (m.role === "assistant" && !m.streaming && m.status === "interrupted" &&
             m.finish_reason !== "cancelled") {
    out.push(el("div", { class: "note", text: "Interrupted" }));
  }
  if (!m.streaming && FINISH_NOTES[m.finish_reason]) {
    out.push(el("div", { class: "note", text: FINISH_NOTES[m.finish_reason] }));
  }
  if (m.droppedTurns > 0) {
    out.push(el("div", { class: "note",
      text: `${m.droppedTurns} earliest turn(s) left out to fit the model's context` }));
  }
  return out;
}

function citations(m, state) {
  if (!m.citations || m.citations.length === 0) return null;
  const items = m.citations.map((source, i) => {
    const key = `${m.id}:${i}`;
    const details = el("details", { class: "citation", open: state.open.has(key) },
      el("summary", {},
        el("span", { class: "citation-index", text: `[${i + 1}]` }),
        el("span", { class: "citation-file", text: String(source.filename ?? "document") }),
        typeof source.score === "number"
          ? el("span", { class: "citation-score", text: source.score.toFixed(2) }) : null),
      el("blockquote", { class: "citation-text", text: String(source.text ?? "") }));
    details.addEventListener("toggle", () => {
      if (details.open) state.open.add(key); else state.open.delete(key);
    });
    return el("li", {}, details);
  });
  return el("section", { class: "citations", "aria-label": "Sources" },
    el("div", { class: "citations-title", text: "Sources" }), el("ol", {}, items));
}

function detailRows(m) {
  const u = m.usage;
  const rows = [["Prompt tokens", u.prompt_tokens], ["Answer tokens", u.completion_tokens],
    ["Cached tokens", u.cached_tokens]];
  rows.push(["Time to first token", m.ttftMs != null ? `${(m.ttftMs / 1000).toFixed(2)} s` : "—"]);
  rows.push(["Tokens per second",
    m.tokensPerSecond != null ? m.tokensPerSecond.toFixed(1) : "—"]);
  return rows;
}

function details(m, state) {
  if (m.role !== "assistant" || m.streaming) return null;
  // A blocked input never reached the model: there is nothing to report.
  const u = m.usage;
  if (!u || (u.prompt_tokens === 0 && u.completion_tokens === 0)) return null;
  const key = `${m.id}:details`;
  const box = el("details", { class: "msg-details", open: state.open.has(key) },
    el("summary", { text: "Details" }),
    el("dl", {}, detailRows(m).map(([k, v]) => [el("dt", { text: k }),
      el("dd", { text: String(v) })])));
  box.addEventListener("toggle", () => {
    if (box.open) state.open.add(key); else state.open.delete(key);
  });
  return box;
}

function body(m) {
  const node = el("div", { class: "msg-body" });
  if (m.role === "assistant") {
    node.classList.add("markdown");
    node.append(renderMarkdown(m.content));
    markUnsupported(node, unsupportedTexts(m.unsupported, m.content));
  } else {
    node.textContent = m.content;
  }
  markRedactions(node);
  if (m.streaming) node.append(el("span", { class: "caret", "aria-hidden": "true" }));
  return node;
}

// `opts`: {state: {open: Set}, canRegenerate, canEdit, onRegenerate, onEdit, highlight}
export function renderMessage(m, opts) {
  const actions = el("div", { class: "msg-actions" });
  if (m.role === "assistant" && !m.streaming && m.content) {
    actions.append(copyButton(() => m.content));
  }
  if (opts.canRegenerate) {
    actions.append(el("button", { type: "button", class: "regenerate", text: "Regenerate",
      onclick: opts.onRegenerate }));
  }
  if (opts.canEdit) {
    actions.append(el("button", { type: "button", class: "edit", text: "Edit",
      onclick: opts.onEdit }));
  }
  const label = m.role === "user" ? "You" : "Hearth";
  const tags = [];
  if (m.role === "user" && m.status === "blocked") tags.push(el("span", { class: "tag",
    text: "blocked" }));
  return el("article", {
    class: `msg msg-${m.role}${m.streaming ? " streaming" : ""}` +
      `${opts.highlight ? " highlighted" : ""}`,
    dataset: { id: m.id || "", status: m.streaming ? "streaming" : (m.status || "") },
  },
  el("div", { class: "msg-meta" }, el("span", { class: "msg-author", text: label }), tags),
  body(m), notices(m), citations(m, opts.state), details(m, opts.state),
  actions.childElementCount ? actions : null);
}
