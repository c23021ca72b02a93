// Who is logged in. The user record (id, username, role) is kept for display only; the server
// decides access from the session cookie on every request.

import { api } from "./api.js";

const KEY = "hearth.user";

export function currentUser() {
  try {
    const user = JSON.parse(localStorage.getItem(KEY) || "null");
    return user && typeof user.username === "string" ? user : null;
  } catch {
    return null;
  }
}

function remember(user) {
  localStorage.setItem(KEY, JSON.stringify({ id: user.id, username: user.username,
    role: user.role }));
  return user;
}

export function forget() {
  localStorage.removeItem(KEY);
}

export async function login(username, password) {
  const body = await api("POST", "/api/auth/login", { username, password });
  return remember(body.user);
}

export async function signup(username, password) {
  const body = await api("POST", "/api/auth/signup", { username, password });
  return remember(body.user);
}

export async function logout() {
  try {
    await api("POST", "/api/auth/logout");
  } finally {
    forget();
  }
}
