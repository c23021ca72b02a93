// Boot and wiring: auth, top bar, routes, the socket and the views.

import { unauthorized } from "./api.js";
import { $, toast } from "./dom.js";
import { LiveStore } from "./live.js";
import { currentRoute, go, onRouteChange } from "./router.js";
import { currentUser, forget, login, logout, signup } from "./session.js";
import { bindSettingsPanel } from "./settings.js";
import { ChatSocket } from "./socket.js";
import { bindTheme } from "./theme.js";
import { AdminView } from "./views/admin.js";
import { ChatView } from "./views/chat.js";
import { Documents } from "./views/documents.js";
import { Sidebar } from "./views/sidebar.js";

const live = new LiveStore();
const socket = new ChatSocket(() => live.resumeList());
const sidebar = new Sidebar();
const chat = new ChatView({
  socket, live,
  onConversationsChanged: () => sidebar.refresh(),
  onActiveChanged: (id) => sidebar.setActive(id),
});
const documents = new Documents($("chat-view"));
const admin = new AdminView();

socket.addEventListener("frame", (event) => live.handle(event.detail));
socket.addEventListener("unauthorized", () => signedOut());
let droppedSocket = false;
socket.addEventListener("status", (event) => {
  const node = $("connection");
  const { state } = event.detail;
  if (state === "reconnecting") droppedSocket = true;
  if (state === "open" && droppedSocket) {
    droppedSocket = false;
    const lost = live.dropSentPending();
    if (lost.length) {
      chat.onPendingLost(lost);
      sidebar.refresh();
    }
  }
  node.hidden = state === "open";
  node.textContent = state === "connecting" ? "Connecting…" : "Reconnecting…";
  document.body.dataset.socket = state;
});
unauthorized.addEventListener("unauthorized", () => signedOut());
window.addEventListener("online", () => socket.reconnectNow());
window.addEventListener("hearth:renamed", (event) => {
  if (event.detail.id === chat.conversationId) {
    chat.title = event.detail.title;
    chat.render();
  }
});

function showView(name) {
  for (const view of ["auth", "chat", "admin"]) $(`${view}-view`).hidden = view !== name;
  document.body.dataset.view = name;
  $("menu-toggle").hidden = name !== "chat";
}

function showUser(user) {
  $("topnav").hidden = !user;
  $("whoami").hidden = !user;
  $("logout").hidden = !user;
  const role = user && user.role === "admin" ? " (admin)" : "";
  $("whoami").textContent = user ? `${user.username}${role}` : "";
  $("nav-admin").hidden = !user || user.role !== "admin";
}

function closeSidebar() {
  document.body.classList.remove("sidebar-open");
  $("menu-toggle").setAttribute("aria-expanded", "false");
  $("sidebar-backdrop").hidden = true;
}

async function route(r) {
  const user = currentUser();
  if (!user) return;
  closeSidebar();
  if (r.view === "admin") {
    if (user.role !== "admin") {
      go("#/");
      return;
    }
    showView("admin");
    $("nav-admin").classList.add("current");
    $("nav-chat").classList.remove("current");
    await admin.open(r);
    return;
  }
  admin.close();
  showView("chat");
  $("nav-chat").classList.add("current");
  $("nav-admin").classList.remove("current");
  sidebar.setActive(r.conversationId);
  if (r.conversationId !== chat.conversationId || r.conversationId === null) {
    await chat.open(r.conversationId);
  }
}

function signedIn(user) {
  showUser(user);
  // Answers this tab was streaming before a reload are followed again (`resume`).
  for (const [messageId, conversationId] of Object.entries(live.remembered())) {
    live.adopt(messageId, conversationId);
  }
  socket.start();
  sidebar.refresh();
  documents.refresh();
  const r = currentRoute();
  const remembered = Object.values(live.remembered());
  if (r.view === "chat" && r.conversationId === null && remembered.length > 0) {
    go(`#/c/${remembered[0]}`);
    return;
  }
  chat.conversationId = undefined; // force the first open
  route(r);
}

function signedOut() {
  if (!currentUser() && !$("auth-view").hidden) return;
  forget();
  socket.stop();
  live.clear();
  documents.stop();
  showUser(null);
  showView("auth");
  $("auth-username").focus();
}

function bindAuthForm() {
  const form = $("auth-form");
  const error = $("auth-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const action = event.submitter && event.submitter.value === "signup" ? signup : login;
    const username = $("auth-username").value.trim();
    const password = $("auth-password").value;
    error.hidden = true;
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    try {
      const user = await action(username, password);
      $("auth-password").value = "";
      signedIn(user);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    } finally {
      for (const b of form.querySelectorAll("button")) b.disabled = false;
    }
  });
}

function bindChrome() {
  $("logout").addEventListener("click", async () => {
    try {
      await logout();
    } catch (e) {
      toast(e.message, "error");
    }
    signedOut();
  });
  $("menu-toggle").addEventListener("click", () => {
    const open = document.body.classList.toggle("sidebar-open");
    $("menu-toggle").setAttribute("aria-expanded", String(open));
    $("sidebar-backdrop").hidden = !open;
  });
  $("sidebar-backdrop").addEventListener("click", closeSidebar);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.dataset.view === "chat") chat.stop();
  });
  bindSettingsPanel({
    panel: $("settings-panel"), toggle: $("settings-toggle"), temperature: $("temperature"),
    temperatureValue: $("temperature-value"), maxTokens: $("max-tokens"),
    reset: $("settings-reset"),
  });
}

bindTheme($("theme-toggle"));
bindAuthForm();
bindChrome();
onRouteChange(route);

const user = currentUser();
if (user) {
  signedIn(user);
} else {
  showView("auth");
  showUser(null);
}
