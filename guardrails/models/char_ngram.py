"""A linear classifier over hashed character n-grams: what the multilingual rail reads with.

MiniLM's WordPiece vocabulary is English (uncased BERT: accents and combining marks are
stripped, so Hindi, Bengali, Tamil and Thai lose their vowel signs) and the judge reads Latin
script only, so in other languages the model rails find few harmful requests. Character
n-grams need no vocabulary: "бомб", "炸弹", "爆弾", "वायरस" are features like any other, in every
script, and a message is scored in well under a millisecond.

Features: the message normalized (NFKC, case-folded, invisible characters out, Latin letters
without their diacritics, since people type without them, whitespace runs as one space) and
framed by spaces; every n-gram of 1 to MAX_N characters, hashed (CRC-32 of its UTF-8 bytes) into
`buckets`, each present bucket weighted 1/sqrt(number of distinct buckets). The score is
sigmoid(w . h + b): a LogisticHead (models/head.py, stored as one: its weight, threshold and a
card saying what trained it; training/train_multilingual.py) over h, with a threshold for
messages in other scripts and one for Latin-script messages in other languages
(`script_threshold`, `latin_threshold`; see rails/multilingual_classifier.py).

h is either that sparse x itself (a linear model: the head's weight has one entry per bucket) or
a hidden layer, relu(E^T x) for a (buckets, D) table E: D features that can each need several
n-grams at once. A linear model over n-grams adds up its evidence, so "without" weighs the same
in "without getting caught" as in "without it coming out oily"; the hidden layer lets the
harm of a clause depend on what else the message says (guardrails/HISTORY.md).
"""

from __future__ import annotations

import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.errors import ModelLoadError
from guardrails.models.head import LogisticHead
from guardrails.text import fold_latin, strip_invisible

MAX_N = 4
# A long message is read at its head and tail: the n-grams of at most this many characters.
MAX_CHARS = 2000


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
    text = fold_latin(text)
    text = " ".join(text.split())
    if len(text) > MAX_CHARS:
        half = MAX_CHARS // 2
        text = f"{text[:half]} {text[-half:]}"
    return f" {text} "


def ngram_buckets(text: str, buckets: int) -> np.ndarray:
    """The distinct buckets of `text`'s n-grams (1..MAX_N characters), sorted (int64)."""
    t = normalize(text)
    found = set()
    for n in range(1, MAX_N + 1):
        for i in range(len(t) - n + 1):
            found.add(zlib.crc32(t[i : i + n].encode()) % buckets)
    return np.fromiter(sorted(found), dtype=np.int64, count=len(found))


@dataclass(frozen=True)
class CharNgramModel:
    """A logistic head whose (buckets,) weight is indexed by n-gram bucket: w . x for the
    sparse x above is the sum of the present buckets' weights over the root of their count."""

    head: LogisticHead
    # The thresholds where the rail decides without MiniLM's heads: messages in other scripts,
    # and Latin-script ones in other languages; `threshold` (the head's) is for the rest it reads.
    script_threshold: float
    latin_threshold: float
    # (buckets, D) float32, the hidden layer's table; None for a linear model.
    hidden: np.ndarray | None = None

    @property
    def buckets(self) -> int:
        table = self.head.weight if self.hidden is None else self.hidden
        return int(table.shape[0])

    @property
    def threshold(self) -> float:
        return self.head.threshold

    @property
    def card(self) -> dict:
        return self.head.card

    def logit(self, text: str) -> float:
        ids = ngram_buckets(text, self.buckets)  # never empty: the text is framed by spaces
        if self.hidden is None:
            return float(self.head.weight[ids].sum() / np.sqrt(ids.size) + self.head.bias)
        h = np.maximum(self.hidden[ids].sum(axis=0) / np.float32(np.sqrt(ids.size)), 0.0)
        return float(h @ self.head.weight + self.head.bias)

    def score(self, text: str) -> float:
        return float(1.0 / (1.0 + np.exp(-self.logit(text))))

    def save(self, path: Path) -> None:
        """float16 weights (and table), compressed."""
        arrays = {} if self.hidden is None else {"hidden": self.hidden.astype(np.float16)}
        self.head.save(
            path,
            weight_dtype=np.float16,
            compress=True,
            extra={
                "script_threshold": self.script_threshold,
                "latin_threshold": self.latin_threshold,
            },
            arrays=arrays,
        )

    @classmethod
    def load(cls, path: Path) -> CharNgramModel:
        try:
            head = LogisticHead.load(path)
            with np.load(path, allow_pickle=False) as data:
                script_threshold = float(data["script_threshold"])
                latin_threshold = float(data["latin_threshold"])
                hidden = np.asarray(data["hidden"], dtype=np.float32) if "hidden" in data else None
        except (ModelLoadError, OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot load character n-gram model {path}: {exc}") from exc
        if hidden is not None and (hidden.ndim != 2 or hidden.shape[1] != head.weight.shape[0]):
            raise ModelLoadError(
                f"cannot load character n-gram model {path}: a hidden table of shape "
                f"{hidden.shape} does not fit a head of dim {head.weight.shape[0]}"
            )
        return cls(head, script_threshold, latin_threshold, hidden)
