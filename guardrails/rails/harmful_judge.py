"""Harmful-request judge rail: a logistic head over the chat model's own first layers
(SmolLM2-135M-Instruct, LoRA-tuned; guardrails/data/judge_smollm2.npz, models/judge.py),
trained on the same rows as the harmful-request classifier.

Why a second harmful-request rail: MiniLM tells a claim's topic better than its truth, and
persuasive writing that spreads a falsehood reads like its honest twin to it; a model
pre-trained on ~2T tokens of web and encyclopaedic text separates more of them (README,
Guardrails). On one core with native bf16 it costs ~18 ms at 16 tokens and ~35 ms at 100.
"""

from __future__ import annotations

from guardrails.rails.head_classifier import HeadClassifierRail
from guardrails.text import sentence_spans, strip_invisible

# ~100 tokens, within the 128 the judge was trained on; ~35 ms on one bf16 core.
TAIL_CHARS = 400


class HarmfulJudgeRail(HeadClassifierRail):
    name = "harmful_judge"
    what = "request for harmful content (judge)"

    def pieces(self, text: str) -> list[str]:
        """The message's tail: its last whole sentences within TAIL_CHARS (a longer last
        sentence, its last TAIL_CHARS). A request usually ends what it says, and the judge's
        cost stays bounded on long messages, which MiniLM's two heads read whole. Invisible
        characters are left out first."""
        text = strip_invisible(text)
        spans = sentence_spans(text) or [(0, len(text))]
        start = spans[-1][0]
        for a, _ in reversed(spans):
            if len(text) - a > TAIL_CHARS:
                break
            start = a
        tail = text[start:].strip()
        return [tail[-TAIL_CHARS:] or text[-TAIL_CHARS:]]
