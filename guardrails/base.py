"""The vocabulary every rail speaks: actions, verdicts, moderation events, rail protocols.

A rail is a small unit with one job. Input rails look at one user message; output rails look at
windows of a streamed answer. Both return a `Verdict`; the pipeline turns every verdict that is
not ALLOW into exactly one `ModerationEvent`, which the app stores in its moderation table.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

EXCERPT_CHARS = 160


class Action(enum.StrEnum):
    """What a rail asks the caller to do. Values are the protocol's `action` strings."""

    ALLOW = "allow"
    BLOCK = "block"
    REDACT = "redact"
    FLAG = "flag"


class Stage(enum.StrEnum):
    INPUT = "input"
    OUTPUT = "output"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One rail's decision on one piece of text.

    `score` is the rail's confidence in [0, 1] that the text is a problem (1.0 for a rule that
    matched, 0.0 for a rule that did not). `excerpt` is the part of the text that caused the
    verdict, already free of anything a redaction removed.
    """

    action: Action
    rail: str
    reason: str = ""
    score: float = 0.0
    excerpt: str = ""

    @property
    def allowed(self) -> bool:
        return self.action is not Action.BLOCK

    @classmethod
    def allow(cls, rail: str, score: float = 0.0) -> Verdict:
        return cls(Action.ALLOW, rail, "", score)


@dataclass(frozen=True, slots=True)
class ModerationEvent:
    """A row for the app's moderation table (PROTOCOL.md: stage, rail, action, reason,
    excerpt)."""

    stage: Stage
    rail: str
    action: Action
    reason: str
    excerpt: str

    @classmethod
    def from_verdict(cls, stage: Stage, verdict: Verdict) -> ModerationEvent:
        return cls(stage, verdict.rail, verdict.action, verdict.reason, clip(verdict.excerpt))


@dataclass(frozen=True, slots=True)
class Window:
    """A piece of a streamed answer under check: `text[:num_context_chars]` was released
    already (carried over so a sentence split across windows is seen whole), the rest is new."""

    text: str
    num_context_chars: int
    is_final: bool

    @property
    def new_text(self) -> str:
        return self.text[self.num_context_chars :]


class InputRail(Protocol):
    """Checks one user message before retrieval and generation. May run a model (sync)."""

    name: str

    def check(self, text: str) -> Verdict: ...


class WindowChecker(Protocol):
    """The per-answer state of an output rail; sees the windows of one answer in order."""

    def check(self, window: Window) -> Verdict: ...


class OutputRail(Protocol):
    """An output rail opens one `WindowChecker` per streamed answer."""

    name: str

    def open(self, system_prompt: str) -> WindowChecker: ...


def clip(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Shortens an excerpt for storage; an ellipsis shows that text was cut."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
