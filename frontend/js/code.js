// highlight.js core with the languages a chat about code mostly needs (each ~1-13 KiB).

import hljs from "../vendor/highlight/core.min.js";
import bash from "../vendor/highlight/languages/bash.min.js";
import c from "../vendor/highlight/languages/c.min.js";
import cpp from "../vendor/highlight/languages/cpp.min.js";
import css from "../vendor/highlight/languages/css.min.js";
import diff from "../vendor/highlight/languages/diff.min.js";
import go from "../vendor/highlight/languages/go.min.js";
import java from "../vendor/highlight/languages/java.min.js";
import javascript from "../vendor/highlight/languages/javascript.min.js";
import json from "../vendor/highlight/languages/json.min.js";
import markdown from "../vendor/highlight/languages/markdown.min.js";
import plaintext from "../vendor/highlight/languages/plaintext.min.js";
import python from "../vendor/highlight/languages/python.min.js";
import rust from "../vendor/highlight/languages/rust.min.js";
import shell from "../vendor/highlight/languages/shell.min.js";
import sql from "../vendor/highlight/languages/sql.min.js";
import typescript from "../vendor/highlight/languages/typescript.min.js";
import xml from "../vendor/highlight/languages/xml.min.js";
import yaml from "../vendor/highlight/languages/yaml.min.js";

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, plaintext,
  python, rust, shell, sql, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

// Auto-detection is costly per render; it runs only on blocks this small.
const AUTO_DETECT_LIMIT = 4000;

// The highlighted HTML of `text` (hljs escapes the text itself), or null to leave it plain.
export function highlight(text, language) {
  if (language && hljs.getLanguage(language)) {
    return hljs.highlight(text, { language, ignoreIllegals: true }).value;
  }
  if (!language && text.length <= AUTO_DETECT_LIMIT) {
    const result = hljs.highlightAuto(text);
    return result.relevance >= 5 ? result.value : null;
  }
  return null;
}
