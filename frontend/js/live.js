// Answers being generated right now, fed by the socket's frames. This is the page's source of
// truth for a streaming answer (the stored copy lags by the server's flush interval); the
// chat view renders from it. Streaming ids are mirrored into sessionStorage so a reload
// resumes them (PROTOCOL.md `resume`).

const STORE_KEY = "hearth.streaming";

export class Live {
  constructor(messageId, conversationId, userMessageId) {
    this.messageId = messageId;
    this.conversationId = conversationId;
    this.userMessageId = userMessageId;
    this.parts = [];
    this.citations = [];
    this.unsupported = [];
    this.blocked = null;
    this.error = null;
    this.done = null;
    this.sentAt = null; // ms (performance.now) when this page asked for the answer
    this.firstAt = null;
    this.doneAt = null;
    this.resumed = false;
  }

  get text() {
    return this.parts.join("");
  }

  get streaming() {
    return this.done === null;
  }
}

function readStore() {
  try {
    const data = JSON.parse(sessionStorage.getItem(STORE_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export class LiveStore extends EventTarget {
  constructor() {
    super();
    this.byId = new Map();
    // Chat/regenerate frames sent but not yet answered by `start`, oldest first.
    this.pending = [];
  }

  get(messageId) {
    return this.byId.get(messageId);
  }

  // Streaming answers remembered by an earlier load of this tab: {message_id: conversation_id}.
  remembered() {
    return readStore();
  }

  activeIn(conversationId) {
    return [...this.byId.values()].filter(
      (live) => live.conversationId === conversationId && live.streaming);
  }

  resumeList() {
    return [...this.byId.values()].filter((live) => live.streaming)
      .map((live) => ({ message_id: live.messageId, after: live.parts.length }));
  }

  // Follow an answer this page did not start (a reload, another tab): the server replays
  // its deltas from index 0 and then streams it live.
  adopt(messageId, conversationId, userMessageId = null) {
    let live = this.byId.get(messageId);
    if (!live) {
      live = new Live(messageId, conversationId, userMessageId);
      live.resumed = true;
      this.byId.set(messageId, live);
      this.persist();
    }
    return live;
  }

  // `queued`: the socket was down, so the frame waits for the next connection.
  expect(request, queued) {
    this.pending.push({ ...request, sentAt: performance.now(), queued });
  }

  // After a reconnect: requests sent on the dead connection may have started without this
  // page hearing their `start`, so they are dropped (the caller reloads what the server
  // stored); queued ones go out on the new connection and stay pending.
  dropSentPending() {
    const lost = this.pending.filter((p) => !p.queued);
    this.pending = this.pending.filter((p) => p.queued);
    for (const p of this.pending) p.queued = false;
    return lost;
  }

  // Which pending request a `start` answers: the oldest one for its conversation, else the
  // oldest new-chat request (whose conversation the server just created).
  takePending(conversationId) {
    let index = this.pending.findIndex((p) => p.conversationId === conversationId);
    if (index < 0) index = this.pending.findIndex((p) => p.conversationId === null);
    if (index < 0) return null;
    return this.pending.splice(index, 1)[0];
  }

  handle(frame) {
    switch (frame.type) {
      case "start": return this.onStart(frame);
      case "delta": return this.onDelta(frame);
      case "citations": return this.update(frame.message_id, (live) => {
        live.citations = frame.sources || [];
      });
      case "flags": return this.update(frame.message_id, (live) => {
        live.unsupported = frame.unsupported || frame.flags || [];
      });
      case "blocked": return this.update(frame.message_id, (live) => {
        live.blocked = { stage: frame.stage, rail: frame.rail, reason: frame.reason };
      });
      case "done": return this.onDone(frame);
      case "error": return this.onError(frame);
      default: return null;
    }
  }

  onStart(frame) {
    const request = this.takePending(frame.conversation_id);
    const live = new Live(frame.message_id, frame.conversation_id, frame.user_message_id);
    live.sentAt = request ? request.sentAt : null;
    this.byId.set(live.messageId, live);
    this.persist();
    this.emit("start", { live, request });
  }

  onDelta(frame) {
    this.update(frame.message_id, (live) => {
      if (frame.index !== live.parts.length) return; // a replayed delta we already hold
      if (live.firstAt === null) live.firstAt = performance.now();
      live.parts.push(frame.text);
    });
  }

  onDone(frame) {
    this.update(frame.message_id, (live) => {
      live.done = { finish_reason: frame.finish_reason, usage: frame.usage,
        dropped_turns: frame.dropped_turns || 0 };
      // The grounding check runs after the answer: its flags arrive on `done`.
      if (Array.isArray(frame.unsupported)) live.unsupported = frame.unsupported;
      live.doneAt = performance.now();
    });
    this.persist();
    const live = this.byId.get(frame.message_id);
    if (live) this.emit("done", { live });
  }

  onError(frame) {
    if (frame.message_id && this.byId.has(frame.message_id)) {
      this.update(frame.message_id, (live) => {
        live.error = { code: frame.code, message: frame.message };
      });
      return;
    }
    // An error with no message id refuses a request before its `start` (rate limits, bad
    // params, a missing conversation): it belongs to the oldest pending request.
    const request = frame.message_id ? null : this.pending.shift() || null;
    this.emit("refused", { request, code: frame.code, message: frame.message });
  }

  update(messageId, change) {
    const live = this.byId.get(messageId);
    if (!live) return;
    change(live);
    this.emit("update", { live });
  }

  persist() {
    const active = {};
    for (const live of this.byId.values()) {
      if (live.streaming) active[live.messageId] = live.conversationId;
    }
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify(active));
    } catch {
      // Without storage a reload simply cannot resume; nothing else depends on it.
    }
  }

  clear() {
    this.byId.clear();
    this.pending = [];
    this.persist();
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
