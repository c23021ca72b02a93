"""A linear classifier over hashed character n-grams: what the multilingual rail reads with.

MiniLM's WordPiece vocabulary is English (uncased BERT: accents and combining marks are
stripped, so Hindi, Bengali, Tamil and Thai lose their vowel signs) and the judge reads Latin
script only, so in other languages the model rails find few harmful requests. Character
n-grams need no vocabulary: "бомб", "炸弹", "爆弾", "वायरस" are features like any other, in every
script, and a message is scored in well under a millisecond.

Features: the message normalized (NFKC, case-folded, invisible characters out, Latin letters
without their diacritics, since people type without them, whitespace runs as one space) and
framed by spaces; every n-gram of 1 to `max_n` characters (5; files that do not say: MAX_N, 4),
hashed (CRC-32 of its UTF-8 bytes) into `buckets`, each present bucket weighted 1/sqrt(number
of distinct buckets). The score is
sigmoid(w . h + b): a LogisticHead (models/head.py, stored as one: its weight, threshold and a
card saying what trained it; training/train_multilingual.py) over h, with a threshold for
messages in other scripts and one for Latin-script messages in other languages
(`script_threshold`, `latin_threshold`; see rails/multilingual_classifier.py).

h is either that sparse x itself (a linear model: the head's weight has one entry per bucket) or
a hidden layer, relu(E^T x) for a (buckets, D) table E: D features that can each need several
n-grams at once. A linear model over n-grams adds up its evidence, so "without" weighs the same
in "without getting caught" as in "without it coming out oily"; the hidden layer lets the
harm of a clause depend on what else the message says (guardrails/HISTORY.md). The file keeps
only the table's rows some training text used (training/train_multilingual.py zeroes the rest):
an n-gram never seen in training is no evidence either way.
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

# The longest n-gram of a model file that does not say (those before the 5-gram model).
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


def ngram_buckets(text: str, buckets: int, max_n: int = MAX_N) -> np.ndarray:
    """The distinct buckets of `text`'s n-grams (1..max_n characters), sorted (int64)."""
    t = normalize(text)
    found = set()
    for n in range(1, max_n + 1):
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
    # The longest n-gram read, in characters.
    max_n: int = MAX_N

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
        # Never empty: the text is framed by spaces.
        ids = ngram_buckets(text, self.buckets, self.max_n)
        if self.hidden is None:
            return float(self.head.weight[ids].sum() / np.sqrt(ids.size) + self.head.bias)
        h = np.maximum(self.hidden[ids].sum(axis=0) / np.float32(np.sqrt(ids.size)), 0.0)
        return float(h @ self.head.weight + self.head.bias)

    def score(self, text: str) -> float:
        return float(1.0 / (1.0 + np.exp(-self.logit(text))))

    def save(self, path: Path) -> None:
        """float16 weights, compressed; of the table only its rows that are not all zero
        (`hidden_rows`, their bucket numbers)."""
        extra = {
            "script_threshold": self.script_threshold,
            "latin_threshold": self.latin_threshold,
            "max_n": self.max_n,
            "buckets": self.buckets,
        }
        arrays = {}
        if self.hidden is not None:
            rows = np.flatnonzero(np.any(self.hidden != 0, axis=1)).astype(np.int32)
            arrays = {"hidden_rows": rows, "hidden": self.hidden[rows].astype(np.float16)}
        self.head.save(path, weight_dtype=np.float16, compress=True, extra=extra, arrays=arrays)

    @classmethod
    def load(cls, path: Path) -> CharNgramModel:
        try:
            head = LogisticHead.load(path)
            with np.load(path, allow_pickle=False) as data:
                script_threshold = float(data["script_threshold"])
                latin_threshold = float(data["latin_threshold"])
                max_n = int(data["max_n"]) if "max_n" in data else MAX_N
                hidden = None
                if "hidden" in data:
                    hidden = _dense_table(
                        np.asarray(data["hidden"], dtype=np.float32),
                        np.asarray(data["hidden_rows"]),
                        int(data["buckets"]),
                        head.weight.shape[0],
                    )
        except (ModelLoadError, OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot load character n-gram model {path}: {exc}") from exc
        if not 1 <= max_n <= 8:
            raise ModelLoadError(f"cannot load character n-gram model {path}: max_n {max_n}")
        return cls(head, script_threshold, latin_threshold, hidden, max_n)


def _dense_table(values: np.ndarray, rows: np.ndarray, buckets: int, dim: int) -> np.ndarray:
    """The (buckets, dim) table whose `rows` hold `values` and the rest zeros."""
    if values.ndim != 2 or values.shape[1] != dim or rows.shape != (values.shape[0],):
        raise ModelLoadError(
            f"a hidden table of shape {values.shape} ({rows.shape[0]} rows named) does not fit "
            f"a head of dim {dim}"
        )
    if rows.size and (rows.min() < 0 or rows.max() >= buckets):
        raise ModelLoadError(f"hidden table rows outside 0..{buckets - 1}")
    table = np.zeros((buckets, dim), dtype=np.float32)
    table[rows] = values
    return table
