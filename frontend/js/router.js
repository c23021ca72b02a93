// Hash routes, so the server serves one page: #/ (new chat), #/c/ID (a conversation),
// #/admin, #/admin/c/ID[/MESSAGE_ID] (a conversation opened from the moderation log).

const ID = "([A-Za-z0-9_-]{1,64})";
const ROUTES = [
  [new RegExp(`^#/c/${ID}$`), (m) => ({ view: "chat", conversationId: m[1] })],
  [/^#\/admin$/, () => ({ view: "admin" })],
  [new RegExp(`^#/admin/c/${ID}(?:/${ID})?$`),
    (m) => ({ view: "admin", conversationId: m[1], messageId: m[2] || null })],
];

export function currentRoute() {
  const hash = location.hash;
  for (const [pattern, make] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) return make(match);
  }
  return { view: "chat", conversationId: null };
}

export function go(hash) {
  if (location.hash === hash) {
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  } else {
    location.hash = hash;
  }
}

// Changes the address without a route change (a new chat got its id from the server).
export function replaceQuietly(hash) {
  history.replaceState(null, "", hash);
}

export function onRouteChange(handler) {
  window.addEventListener("hashchange", () => handler(currentRoute()));
}
