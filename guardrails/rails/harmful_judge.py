"""Harmful-request judge rail: a logistic head over the chat model's own first layers
(SmolLM2-135M-Instruct, LoRA-tuned; guardrails/data/judge_smollm2.npz, models/judge.py),
trained on the same rows as the harmful-request classifier.

Why a second harmful-request rail: MiniLM tells a claim's topic better than its truth, and
persuasive writing that spreads a falsehood reads like its honest twin to it; a model
pre-trained on ~2T tokens of web and encyclopaedic text separates more of them
(guardrails/HISTORY.md). On one core of a Zen 4 (native bf16, AVX512-VNNI) it reads a message
in int8 in p50 11.4 / p95 29.8 ms (bf16: 27.0 / 58.3; 3,755 validation rows,
training/calibrate_judge.py).
"""

from __future__ import annotations

from guardrails.rails.head_classifier import HeadClassifierRail
from guardrails.text import latin_share, sentence_spans, strip_invisible

# ~100 tokens, within the 128 the judge was trained on.
TAIL_CHARS = 400
# The judge reads only messages at least this Latin (text.latin_share). It was trained on
# English rows, and on other scripts it takes ordinary questions for harmful ones: it scored
# 24 of the 211 benign multilingual validation rows at 0.99999 or more (a dose of ibuprofen in
# Chinese, a birthday poem in Korean, a cover letter in Urdu). MiniLM's heads, trained on
# messages in 26 languages, judge those alone.
MIN_LATIN_SHARE = 0.8


def judge_reads(text: str) -> bool:
    """Whether the judge reads `text` at all (MIN_LATIN_SHARE)."""
    return latin_share(text) >= MIN_LATIN_SHARE


def judge_tail(text: str) -> str:
    """What the judge reads of a message: its last whole sentences within TAIL_CHARS (a longer
    last sentence, its last TAIL_CHARS), invisible characters left out first. A request
    usually ends what it says, and the judge's cost stays bounded on long messages, which
    MiniLM's two heads read whole. The trainer reads training rows the same way."""
    text = strip_invisible(text)
    spans = sentence_spans(text) or [(0, len(text))]
    start = spans[-1][0]
    for a, _ in reversed(spans):
        if len(text) - a > TAIL_CHARS:
            break
        start = a
    tail = text[start:].strip()
    return tail[-TAIL_CHARS:] or text[-TAIL_CHARS:]


class HarmfulJudgeRail(HeadClassifierRail):
    name = "harmful_judge"
    what = "request for harmful content (judge)"

    def reads(self, text: str) -> bool:
        return judge_reads(text)

    def score(self, text: str) -> float:
        """0 for a message the judge does not read; no model call then."""
        return super().score(text) if self.reads(text) else 0.0

    def pieces(self, text: str) -> list[str]:
        return [judge_tail(text)]
