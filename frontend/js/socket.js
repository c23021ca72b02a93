// The one WebSocket to /ws: connects with the session cookie, reconnects with backoff after a
// drop, and asks its owner which answers to resume each time it (re)opens.

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const CLOSE_POLICY = 1008;

export class ChatSocket extends EventTarget {
  // `resumeList()` returns [{message_id, after}] for answers still streaming on this page.
  constructor(resumeList) {
    super();
    this.resumeList = resumeList;
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.stopped = true;
    this.queue = [];
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  start() {
    this.stopped = false;
    if (!this.ws) this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.queue = [];
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "logged out");
    }
  }

  // Frames sent while the socket is down wait for the next open; that is what a user who
  // pressed Send during a reconnect expects.
  send(frame) {
    if (this.isOpen) this.ws.send(JSON.stringify(frame));
    else this.queue.push(frame);
  }

  // A socket that looks open can be dead (a laptop waking up); dropping it starts a
  // reconnect and the resume that follows.
  reconnectNow() {
    if (this.ws) this.ws.close(4000, "reconnect");
  }

  connect() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    this.emit("status", { state: "connecting" });
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.emit("status", { state: "open" });
      for (const item of this.resumeList()) {
        ws.send(JSON.stringify({ type: "resume", message_id: item.message_id,
          after: item.after }));
      }
      const pending = this.queue;
      this.queue = [];
      for (const frame of pending) ws.send(JSON.stringify(frame));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws || typeof event.data !== "string") return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && typeof frame.type === "string") this.emit("frame", frame);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (event.code === CLOSE_POLICY && event.reason === "unauthorized") {
        this.stopped = true;
        this.emit("unauthorized", {});
        return;
      }
      if (this.stopped) return;
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.emit("status", { state: "reconnecting", delay });
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
