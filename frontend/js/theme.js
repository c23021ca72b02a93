// The theme button cycles system -> light -> dark; theme-init.js applies the choice on load.

const KEY = "hearth.theme";
const NEXT = { system: "light", light: "dark", dark: "system" };

function current() {
  const saved = localStorage.getItem(KEY);
  return saved === "light" || saved === "dark" ? saved : "system";
}

function apply(theme, button) {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  button.title = `Theme: ${theme}`;
  button.setAttribute("aria-label", `Theme: ${theme} (change)`);
}

export function bindTheme(button) {
  apply(current(), button);
  button.addEventListener("click", () => {
    const theme = NEXT[current()];
    if (theme === "system") localStorage.removeItem(KEY); else localStorage.setItem(KEY, theme);
    apply(theme, button);
  });
}
