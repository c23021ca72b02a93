// Sampling settings (temperature, max tokens) and the per-chat "use documents" switch, kept in
// localStorage. The server clamps and validates them again.

const PARAMS_KEY = "hearth.params";
const DOCS_KEY = "hearth.useDocuments";
export const DEFAULT_PARAMS = { temperature: 0.7, max_tokens: 512 };

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
}

export function loadParams() {
  const saved = read(PARAMS_KEY, {});
  const temperature = Number(saved.temperature);
  const maxTokens = Number(saved.max_tokens);
  return {
    temperature: Number.isFinite(temperature) && temperature >= 0 && temperature <= 2
      ? temperature : DEFAULT_PARAMS.temperature,
    max_tokens: Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 4096
      ? maxTokens : DEFAULT_PARAMS.max_tokens,
  };
}

export function saveParams(params) {
  localStorage.setItem(PARAMS_KEY, JSON.stringify(params));
}

export function usesDocuments(conversationId) {
  if (!conversationId) return true;
  const map = read(DOCS_KEY, {});
  return map[conversationId] !== false;
}

export function setUsesDocuments(conversationId, value) {
  if (!conversationId) return;
  const map = read(DOCS_KEY, {});
  if (value) delete map[conversationId]; else map[conversationId] = false;
  localStorage.setItem(DOCS_KEY, JSON.stringify(map));
}

// Wires the settings panel's inputs to storage.
export function bindSettingsPanel(ids) {
  const { panel, toggle, temperature, temperatureValue, maxTokens, reset } = ids;
  const show = (params) => {
    temperature.value = String(params.temperature);
    temperatureValue.textContent = params.temperature.toFixed(2);
    maxTokens.value = String(params.max_tokens);
  };
  show(loadParams());
  toggle.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute("aria-expanded", String(!panel.hidden));
  });
  const store = () => {
    const params = loadParams();
    const t = Number(temperature.value);
    const m = Number(maxTokens.value);
    if (Number.isFinite(t)) params.temperature = Math.min(2, Math.max(0, t));
    if (Number.isInteger(m) && m >= 1) params.max_tokens = Math.min(4096, m);
    saveParams(params);
    temperatureValue.textContent = params.temperature.toFixed(2);
  };
  temperature.addEventListener("input", store);
  maxTokens.addEventListener("change", () => { store(); show(loadParams()); });
  reset.addEventListener("click", () => { saveParams(DEFAULT_PARAMS); show(DEFAULT_PARAMS); });
}
