// The chat page: one conversation's messages, the composer, stop / regenerate / edit, and the
// streaming answers of this conversation (rendered from the LiveStore as frames arrive).

import { api } from "../api.js";
import { $, el, toast } from "../dom.js";
import { go, replaceQuietly } from "../router.js";
import { loadParams, setUsesDocuments, usesDocuments } from "../settings.js";
import { renderMessage } from "./message.js";
import { messageView, visibleMessages } from "./thread.js";

let localIds = 0;

export class ChatView {
  constructor({ socket, live, onConversationsChanged, onActiveChanged }) {
    this.socket = socket;
    this.live = live;
    this.onConversationsChanged = onConversationsChanged;
    this.onActiveChanged = onActiveChanged;
    this.conversationId = null;
    this.viewKey = 0;
    this.loadSeq = 0;
    this.messages = [];
    this.title = "New chat";
    this.editing = null;
    this.cancelOnStart = false;
    this.nodes = new Map();
    this.dirty = new Set();
    this.frame = 0;
    this.ui = { open: new Set() };
    this.list = $("messages");
    this.input = $("composer-input");
    this.sendButton = $("send");
    this.stopButton = $("stop");
    this.docs = $("use-documents");
    this.titleNode = $("chat-title");
    this.bind();
  }

  bind() {
    $("composer").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    this.stopButton.addEventListener("click", () => this.stop());
    this.docs.addEventListener("change", () => {
      setUsesDocuments(this.conversationId, this.docs.checked);
    });
    this.live.addEventListener("start", (event) => this.onStart(event.detail));
    this.live.addEventListener("update", (event) => {
      const { live } = event.detail;
      if (live.conversationId === this.conversationId) this.schedule(live.messageId);
    });
    this.live.addEventListener("done", (event) => {
      this.onConversationsChanged();
      if (event.detail.live.conversationId === this.conversationId) this.refresh();
    });
    this.live.addEventListener("refused", (event) => this.onRefused(event.detail));
  }

  // ---------------------------------------------------------------------------- loading
  async open(conversationId) {
    this.viewKey += 1;
    this.conversationId = conversationId;
    this.messages = [];
    this.editing = null;
    this.cancelOnStart = false;
    this.ui.open.clear();
    this.docs.checked = usesDocuments(conversationId);
    this.title = conversationId ? "" : "New chat";
    this.render();
    if (conversationId) await this.refresh();
    this.input.focus();
  }

  async refresh() {
    const seq = ++this.loadSeq;
    const id = this.conversationId;
    if (!id) return;
    let data;
    try {
      data = await api("GET", `/api/conversations/${encodeURIComponent(id)}`);
    } catch (error) {
      if (seq !== this.loadSeq) return;
      if (error.status === 404) {
        toast("That conversation does not exist (any more).", "error");
        go("#/");
      } else if (error.status !== 401) {
        toast(error.message, "error");
      }
      return;
    }
    if (seq !== this.loadSeq || id !== this.conversationId) return;
    this.title = data.title || "Untitled";
    this.messages = [...data.messages, ...this.messages.filter((m) => m.local)];
    for (const m of data.messages) {
      if (m.role === "assistant" && m.status === "streaming" && !this.live.get(m.id)) {
        this.live.adopt(m.id, id, m.parent_id);
        // A closed socket resumes every adopted answer itself when it opens.
        if (this.socket.isOpen) this.socket.send({ type: "resume", message_id: m.id, after: 0 });
      }
    }
    this.render();
  }

  // ---------------------------------------------------------------------------- sending
  get busy() {
    return this.messages.some((m) => m.local) ||
      (this.conversationId !== null && this.live.activeIn(this.conversationId).length > 0);
  }

  send(request, frame) {
    this.live.expect({ ...request, viewKey: this.viewKey, conversationId: this.conversationId },
      !this.socket.isOpen);
    this.socket.send({ ...frame, conversation_id: this.conversationId, params: loadParams() });
  }

  addLocal(content, replaces) {
    const userId = `local-${++localIds}`;
    if (content !== null) {
      this.messages.push({ id: userId, local: true, role: "user", content, status: "complete",
        parent_id: replaces });
    }
    // A regenerated answer takes the place of the last one (same user message).
    const parent = content !== null ? userId : this.context().lastUser;
    this.messages.push({ id: `local-${++localIds}`, local: true, role: "assistant", content: "",
      status: "streaming", parent_id: parent });
    this.render(true);
  }

  submit() {
    const content = this.input.value;
    if (!content.trim()) return;
    if (this.busy) {
      toast("Wait for the answer to finish, or stop it (Esc).");
      return;
    }
    this.send({ kind: "chat", content, replaces: null },
      { type: "chat", content, documents: this.docs.checked });
    this.input.value = "";
    this.addLocal(content, null);
  }

  regenerate() {
    if (this.busy || !this.conversationId) return;
    this.send({ kind: "regenerate", content: null }, { type: "regenerate" });
    this.addLocal(null, null);
  }

  submitEdit(message, content) {
    if (!content.trim() || this.busy) return;
    this.editing = null;
    this.send({ kind: "chat", content, replaces: message.id },
      { type: "chat", content, documents: this.docs.checked, replaces: message.id });
    this.addLocal(content, message.id);
  }

  stop() {
    if (this.messages.some((m) => m.local)) this.cancelOnStart = true;
    if (!this.conversationId) return;
    for (const live of this.live.activeIn(this.conversationId)) {
      this.socket.send({ type: "cancel", message_id: live.messageId });
    }
  }

  // ---------------------------------------------------------------------------- frames
  onStart({ live, request }) {
    this.onConversationsChanged();
    if (!request || request.viewKey !== this.viewKey) return;
    if (this.conversationId === null) {
      this.conversationId = live.conversationId;
      this.title = request.content.split(/\s+/).join(" ").trim().slice(0, 60);
      replaceQuietly(`#/c/${live.conversationId}`);
      setUsesDocuments(live.conversationId, this.docs.checked);
      this.onActiveChanged(live.conversationId);
    }
    this.messages = this.messages.filter((m) => !m.local);
    if (request.kind === "chat") {
      this.messages.push({ id: live.userMessageId, role: "user", content: request.content,
        status: "complete", parent_id: request.replaces, citations: [] });
    }
    this.messages.push({ id: live.messageId, role: "assistant", content: "",
      status: "streaming", parent_id: live.userMessageId, citations: [] });
    if (this.cancelOnStart) {
      this.cancelOnStart = false;
      this.socket.send({ type: "cancel", message_id: live.messageId });
    }
    this.render(true);
  }

  // Requests whose `start` was lost with the old socket: show what the server stored.
  onPendingLost(requests) {
    if (!requests.some((r) => r.viewKey === this.viewKey)) return;
    this.messages = this.messages.filter((m) => !m.local);
    this.cancelOnStart = false;
    this.render();
    if (this.conversationId) this.refresh();
    else toast("The connection dropped while sending; the new chat is in the list.");
  }

  onRefused({ request, message }) {
    if (request && request.viewKey === this.viewKey) {
      this.messages = this.messages.filter((m) => !m.local);
      this.cancelOnStart = false;
      if (request.kind === "chat" && !this.input.value) this.input.value = request.content;
      this.render();
    }
    toast(message, "error");
  }

  // ---------------------------------------------------------------------------- rendering
  context() {
    const visible = visibleMessages(this.messages);
    const users = visible.filter((m) => m.role === "user");
    const answers = visible.filter((m) => m.role === "assistant");
    return {
      visible,
      busy: this.busy,
      lastUser: users.length ? users[users.length - 1].id : null,
      lastAnswer: answers.length ? answers[answers.length - 1].id : null,
    };
  }

  renderOne(m, ctx) {
    if (this.editing === m.id) return this.renderEditor(m);
    const idle = !ctx.busy && !m.local;
    return renderMessage(messageView(m, this.live.get(m.id)), {
      state: this.ui,
      canRegenerate: idle && m.id === ctx.lastAnswer,
      canEdit: idle && m.id === ctx.lastUser,
      onRegenerate: () => this.regenerate(),
      onEdit: () => { this.editing = m.id; this.render(); },
    });
  }

  renderEditor(m) {
    const area = el("textarea", { class: "edit-input", rows: 3, "aria-label": "Edit message" });
    area.value = m.content;
    const cancel = () => { this.editing = null; this.render(); };
    const form = el("form", { class: "msg msg-user editing" }, area,
      el("div", { class: "row" },
        el("button", { type: "submit", class: "primary", text: "Send edited" }),
        el("button", { type: "button", class: "link-button", text: "Cancel", onclick: cancel })));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitEdit(m, area.value);
    });
    area.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submitEdit(m, area.value);
      } else if (event.key === "Escape") {
        event.stopPropagation();
        cancel();
      }
    });
    queueMicrotask(() => area.focus());
    return form;
  }

  nearBottom() {
    const l = this.list;
    return l.scrollHeight - l.scrollTop - l.clientHeight < 120;
  }

  render(forceScroll = false) {
    const stick = forceScroll || this.nearBottom();
    const ctx = this.context();
    this.titleNode.textContent = this.title;
    this.nodes.clear();
    const nodes = ctx.visible.map((m) => {
      const node = this.renderOne(m, ctx);
      this.nodes.set(m.id, node);
      return node;
    });
    if (nodes.length === 0) {
      nodes.push(el("div", { class: "empty" },
        el("p", { text: "Ask anything." }),
        el("p", { class: "hint",
          text: "Upload documents in the sidebar and answers can cite them." })));
    }
    this.list.replaceChildren(...nodes);
    this.updateBusy(ctx.busy);
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  // Streaming redraws at most once per frame, and only the message that changed.
  schedule(messageId) {
    this.dirty.add(messageId);
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const stick = this.nearBottom();
      const ctx = this.context();
      for (const id of this.dirty) {
        const old = this.nodes.get(id);
        const m = this.messages.find((x) => x.id === id);
        if (!old || !m) continue;
        const node = this.renderOne(m, ctx);
        old.replaceWith(node);
        this.nodes.set(id, node);
      }
      this.dirty.clear();
      this.updateBusy(ctx.busy);
      if (stick) this.list.scrollTop = this.list.scrollHeight;
    });
  }

  updateBusy(busy) {
    this.sendButton.hidden = busy;
    this.stopButton.hidden = !busy;
  }
}
