"""Output rail: a classifier head over each streamed window of the answer.

The rules rail ("harmful") was written for requests ("how do I make ..."); an answer that
complies ("To make it, first mix ...") seldom reads like one. This rail scores every window
the streaming checker hands it (new text plus the carried-over context, ~220 chars) with a
logistic head trained on the chat model's own answers (guardrails/training/
train_output_head.py), against a threshold chosen on its answers to validation requests.
Scoring and the threshold's check are the input classifier rails' (HeadClassifierRail); a
window is one piece.
"""

from __future__ import annotations

from pathlib import Path

from guardrails.base import Action, Verdict, Window
from guardrails.rails.head_classifier import HeadClassifierRail

OUTPUT_HEAD = Path(__file__).resolve().parents[1] / "data" / "output_head.npz"


class HarmfulOutputRail(HeadClassifierRail):
    """Blocks the stream at the first window whose head score reaches `threshold`."""

    paragraph_pieces = False  # as its threshold was chosen

    name = "harmful_output"
    what = "harmful content in the answer"

    def open(self, system_prompt: str) -> _ClassifierWindows:
        return _ClassifierWindows(self)


class _ClassifierWindows:
    def __init__(self, rail: HarmfulOutputRail) -> None:
        self._rail = rail

    def check(self, window: Window) -> Verdict:
        if not window.text.strip():
            return Verdict.allow(self._rail.name)
        score = self._rail.score(window.text)
        if score >= self._rail.threshold:
            reason = f"{self._rail.what} (classifier score {score:.3f})"
            return Verdict(Action.BLOCK, self._rail.name, reason, score, window.new_text)
        return Verdict.allow(self._rail.name, score)
