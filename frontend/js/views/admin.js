// The admin page: engine status (polled while open), the moderation log with filters and
// pages, and a read-only view of the conversation an event belongs to.

import { api } from "../api.js";
import { $, el, formatTime, toast } from "../dom.js";
import { go } from "../router.js";
import { renderMessage } from "./message.js";
import { messageView } from "./thread.js";

const PAGE = 50;
const STATUS_EVERY_MS = 3000;

function percent(value) {
  return value === null || value === undefined ? "—" : `${(value * 100).toFixed(1)}%`;
}

export class AdminView {
  constructor() {
    this.statusNode = $("status");
    this.rows = $("events").querySelector("tbody");
    this.empty = $("events-empty");
    this.form = $("moderation-filter");
    this.older = $("events-older");
    this.newer = $("events-newer");
    this.cursors = []; // `before` of each page shown so far; the last is the current page
    this.timer = 0;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.cursors = [null];
      this.loadEvents();
    });
    this.form.addEventListener("reset", () => {
      setTimeout(() => { this.cursors = [null]; this.loadEvents(); });
    });
    this.older.addEventListener("click", () => {
      this.cursors.push(this.nextCursor);
      this.loadEvents();
    });
    this.newer.addEventListener("click", () => {
      if (this.cursors.length > 1) this.cursors.pop();
      this.loadEvents();
    });
  }

  async open(route) {
    this.stopPolling();
    this.pollStatus();
    if (this.cursors.length === 0) this.cursors = [null];
    await this.loadEvents();
    await this.showConversation(route.conversationId || null, route.messageId || null);
  }

  close() {
    this.stopPolling();
  }

  stopPolling() {
    clearTimeout(this.timer);
    this.timer = 0;
  }

  async pollStatus() {
    try {
      this.renderStatus(await api("GET", "/api/admin/status"));
    } catch (error) {
      this.statusNode.replaceChildren(el("dt", { text: "Status" }),
        el("dd", { text: error.message }));
      if (error.status === 401 || error.status === 403) return;
    }
    this.timer = setTimeout(() => this.pollStatus(), STATUS_EVERY_MS);
  }

  renderStatus(s) {
    const kv = el("progress", { max: 1, value: s.kv_cache_usage, class: "meter" });
    const rows = [
      ["Model", s.model],
      ["Engine", s.is_alive ? "running" : "stopped"],
      ["KV-cache usage", [kv, ` ${percent(s.kv_cache_usage)}`]],
      ["Running requests", String(s.num_running)],
      ["Waiting requests", String(s.num_waiting)],
      ["Prefix-cache hit rate", s.prefix_cache_hit_rate === null ? "— (no lookups yet)"
        : `${percent(s.prefix_cache_hit_rate)} of ${s.prefix_cache_queries} prompt tokens`],
      ["Active generations", String(s.num_active_generations)],
      ["Tokens (prompt / generated)", `${s.prompt_tokens_total} / ${s.generation_tokens_total}`],
    ];
    this.statusNode.replaceChildren(...rows.map(([k, v]) => el("div", { class: "stat" },
      el("dt", { text: k }), el("dd", {}, v))));
  }

  filters() {
    const data = new FormData(this.form);
    const value = (name) => String(data.get(name) || "").trim();
    const time = (name) => {
      const raw = value(name);
      if (!raw) return null;
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ? null : date;
    };
    return { stage: value("stage"), rail: value("rail"), user_id: value("user_id"),
      from: time("from"), to: time("to") };
  }

  async loadEvents() {
    const f = this.filters();
    const before = this.cursors[this.cursors.length - 1] ||
      (f.to ? f.to.toISOString() : null);
    const query = new URLSearchParams({ limit: String(PAGE) });
    for (const key of ["stage", "rail", "user_id"]) if (f[key]) query.set(key, f[key]);
    if (before) query.set("before", before);
    let events;
    try {
      events = (await api("GET", `/api/admin/moderation?${query}`)).events;
    } catch (error) {
      toast(error.message, "error");
      return;
    }
    // The server filters by upper bound only; the lower bound ends the log here.
    const inRange = f.from ? events.filter((e) => new Date(e.created_at) >= f.from) : events;
    this.nextCursor = events.length ? events[events.length - 1].created_at : null;
    this.older.disabled = events.length < PAGE || inRange.length < events.length;
    this.newer.disabled = this.cursors.length <= 1;
    this.renderEvents(inRange);
  }

  renderEvents(events) {
    this.empty.hidden = events.length > 0;
    this.rows.replaceChildren(...events.map((e) => el("tr", { dataset: { id: e.id } },
      el("td", { text: formatTime(e.created_at) }),
      el("td", {}, el("button", { type: "button", class: "link-button",
        text: e.username || e.user_id || "(deleted)",
        title: `Show only this user (${e.user_id})`, disabled: !e.user_id, onclick: () => {
          this.form.elements.user_id.value = e.user_id;
          this.cursors = [null];
          this.loadEvents();
        } })),
      el("td", { text: e.stage }),
      el("td", { text: e.rail }),
      el("td", {}, el("span", { class: `tag action-${e.action}`, text: e.action })),
      el("td", { text: e.reason }),
      el("td", { class: "excerpt", text: e.excerpt }),
      el("td", {}, e.conversation_id
        ? el("a", { href: `#/admin/c/${e.conversation_id}` +
          `${e.message_id ? `/${e.message_id}` : ""}`, text: "Open" })
        : el("span", { class: "hint", text: "—" })))));
  }

  async showConversation(conversationId, messageId) {
    const box = $("admin-conversation");
    if (!conversationId) {
      box.hidden = true;
      return;
    }
    let data;
    try {
      data = await api("GET", `/api/admin/conversations/${encodeURIComponent(conversationId)}`);
    } catch (error) {
      toast(error.message, "error");
      go("#/admin");
      return;
    }
    $("admin-conv-title").textContent = data.title || "Untitled";
    $("admin-conv-owner").textContent =
      `Owner: ${data.user.username ?? "(deleted)"} (${data.user.id})`;
    const state = { open: new Set() };
    // Every message, regenerated answers included: the event may concern any of them.
    const shown = data.messages.filter((m) => m.role !== "system");
    const nodes = shown.map((m) => renderMessage(messageView(m, null),
      { state, highlight: m.id === messageId }));
    $("admin-conv-messages").replaceChildren(...nodes);
    box.hidden = false;
    const target = nodes.find((n) => n.dataset.id === messageId);
    (target || box).scrollIntoView({ block: "center" });
  }
}
