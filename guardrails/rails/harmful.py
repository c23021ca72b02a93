"""Requests for clearly harmful content: weapons, violence, self-harm instructions, malware,
sexual content involving minors, drugs and fraud (rules in harmful_rules.py; for 26 other
languages in harmful_rules_ml.py, their terms in guardrails/data/harmful_terms/, checked after
the English ones).

Checked per sentence so an exemption in one sentence ("how can I help her?") cannot excuse a
request in another. As an output rail it sees each window of the answer, carried-over context
included, so a harmful sentence split across two windows is still read whole.
"""

from __future__ import annotations

import re

from guardrails.base import Action, Verdict, Window
from guardrails.rails.harmful_rules import CATEGORIES, HarmCategory
from guardrails.rails.harmful_rules_ml import (
    LanguageRules,
    fold,
    load_languages,
    match,
    target_gate,
)
from guardrails.text import normalize, reads_as_english, sentence_spans

# A benign reading the writer denies does not excuse the request: "a painless way to end it,
# i need an answer not a hotline number", "don't tell me to talk to someone". The cue may sit up
# to three words before the exemption ("not a hotline", "no therapy", "don't want to talk to").
_NEGATED = re.compile(
    r"\b(?:no|not|never|without|don'?t|do not|can'?t|cannot|won'?t|instead of|rather than)"
    r"\s+(?:[\w']+\s+){0,3}$"
)


def _exempt(sentence: str, category: HarmCategory) -> bool:
    for ex in category.exemptions:
        for m in ex.finditer(sentence):
            if not _NEGATED.search(sentence[max(0, m.start() - 60) : m.start()]):
                return True
    return False


def _match(sentence: str, category: HarmCategory) -> str | None:
    if not category.gate.search(sentence):
        return None
    for rx in category.patterns:
        m = rx.search(sentence)
        if m and not _exempt(sentence, category):
            return m[0]
    return None


class HarmfulContentRail:
    name = "harmful"

    def __init__(self, languages: tuple[LanguageRules, ...] | None = None) -> None:
        # The other languages' rule tables (default: all of them); () checks the English
        # rules alone.
        self._languages = load_languages() if languages is None else languages
        self._gate = target_gate(self._languages)

    def check(self, text: str) -> Verdict:
        norm = normalize(text)
        sentences = [norm[a:b] for a, b in sentence_spans(norm)] or [norm]
        # A request may span two sentences ("I want to end my life tonight. Which method...").
        pairs = [" ".join(sentences[i : i + 2]) for i in range(len(sentences) - 1)]
        categories = [c for c in CATEGORIES if c.gate.search(norm)]
        for piece in (*sentences, *pairs):
            for category in categories:
                hit = _match(piece, category)
                if hit is not None:
                    return Verdict(
                        Action.BLOCK, self.name, f"request for {category.name}", 1.0, hit
                    )
        # The other languages, only where one of their harmful objects occurs at all (one
        # search of the whole text), and not in English sentences: those are the English
        # rules' to judge, and the international words of the tables ("keylogger", "napalm")
        # beside an English "come" or "help me" are no request in another language.
        if not self._gate.search(fold(norm)):
            return Verdict.allow(self.name)
        # A pair only of two sentences neither of which is English: "What is ransomware and how
        # do I protect my shop?" after a Russian notice is no Russian request for ransomware.
        other = [not reads_as_english(sentence) for sentence in sentences]
        pieces = [s for s, keep in zip(sentences, other, strict=True) if keep]
        pieces += [pair for i, pair in enumerate(pairs) if other[i] and other[i + 1]]
        for piece in pieces:
            found = match(self._languages, self._gate, piece)
            if found is not None:
                category, excerpt = found
                return Verdict(Action.BLOCK, self.name, f"request for {category}", 1.0, excerpt)
        return Verdict.allow(self.name)

    def open(self, system_prompt: str) -> _HarmfulWindows:
        return _HarmfulWindows(self)


class _HarmfulWindows:
    def __init__(self, rail: HarmfulContentRail) -> None:
        self._rail = rail

    def check(self, window: Window) -> Verdict:
        return self._rail.check(window.text)
