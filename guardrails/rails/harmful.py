"""Requests for clearly harmful content: weapons, violence, self-harm instructions, malware,
sexual content involving minors, drugs and fraud (rules in harmful_rules.py).

Checked per sentence so an exemption in one sentence ("how can I help her?") cannot excuse a
request in another. As an output rail it sees each window of the answer, carried-over context
included, so a harmful sentence split across two windows is still read whole.
"""

from __future__ import annotations

import re

from guardrails.base import Action, Verdict, Window
from guardrails.rails.harmful_rules import CATEGORIES, HarmCategory
from guardrails.text import normalize, sentence_spans

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
        return Verdict.allow(self.name)

    def open(self, system_prompt: str) -> _HarmfulWindows:
        return _HarmfulWindows(self)


class _HarmfulWindows:
    def __init__(self, rail: HarmfulContentRail) -> None:
        self._rail = rail

    def check(self, window: Window) -> Verdict:
        return self._rail.check(window.text)
