// Applies the saved theme ("light" or "dark"; absent = follow the system) before first paint.
(function () {
  try {
    var theme = localStorage.getItem("hearth.theme");
    if (theme === "light" || theme === "dark") {
      document.documentElement.dataset.theme = theme;
    }
  } catch (e) {
    // Storage can be unavailable (privacy modes); the system theme then applies.
  }
})();
