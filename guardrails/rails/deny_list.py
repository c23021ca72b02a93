"""Configurable deny-list: whole-word terms and regular expressions an operator forbids."""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrails.base import Action, Verdict, Window
from guardrails.errors import InvalidSettingError
from guardrails.text import normalize


class DenyListRail:
    """Blocks text that contains a listed term (case-, width- and leetspeak-insensitive, whole
    words) or matches a listed pattern (Python regex, case-insensitive, on the raw text).
    Works as an input rail (`check`) and as an output rail (`open`)."""

    name = "deny_list"

    def __init__(self, terms: Sequence[str] = (), patterns: Sequence[str] = ()) -> None:
        self._terms: list[tuple[str, re.Pattern[str]]] = []
        for term in terms:
            norm = normalize(term)
            if not norm:
                raise InvalidSettingError(f"deny-list term {term!r} is empty after normalization")
            self._terms.append((term, re.compile(rf"(?<!\w){re.escape(norm)}(?!\w)")))
        self._patterns: list[re.Pattern[str]] = []
        for pattern in patterns:
            try:
                self._patterns.append(re.compile(pattern, re.IGNORECASE))
            except re.error as exc:
                raise InvalidSettingError(
                    f"deny-list pattern {pattern!r} is invalid: {exc}"
                ) from exc

    def check(self, text: str) -> Verdict:
        norm = normalize(text)
        for term, rx in self._terms:
            m = rx.search(norm)
            if m:
                return Verdict(Action.BLOCK, self.name, f"deny-listed term {term!r}", 1.0, m[0])
        for rx in self._patterns:
            m = rx.search(text)
            if m:
                reason = f"deny-listed pattern {rx.pattern!r}"
                return Verdict(Action.BLOCK, self.name, reason, 1.0, m[0])
        return Verdict.allow(self.name)

    def open(self, system_prompt: str) -> _DenyListWindows:
        return _DenyListWindows(self)


class _DenyListWindows:
    def __init__(self, rail: DenyListRail) -> None:
        self._rail = rail

    def check(self, window: Window) -> Verdict:
        # The carried-over context is included: a term split across two windows is seen whole.
        return self._rail.check(window.text)
