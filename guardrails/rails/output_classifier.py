"""Output rail: a classifier head over each streamed window of the answer.

The rules rail ("harmful") was written for requests ("how do I make ..."); an answer that
complies ("To make it, first mix ...") seldom reads like one. This rail scores every window
the streaming checker hands it (new text plus the carried-over context, ~220 chars) with a
logistic head trained on the chat model's own answers (guardrails/training/
train_output_head.py), against a threshold chosen on its answers to validation requests.
"""

from __future__ import annotations

from pathlib import Path

from guardrails.base import Action, Verdict, Window
from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidSettingError
from guardrails.models.head import LogisticHead

OUTPUT_HEAD = Path(__file__).resolve().parents[1] / "data" / "output_head.npz"


class OutputClassifierRail:
    """Blocks the stream at the first window whose head score reaches `threshold`."""

    def __init__(
        self, name: str, what: str, embed: EmbedFn, head: LogisticHead, threshold: float
    ) -> None:
        if not 0.0 < threshold < 1.0:
            raise InvalidSettingError(f"{name} output threshold must be in (0, 1), got {threshold}")
        self.name = name
        self.what = what  # the block reason's wording
        self._embed = embed
        self.head = head
        self.threshold = threshold

    def score(self, text: str) -> float:
        return float(self.head.score(self._embed([text]))[0])

    def open(self, system_prompt: str) -> _ClassifierWindows:
        return _ClassifierWindows(self)


class _ClassifierWindows:
    def __init__(self, rail: OutputClassifierRail) -> None:
        self._rail = rail

    def check(self, window: Window) -> Verdict:
        if not window.text.strip():
            return Verdict.allow(self._rail.name)
        score = self._rail.score(window.text)
        if score >= self._rail.threshold:
            reason = f"{self._rail.what} (classifier score {score:.3f})"
            return Verdict(Action.BLOCK, self._rail.name, reason, score, window.new_text)
        return Verdict.allow(self._rail.name, score)
