"""Rules for requests for clearly harmful content in 26 languages besides English: how a
language's term sets become rules and how a sentence is matched. The term sets are data, one
file per language in guardrails/data/harmful_terms/ (written for this project by a helper that
read no evaluation file; checked against the multilingual training rows, where they block no
benign row).

Word order differs across these languages (the verb comes last in Japanese, Korean, Turkish,
Hindi, Bengali, Tamil, Urdu and Persian), so a rule is a co-occurrence, not an ordered pattern:
a sentence matches when it holds a term of the rule's *target* set (a specific harmful object:
a pipe bomb, TATP, meth, a suicide method) and a term of each of its *context* sets (an asking
or making phrase; for poison a victim, for hacking someone else's account), and no exemption
term of its language (defusing, history, symptoms, protecting one's own account, pest control).
The rules block on their own, so the targets are specific and the exemptions broad.

Chinese, Japanese, Thai and Korean terms match anywhere (no spaces between words, or compounds
written solid); the others match at a word start, so a stem covers its inflected forms
("взорвать", "bombę", "patlayıcıyı"). A term ending in "$" must end a word; one starting with
"~" may start inside a word (Swahili verbs take subject prefixes). Arabic and Hebrew terms may
follow their one-letter clitics ("و", "ال"; "ו", "ה", "ל"). Terms and text are compared after
`fold` (Latin diacritics, Greek accents, Arabic letter variants), the way people type them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from guardrails.rails.harmful_rules import (
    CSAM,
    DRUGS_AND_FRAUD,
    MALWARE,
    SELF_HARM,
    VIOLENCE,
    WEAPONS,
)
from guardrails.text import fold_latin, normalize


def _fold_table() -> dict[int, str | None]:
    # fold_latin on the Latin blocks, as one str.translate table: fold_latin calls Python per
    # character, which shows on a 4,000-character message.
    table: dict[int, str | None] = {}
    for cp in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)):
        if (folded := fold_latin(chr(cp))) != chr(cp):
            table[cp] = folded
    # Letters fold_latin keeps that people also type plain ("nasil", "zlamac", "dau doc",
    # "strasse"), the dot a lower-cased Turkish "İ" leaves, and a typographic apostrophe.
    table |= {ord("ı"): "i", ord("ł"): "l", ord("đ"): "d", ord("ß"): "ss", 0x307: None}
    table[0x2019] = table[0x2BC] = "'"
    # Greek without accents and Arabic-script letters in their common plain forms (alef with
    # hamza as bare alef, Arabic yeh and kaf as the Persian/Urdu ones, teh marbuta as heh); the
    # tatweel and the vowel marks dropped.
    table |= {ord(a): b for a, b in zip("άέήίόύώΐΰϊϋ", "αεηιουωιυιυ", strict=True)}
    table |= {ord(a): b for a, b in zip("أإآٱىيكةۃہ", "ااااییکههه", strict=True)}
    table |= dict.fromkeys([0x640, *range(0x64B, 0x653)])
    return table


_FOLD = _fold_table()


def fold(text: str) -> str:
    """`text` (already normalized) as the tables compare it; ASCII text as is."""
    return text if text.isascii() else text.translate(_FOLD)


# A letter or a combining mark of the scripts whose vowel signs are not \w (Devanagari to
# Sinhala, Hebrew and Arabic points): what may not come right before a word-start term.
_MARKS = "\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0900-\u0dff"
_START = rf"(?<![\w{_MARKS}])"
_END = rf"(?![\w{_MARKS}])"
# Where a Latin term of the pre-check, or one in Chinese or Thai text, may start.
_LATIN_START = "(?<![a-z0-9])"

# Ages under 18 in the digits people use (ASCII, Arabic-Indic, Persian, Devanagari, Bengali,
# Tamil, Thai), before an age word ("12 ans", "12岁") or after one ("miaka 12", "בת 12").
_ZEROS = (0x30, 0x660, 0x6F0, 0x966, 0x9E6, 0xBE6, 0xE50)
_ONES = "".join(f"{chr(z + 1)}-{chr(z + 9)}" for z in _ZEROS)
_TEENS = "|".join(f"{chr(z + 1)}[{chr(z)}-{chr(z + 7)}]" for z in _ZEROS)
_UNDER_18 = rf"(?<!\d)(?:{_TEENS}|[{_ONES}])(?!\d)"


@dataclass(frozen=True, slots=True)
class MlRule:
    """A sentence matches when `target` and every pattern of `context` occur in it. `keys`
    are the target terms (folded, without markers) for the pre-check; `inside` says which of
    them may start inside a word."""

    category: str
    target: re.Pattern[str]
    context: tuple[re.Pattern[str], ...]
    keys: tuple[str, ...]
    inside: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """One language's rules. `reads` is the form of a sentence they match: "folded" (the
    `fold`ed text), "accented" (the text as typed, for Vietnamese, whose tones tell "bom" from
    "bơm") or "plain" (the folded text, only where the writer typed no diacritics at all)."""

    lang: str
    rules: tuple[MlRule, ...]
    exemptions: re.Pattern[str] | None
    reads: str


# (category, target set, context sets): each context may name several sets ("victim stealth":
# a term of either). The sets each language fills in are these keywords of `language_rules`: "ask"
# (how to, tell me, I want), "make" (build, cook, synthesize), "code" (write, program),
# "content" (write, send me, where to find), "method" (painless, how many pills), "victim"
# (someone, my husband, their food), "stealth" (unnoticed, no traces, like an accident),
# "others" (my ex's, the neighbour's, someone else's), "gunmod" (no serial number, 3D
# printed, live rounds), "minor" (child, an age under 18) and the targets named below.
_SCHEMA: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # A specific weapon (pipe bomb, TATP, Molotov) with an asking or making term; a bare
    # "bomb" or "explosive" only with a making verb; a gun made untraceable or automatic.
    (WEAPONS.name, "weapon", ("ask make",)),
    (WEAPONS.name, "bomb", ("make",)),
    (WEAPONS.name, "gun", ("ask make", "gunmod")),
    # Poisoning a person or their food, or unnoticed; killing so that it goes unnoticed or
    # looks like an accident.
    (VIOLENCE.name, "poison", ("ask", "victim stealth")),
    (VIOLENCE.name, "kill", ("ask", "stealth")),
    # A suicide method ("painless", "how many pills") or self-harm that leaves no marks.
    (SELF_HARM.name, "suicide", ("method",)),
    (SELF_HARM.name, "cut", ("ask", "stealth")),
    # Breaking into someone else's account or phone; writing malware (asking what ransomware
    # is, or how to get rid of it, is no request); cloned cards and skimmers.
    (MALWARE.name, "hack", ("ask", "others")),
    (MALWARE.name, "malware", ("code",)),
    (MALWARE.name, "cards", ("ask",)),
    # Making meth, heroin, fentanyl, MDMA and the like.
    (DRUGS_AND_FRAUD.name, "drug", ("make",)),
    # Sexual content with a child or an age under 18, asked for as a story, picture or video
    # (a parent asking how to explain sex to a child asks for none).
    (CSAM.name, "sexual", ("content", "minor")),
)


def _terms(spec: str) -> list[str]:
    return [t.strip() for t in re.split(r"[|\n]", spec) if t.strip()]


def _form(term: str, accented: bool = False) -> str:
    """A term as the text will read it (normalized, and folded unless `accented`), without
    its "~" marker; a "$" at its end stays (the word must end there)."""
    body = normalize(term.removeprefix("~").removesuffix("$"))
    return (body if accented else fold(body)) + ("$" if term.endswith("$") else "")


def _regex(
    terms: list[str], anywhere: bool, prefix: str, accented: bool, extra: str = ""
) -> re.Pattern[str] | None:
    """One pattern for `terms` as tries (see `_trie`): those at a word start after the
    language's `prefix`, and those anywhere."""
    groups: dict[str, set[str]] = {}
    for term in terms:
        body = _form(term, accented)
        if term.startswith("~"):
            start = ""
        elif anywhere:
            # A Latin word in Chinese or Thai text ("合成mdma") still starts a Latin word.
            start = _LATIN_START if body[0].isascii() else ""
        else:
            start = _START + prefix
        groups.setdefault(start, set()).add(body)
    parts = [start + _trie(bodies) for start, bodies in sorted(groups.items())]
    parts += [extra] if extra else []
    return re.compile("|".join(parts)) if parts else None


def language_rules(
    lang: str,
    *,
    anywhere: bool = False,
    prefix: str = "",
    reads: str = "folded",
    age: str = "",
    age_before: str = "",
    exempt: str = "",
    **sets: str,
) -> LanguageRules:
    """A language's rules from its term sets (keywords named in `_SCHEMA`). `age` words
    follow an age under 18 ("ans", "岁"), `age_before` words precede one ("miaka")."""
    accented = reads == "accented"
    def words(spec: str) -> str:
        return "|".join(re.escape(_form(t, accented)) for t in _terms(spec))

    ages = []
    if age:
        ages.append(rf"{_UNDER_18}\s?-?\s?(?:{words(age)})")
    if age_before:
        ages.append(rf"(?:{words(age_before)})\s?{_UNDER_18}")

    def pattern(names: str, extra: str = "") -> re.Pattern[str] | None:
        terms = [t for name in names.split() for t in _terms(sets.get(name, ""))]
        return _regex(terms, anywhere, prefix, accented, extra)

    def inside(term: str) -> bool:
        # Where a target may start inside a word (the pre-check then looks for it anywhere).
        return term.startswith("~") or (bool(anywhere or prefix) and not term[0].isascii())

    rules = []
    for category, target, context in _SCHEMA:
        found = pattern(target)
        needs = [pattern(c, "|".join(ages) if c == "minor" else "") for c in context]
        if found is None or any(n is None for n in needs):
            continue
        terms = _terms(sets[target])
        rules.append(
            MlRule(
                category,
                found,
                tuple(n for n in needs if n is not None),
                tuple(_form(t) for t in terms),
                tuple(inside(t) for t in terms),
            )
        )
    return LanguageRules(
        lang, tuple(rules), _regex(_terms(exempt), anywhere, prefix, accented), reads
    )


def _trie(words: set[str]) -> str:
    """One regex for `words` as a trie ("bomb|bombe|bombs" -> "bomb(?:e|s)?"); a word ending
    in "$" must end a word. Python's re tries alternatives one by one, so a flat list of
    hundreds of terms costs a test per term at each position; a trie one per character."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for ch in word.removesuffix("$"):
            node = node.setdefault(ch, {})
        node["$" if word.endswith("$") else ""] = {}

    def emit(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if "$" in node and "" not in node:
            branches.append(_END)
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            body = (body if len(branches) == 1 and len(body) == 1 else f"(?:{body})") + "?"
        return body

    return emit(root)


def _script(term: str) -> int:
    """A key shared by terms that start in the same script: Latin, a 256-code-point block
    (Greek, Cyrillic, Arabic...), or all of Chinese and Japanese, or Hangul."""
    first = ord(term[0])
    if first < 0x300:
        return 0
    if 0x3000 <= first < 0xA000:
        return 0x3000
    if 0xAC00 <= first < 0xD800:
        return 0xAC00
    return first >> 8 << 8


_NON_LATIN = re.compile(r"[^\x00-\u02ff]")


@dataclass(frozen=True, slots=True)
class TargetGate:
    """The pre-check: which rules a (folded) text could match, by the target terms in it.

    One trie per script: Python's re tries a pattern's alternatives one by one but skips in C
    the positions where none can start, so a flat list of the ~3,000 terms takes milliseconds
    on a long message and these tries a tenth of one. Latin terms are looked for only where
    no Latin letter or digit comes before (a superset of a word start), the others anywhere
    (a superset of where their rules match), and only in a text with a non-Latin letter.
    `search` answers for a whole message; `candidates` lists, for a sentence, the (language,
    rule) indexes whose target term (or a longer term beginning with it) occurs in it."""

    latin: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    other: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    rules: dict[str, tuple[tuple[int, int], ...]]

    def _scripts(self, text: str) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
        return self.latin + self.other if _NON_LATIN.search(text) else self.latin

    def search(self, text: str) -> bool:
        return any(trie.search(text) for trie, _ in self._scripts(text))

    def candidates(self, text: str) -> set[tuple[int, int]]:
        # Each (trie, finder) pair: the finder, a lookahead, matches at every position the
        # longest term there (and `rules` maps it to the rules of the shorter terms it begins
        # with too); it runs only where the quicker trie finds something.
        found: set[tuple[int, int]] = set()
        for trie, finder in self._scripts(text):
            if trie.search(text):
                found.update(r for m in finder.finditer(text) for r in self.rules[m[1]])
        return found


@cache
def target_gate(languages: tuple[LanguageRules, ...]) -> TargetGate:
    groups: dict[tuple[int, bool], set[str]] = {}
    owners: dict[str, set[tuple[int, int]]] = {}
    for li, lang in enumerate(languages):
        for ri, rule in enumerate(lang.rules):
            for key, inside in zip(rule.keys, rule.inside, strict=True):
                groups.setdefault((_script(key), inside), set()).add(key)
                owners.setdefault(key.removesuffix("$"), set()).add((li, ri))
    rules = {
        key: tuple(sorted({r for i in range(1, len(key) + 1) for r in owners.get(key[:i], ())}))
        for key in owners
    }
    latin, other = [], []
    for (script, inside), terms in sorted(groups.items()):
        start = _LATIN_START if script == 0 and not inside else ""
        trie = _trie(terms)
        pair = (re.compile(start + trie), re.compile(f"{start}(?=({trie}))"))
        (latin if script == 0 else other).append(pair)
    return TargetGate(tuple(latin), tuple(other), rules)


def match(
    languages: tuple[LanguageRules, ...], gate: TargetGate, sentence: str
) -> tuple[str, str] | None:
    """(category, excerpt) of the first rule of `languages` that `sentence` (normalized)
    matches, trying only the rules whose target terms `gate` finds in it."""
    folded = fold(sentence)
    for li, ri in sorted(gate.candidates(folded)):
        lang = languages[li]
        rule = lang.rules[ri]
        if lang.reads == "accented":
            text = sentence
        elif lang.reads == "plain" and folded != sentence:
            continue
        else:
            text = folded
        m = rule.target.search(text)
        if m is None or not all(c.search(text) for c in rule.context):
            continue
        if lang.exemptions is not None and lang.exemptions.search(text):
            continue
        # The excerpt as written where folding kept the length (it almost always does).
        excerpt = sentence[m.start() : m.end()] if len(text) == len(sentence) else m[0]
        return rule.category, excerpt
    return None


TERMS_DIR = Path(__file__).resolve().parents[1] / "data" / "harmful_terms"
# The order the languages' rules are tried in (the first match names the category).
ORDER = (
    "zh-Hans", "zh-Hant", "ja", "ko", "ar", "fa", "he", "ur", "hi", "bn", "ta", "th", "ru",
    "uk", "el", "tr", "vi", "id", "fr", "es", "de", "pt", "it", "pl", "nl", "sw",
)  # fmt: skip


@cache
def load_languages(directory: Path = TERMS_DIR) -> tuple[LanguageRules, ...]:
    """Each language's rules from its file `<lang>.toml`: the term sets `_SCHEMA` names,
    `exempt`, and `language_rules`' options; `reads` may list several forms (Vietnamese is
    read as typed with its tones and, only where it has none, folded), one rule set each.
    Loaded once, when a rail first needs them (compiling the tries takes ~0.4 s)."""
    languages: list[LanguageRules] = []
    for lang in ORDER:
        with (directory / f"{lang}.toml").open("rb") as f:
            spec = tomllib.load(f)
        forms = spec.pop("reads", ["folded"])
        languages += [language_rules(lang, reads=form, **spec) for form in forms]
    return tuple(languages)
