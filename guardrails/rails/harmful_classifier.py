"""Harmful-request classifier rail: a logistic head over MiniLM sentence embeddings. With the
default `classifier_backend="tuned"` the head and the encoder come from
guardrails/data/tuned_minilm.npz (models/tuned_minilm.py); with "frozen" the head is
guardrails/data/harmful_head.npz over the shared MiniLM, fitted by
guardrails/training/train_harmful_head.py on public harmful requests (AdvBench, Do-Not-Answer)
against public and authored benign requests (each head's card says exactly which).

It covers the paraphrases the phrase rules of the "harmful" rail miss.
"""

from __future__ import annotations

from pathlib import Path

from guardrails.rails.head_classifier import HeadClassifierRail

DEFAULT_HEAD = Path(__file__).resolve().parent.parent / "data" / "harmful_head.npz"


class HarmfulClassifierRail(HeadClassifierRail):
    name = "harmful_classifier"
    what = "request for harmful content"
