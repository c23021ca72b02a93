// The conversation list: newest first, "Older…" pages, rename in place, delete, new chat.

import { api } from "../api.js";
import { $, el, toast } from "../dom.js";
import { go } from "../router.js";

const PAGE = 50;

export class Sidebar {
  constructor() {
    this.list = $("conversation-list");
    this.more = $("more-conversations");
    this.conversations = [];
    this.activeId = null;
    this.renaming = null;
    this.seq = 0;
    $("new-chat").addEventListener("click", () => go("#/"));
    this.more.addEventListener("click", () => this.loadOlder());
  }

  setActive(id) {
    this.activeId = id;
    this.render();
  }

  async refresh() {
    const seq = ++this.seq;
    const count = Math.max(PAGE, this.conversations.length);
    try {
      const data = await api("GET", `/api/conversations?limit=${Math.min(count, 200)}`);
      if (seq !== this.seq) return;
      this.conversations = data.conversations;
      this.more.hidden = data.conversations.length < Math.min(count, 200);
      this.render();
    } catch (error) {
      if (error.status !== 401) toast(error.message, "error");
    }
  }

  async loadOlder() {
    const last = this.conversations[this.conversations.length - 1];
    if (!last) return;
    const query = `limit=${PAGE}&before=${encodeURIComponent(last.updated_at)}`;
    try {
      const data = await api("GET", `/api/conversations?${query}`);
      this.conversations.push(...data.conversations);
      this.more.hidden = data.conversations.length < PAGE;
      this.render();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async rename(conversation, title) {
    this.renaming = null;
    const clean = title.trim();
    if (clean && clean !== conversation.title) {
      try {
        const updated = await api("PATCH", `/api/conversations/${conversation.id}`,
          { title: clean });
        conversation.title = updated.title;
        window.dispatchEvent(new CustomEvent("hearth:renamed", { detail: updated }));
      } catch (error) {
        toast(error.message, "error");
      }
    }
    this.render();
  }

  async remove(conversation) {
    const name = conversation.title || "Untitled";
    if (!confirm(`Delete the conversation “${name}”? This cannot be undone.`)) return;
    try {
      await api("DELETE", `/api/conversations/${conversation.id}`);
    } catch (error) {
      toast(error.message, "error");
      return;
    }
    this.conversations = this.conversations.filter((c) => c.id !== conversation.id);
    this.render();
    if (conversation.id === this.activeId) go("#/");
  }

  renameField(conversation) {
    const input = el("input", { class: "rename-input", "aria-label": "New title",
      maxlength: "200" });
    input.value = conversation.title;
    let done = false;
    const finish = (save) => {
      if (done) return;
      done = true;
      if (save) this.rename(conversation, input.value);
      else { this.renaming = null; this.render(); }
    };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); finish(true); }
      if (event.key === "Escape") { event.stopPropagation(); finish(false); }
    });
    input.addEventListener("blur", () => finish(true));
    queueMicrotask(() => { input.focus(); input.select(); });
    return input;
  }

  item(conversation) {
    const active = conversation.id === this.activeId;
    const main = this.renaming === conversation.id ? this.renameField(conversation)
      : el("a", { href: `#/c/${conversation.id}`, class: "conversation-link",
        text: conversation.title || "Untitled", title: conversation.title || "Untitled" });
    return el("li", { class: active ? "active" : null, dataset: { id: conversation.id } },
      main,
      el("button", { type: "button", class: "icon-button rename", title: "Rename",
        "aria-label": "Rename", text: "✎",
        onclick: () => { this.renaming = conversation.id; this.render(); } }),
      el("button", { type: "button", class: "icon-button delete", title: "Delete",
        "aria-label": "Delete", text: "×", onclick: () => this.remove(conversation) }));
  }

  render() {
    const items = this.conversations.map((c) => this.item(c));
    if (items.length === 0) items.push(el("li", { class: "hint", text: "No conversations yet" }));
    this.list.replaceChildren(...items);
  }
}
