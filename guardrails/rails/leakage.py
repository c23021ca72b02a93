"""System-prompt leakage: block an answer that reproduces a large part of the system prompt.

The share of the prompt's word n-grams that have appeared anywhere in the answer so far is
compared with a threshold. N-grams are collected from each window with its carried-over
context, so one that straddles two windows is still counted.
"""

from __future__ import annotations

import re

from guardrails.base import Action, Verdict, Window
from guardrails.errors import InvalidSettingError
from guardrails.text import normalize

_WORD = re.compile(r"\w+")


def word_ngrams(text: str, n: int) -> set[tuple[str, ...]]:
    words = _WORD.findall(normalize(text))
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


class SystemPromptLeakRail:
    name = "system_prompt_leak"

    def __init__(self, ngram: int = 6, threshold: float = 0.4, min_prompt_ngrams: int = 4) -> None:
        if ngram < 2:
            raise InvalidSettingError(f"leak n-gram size must be >= 2, got {ngram}")
        if not 0.0 < threshold <= 1.0:
            raise InvalidSettingError(f"leak threshold must be in (0, 1], got {threshold}")
        self.ngram = ngram
        self.threshold = threshold
        self.min_prompt_ngrams = min_prompt_ngrams

    def open(self, system_prompt: str) -> _LeakWindows:
        return _LeakWindows(self, word_ngrams(system_prompt, self.ngram))


class _LeakWindows:
    def __init__(self, rail: SystemPromptLeakRail, prompt_ngrams: set[tuple[str, ...]]) -> None:
        self._rail = rail
        # A prompt of a few words is no secret worth guarding and would trip on any echo.
        self._prompt = prompt_ngrams if len(prompt_ngrams) >= rail.min_prompt_ngrams else set()
        self._seen: set[tuple[str, ...]] = set()

    def check(self, window: Window) -> Verdict:
        if not self._prompt:
            return Verdict.allow(self._rail.name)
        self._seen |= word_ngrams(window.text, self._rail.ngram) & self._prompt
        share = len(self._seen) / len(self._prompt)
        if share >= self._rail.threshold:
            reason = f"answer reproduces {share:.0%} of the system prompt"
            return Verdict(Action.BLOCK, self._rail.name, reason, share, window.new_text)
        return Verdict.allow(self._rail.name, share)
