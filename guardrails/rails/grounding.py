"""Grounding: score each answer sentence for support by the retrieved chunks.

A sentence is supported when enough of its content words occur in the chunks (lexical
overlap) or when its embedding is close enough to one of the chunks' (cosine similarity).
Short sentences ("Sure!", "I hope this helps.") carry no claim and are not scored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidSettingError
from guardrails.text import normalize, sentence_spans

_WORD = re.compile(r"[^\W_]+")
_STOPWORDS_TEXT = (
    "a an the and or but if then else of in on at to for from by with without about as "
    "is are was were be been being it its this that these those there here i you he she "
    "we they me him her us them my your his our their what which who whom whose when "
    "where why how all any both each few more most other some such no nor not only own "
    "same so than too very can will just should would could may might must do does did "
    "doing have has had having also into over under again further once up down out off "
    "above below between through during before after until while because yes"
)
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry meaning; a plural 's' is dropped so 'chunk'='chunks'."""
    words = set()
    for w in _WORD.findall(normalize(text)):
        if w in _STOPWORDS or (len(w) < 3 and not w.isdigit()):
            continue
        words.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return words


@dataclass(frozen=True, slots=True)
class SentenceSupport:
    start: int  # char span of the sentence in the answer
    end: int
    text: str
    lexical: float  # share of the sentence's content words found in the chunks
    semantic: float  # best cosine similarity to a chunk (0.0 without an embedder)
    supported: bool


@dataclass(frozen=True, slots=True)
class GroundingReport:
    sentences: tuple[SentenceSupport, ...]  # only the sentences that were scored

    @property
    def unsupported(self) -> tuple[SentenceSupport, ...]:
        return tuple(s for s in self.sentences if not s.supported)


class GroundingChecker:
    name = "grounding"

    def __init__(
        self,
        embed: EmbedFn | None = None,
        min_similarity: float = 0.55,
        min_overlap: float = 0.6,
        min_words: int = 4,
    ) -> None:
        for label, value in (("min_similarity", min_similarity), ("min_overlap", min_overlap)):
            if not 0.0 <= value <= 1.0:
                raise InvalidSettingError(f"grounding {label} must be in [0, 1], got {value}")
        if min_words < 1:
            raise InvalidSettingError(f"grounding min_words must be >= 1, got {min_words}")
        self._embed = embed
        self.min_similarity = min_similarity
        self.min_overlap = min_overlap
        self.min_words = min_words

    def check(self, answer: str, chunks: Sequence[str]) -> GroundingReport:
        """Scores `answer` against `chunks`; without chunks there is nothing to ground in and
        the report is empty. Sync (runs the embedder): call it from a worker thread."""
        chunks = [c for c in chunks if c.strip()]
        if not chunks or not answer.strip():
            return GroundingReport(())
        chunk_words: set[str] = set()
        for c in chunks:
            chunk_words |= content_words(c)
        spans = [
            (a, b, words)
            for a, b in sentence_spans(answer)
            if len(words := content_words(answer[a:b])) >= self.min_words
        ]
        if not spans:
            return GroundingReport(())
        semantic = np.zeros(len(spans), dtype=np.float32)
        if self._embed is not None:
            vecs = self._embed([answer[a:b] for a, b, _ in spans] + chunks)  # (S + C, D)
            sims = vecs[: len(spans)] @ vecs[len(spans) :].T  # (S, C)
            semantic = sims.max(axis=1)
        out = []
        for (a, b, words), sem in zip(spans, semantic, strict=True):
            lexical = len(words & chunk_words) / len(words)
            supported = lexical >= self.min_overlap or (
                self._embed is not None and float(sem) >= self.min_similarity
            )
            out.append(SentenceSupport(a, b, answer[a:b], lexical, float(sem), supported))
        return GroundingReport(tuple(out))
