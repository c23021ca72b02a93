"""Harmful-request classifier rail: a logistic head over MiniLM sentence embeddings, fitted by
guardrails/training/train_harmful_head.py on public harmful requests (AdvBench, Do-Not-Answer)
against public and authored benign requests (the head's card says exactly which).

It covers the paraphrases the phrase rules of the "harmful" rail miss. It reads the same
message pieces as the injection classifier (`split_pieces`), so with a shared `MemoEmbed` the
two heads cost one embedding. The highest piece score counts.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from guardrails.base import Action, Verdict
from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidSettingError
from guardrails.models.head import LogisticHead
from guardrails.rails.injection_classifier import split_pieces

DEFAULT_HEAD = Path(__file__).resolve().parent.parent / "data" / "harmful_head.npz"


class HarmfulClassifierRail:
    name = "harmful_classifier"

    def __init__(self, embed: EmbedFn, head: LogisticHead, threshold: float | None = None) -> None:
        threshold = head.threshold if threshold is None else threshold
        if not 0.0 < threshold < 1.0:
            raise InvalidSettingError(
                f"harmful_classifier threshold must be in (0, 1), got {threshold}"
            )
        self._embed = embed
        self.head = head
        self.threshold = threshold

    def score(self, text: str) -> float:
        vecs = self._embed(split_pieces(text))  # (P, 384)
        return float(np.max(self.head.score(vecs)))

    def check(self, text: str) -> Verdict:
        score = self.score(text)
        if score >= self.threshold:
            reason = f"request for harmful content (classifier score {score:.3f})"
            return Verdict(Action.BLOCK, self.name, reason, score, text)
        return Verdict.allow(self.name, score)
