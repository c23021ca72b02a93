"""BM25 over chunk texts, for hybrid rescoring of dense results.

Statistics (document frequency, average length) are computed over the chunks the asking
scope may see, so one user's documents never shift another user's scores.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Iterable

_TERM = re.compile(r"\w+", re.UNICODE)
# Words too common to discriminate between chunks.
# fmt: off
_STOPWORDS = frozenset(
    (
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has",
        "have", "how", "i", "if", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this",
        "to", "was", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
    )
)
# fmt: on


def terms(text: str) -> list[str]:
    return [t for t in _TERM.findall(text.lower()) if len(t) > 1 and t not in _STOPWORDS]


class LexicalIndex:
    """An inverted index: term -> {chunk_id: term frequency}, plus each chunk's length."""

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._lock = threading.Lock()
        self._postings: dict[str, dict[int, int]] = {}
        self._lengths: dict[int, int] = {}
        self._terms: dict[int, tuple[str, ...]] = {}

    def add(self, items: Iterable[tuple[int, str]]) -> None:
        with self._lock:
            for chunk_id, text in items:
                counts = Counter(terms(text))
                self._lengths[chunk_id] = sum(counts.values())
                self._terms[chunk_id] = tuple(counts)
                for term, tf in counts.items():
                    self._postings.setdefault(term, {})[chunk_id] = tf

    def remove(self, chunk_ids: Iterable[int]) -> None:
        with self._lock:
            for chunk_id in chunk_ids:
                for term in self._terms.pop(chunk_id, ()):
                    posting = self._postings[term]
                    del posting[chunk_id]
                    if not posting:
                        del self._postings[term]
                self._lengths.pop(chunk_id, None)

    def scores(self, query: str, allowed: set[int]) -> dict[int, float]:
        """BM25 score of every allowed chunk sharing a term with the query."""
        query_terms = set(terms(query))
        if not query_terms or not allowed:
            return {}
        with self._lock:
            lengths = [self._lengths[i] for i in allowed if i in self._lengths]
            if not lengths:
                return {}
            num_docs = len(lengths)
            avg_len = max(sum(lengths) / num_docs, 1.0)
            out: dict[int, float] = {}
            for term in sorted(query_terms):
                posting = self._postings.get(term)
                if not posting:
                    continue
                hits = [(i, tf) for i, tf in posting.items() if i in allowed]
                if not hits:
                    continue
                idf = math.log(1.0 + (num_docs - len(hits) + 0.5) / (len(hits) + 0.5))
                for chunk_id, tf in hits:
                    norm = self.k1 * (1 - self.b + self.b * self._lengths[chunk_id] / avg_len)
                    out[chunk_id] = out.get(chunk_id, 0.0) + idf * tf * (self.k1 + 1) / (tf + norm)
            return out
