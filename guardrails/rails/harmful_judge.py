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

from functools import lru_cache

from guardrails.rails.head_classifier import MIN_OTHER_SENTENCES, HeadClassifierRail
from guardrails.text import (
    LATIN_SCRIPT_SHARE,
    in_latin_script,
    is_english_sentence,
    latin_language,
    leans_other_latin,
    sentence_spans,
    strip_invisible,
)

# ~100 tokens, within the 128 the judge was trained on.
TAIL_CHARS = 400
# The judge reads only a tail at least this Latin (text.latin_share). It was trained on
# English rows, and on other scripts it takes ordinary questions for harmful ones: it scored
# 24 of the 211 benign multilingual validation rows at 0.99999 or more (a dose of ibuprofen in
# Chinese, a birthday poem in Korean, a cover letter in Urdu). MiniLM's heads, trained on
# messages in 26 languages, judge those alone.
MIN_LATIN_SHARE = LATIN_SCRIPT_SHARE


def judge_reads(text: str) -> bool:
    """Whether the judge reads `text` at all: whether the tail it would read (judge_tail: its
    sentences in Latin script) is mostly Latin letters (MIN_LATIN_SHARE). The tail, not the
    whole message: a request in English after a pasted paragraph in Chinese is what the judge
    reads, and it reads English."""
    return in_latin_script(judge_tail(text))


@lru_cache(maxsize=16)  # reads() and pieces() ask for the same message's tail in turn
def judge_tail(text: str) -> str:
    """What the judge reads of a message: its last whole sentences in Latin script within
    TAIL_CHARS (a longer last one, its last TAIL_CHARS), invisible characters left out first.
    Sentences mostly in other scripts are skipped: an English request after a paragraph in
    Chinese, or before a "thank you" in Russian, is read without them; so are the last
    sentences when they are a paragraph in another Latin-script language after an English one
    (`_trailing_other_language`: a request with a notice in German pasted after it). Skipped
    sentences leave a space between what they separated. A message with no sentence in Latin
    script keeps its plain tail (and `judge_reads` says no). A request usually ends what it
    says, and the judge's cost stays bounded on long messages, which MiniLM's two heads read
    whole. The trainer reads training rows the same way."""
    text = strip_invisible(text)
    spans = sentence_spans(text) or [(0, len(text))]
    latin = [in_latin_script(text[a:b]) for a, b in spans]
    skip_other_scripts = any(latin)
    skipped = _trailing_other_language(text, spans, latin)
    chosen: list[int] = []  # indices of the sentences read, the last first
    length = 0  # characters read, adjacent sentences as written, others joined by a space
    english = False  # whether the last sentence read is plainly English
    for i in range(len(spans) - 1, -1, -1):
        a, b = spans[i]
        if (skip_other_scripts and not latin[i]) or i in skipped:
            continue
        if not chosen:  # always read, measured to the text's end as a tail is
            english = is_english_sentence(text[a:b])
            length = (len(text) if i == len(spans) - 1 else b) - a
            chosen.append(i)
            continue
        if english and leans_other_latin(text[a:b]):
            break  # an English request after a paragraph in French or German: read alone
        length += spans[i + 1][0] - a if chosen[-1] == i + 1 else b - a + 1
        if length > TAIL_CHARS:
            break
        chosen.append(i)
    runs: list[str] = []  # each run of adjacent sentences as written, in text order
    start = chosen[-1]
    for i, following in zip(chosen[::-1], [*chosen[-2::-1], None], strict=True):
        if following != i + 1:
            runs.append(text[spans[start][0] : spans[i][1]])
            start = following
    tail = " ".join(runs).strip()
    return tail[-TAIL_CHARS:] or text[-TAIL_CHARS:]


def _trailing_other_language(
    text: str, spans: list[tuple[int, int]], latin: list[bool]
) -> set[int]:
    """The last Latin-script sentences, when at least MIN_OTHER_SENTENCES of them lean to
    another Latin-script language and an English sentence comes before them
    (text.latin_language): a request followed by a pasted paragraph in German or Spanish,
    whose tail would be the paragraph. Sentences too short to tell inside that run go with it;
    other scripts are passed over, as judge_tail skips them."""
    run: list[int] = []
    leaning = 0
    for i in range(len(spans) - 1, -1, -1):
        if not latin[i]:
            continue
        language = latin_language(text[spans[i][0] : spans[i][1]])
        if language == "other":
            leaning += 1
        elif language == "en":
            return set(run) if leaning >= MIN_OTHER_SENTENCES else set()
        run.append(i)
    return set()


class HarmfulJudgeRail(HeadClassifierRail):
    name = "harmful_judge"
    what = "request for harmful content (judge)"

    def defers(self, text: str) -> bool:
        """Whether the tail it reads is one it leaves to another rail (`defers_to`, the
        multilingual rail's test): on the multilingual validation rows in Latin-script
        languages the judge added 27 of 392 attacks for 21 of 256 benign rows (a bread recipe
        in Portuguese), over the rail's false-positive budget on its own. The tail, not the
        message: an English request after a notice in Russian is the judge's to read."""
        return self.defers_to is not None and self.defers_to(judge_tail(text))

    def reads(self, text: str) -> bool:
        """No model call for a message it does not read or defers."""
        return judge_reads(text) and not self.defers(text)

    def score(self, text: str) -> float:
        """0 for a message the judge does not read; no model call then."""
        return super().score(text) if self.reads(text) else 0.0

    def pieces(self, text: str) -> list[str]:
        return [judge_tail(text)]
