// What a conversation shows: which stored messages are visible, and each one's view (the
// stored message merged with its live stream, if one is running on this page).

// An edited user message gives way to its replacement (a later user message whose parent_id
// names it); of several answers to one user message (regenerate) the newest is shown.
export function visibleMessages(messages) {
  const superseded = new Set(
    messages.filter((m) => m.role === "user" && m.parent_id).map((m) => m.parent_id));
  const latest = new Map();
  for (const m of messages) {
    if (m.role === "assistant" && m.parent_id) latest.set(m.parent_id, m.id);
  }
  return messages.filter((m) => {
    if (m.role === "user") return !superseded.has(m.id);
    if (m.role !== "assistant") return false;
    if (!m.parent_id) return true;
    return !superseded.has(m.parent_id) && latest.get(m.parent_id) === m.id;
  });
}

function statusOf(finishReason) {
  if (finishReason === "blocked") return "blocked";
  if (finishReason === "cancelled") return "interrupted";
  if (finishReason === "error") return "error";
  return "complete";
}

// The object message.js renders: a stored message (or a local placeholder), overlaid by its
// Live (live.js) while this page follows its stream.
export function messageView(m, live) {
  const view = { ...m, streaming: Boolean(m.local && m.role === "assistant"),
    unsupported: m.unsupported || m.flags || [], citations: m.citations || [],
    blocked: null, error: null, ttftMs: null, tokensPerSecond: null, droppedTurns: 0 };
  if (!live) return view;
  // A resumed stream starts empty: until its replay arrives, the stored text stands in.
  if (live.parts.length > 0 || !live.resumed) view.content = live.text;
  view.streaming = live.streaming;
  if (live.citations.length) view.citations = live.citations;
  if (live.unsupported.length) view.unsupported = live.unsupported;
  view.blocked = live.blocked;
  view.error = live.error;
  if (live.done) {
    view.finish_reason = live.done.finish_reason;
    view.usage = live.done.usage;
    view.status = statusOf(live.done.finish_reason);
    view.droppedTurns = live.done.dropped_turns;
  }
  // Timings exist only for answers this page asked for and saw from their first token.
  if (!live.resumed && live.sentAt !== null && live.firstAt !== null) {
    view.ttftMs = live.firstAt - live.sentAt;
    const tokens = view.usage ? view.usage.completion_tokens : 0;
    const seconds = live.doneAt !== null ? (live.doneAt - live.firstAt) / 1000 : 0;
    if (tokens > 1 && seconds > 0) view.tokensPerSecond = (tokens - 1) / seconds;
  }
  return view;
}
