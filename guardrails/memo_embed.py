"""MemoEmbed: an embedding function that remembers its last few texts.

Two input rails (injection_classifier, harmful_classifier) read the same MiniLM embeddings of
the same message pieces; with one MemoEmbed in front of the encoder the second rail finds its
vectors ready, so a message is embedded once per check however many heads read it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidSettingError


class MemoEmbed:
    """Least-recently-used memo over `embed`, keyed on the exact text.

    Thread-safe: the app checks inputs in worker threads. The lock is not held while the
    encoder runs, so two threads may embed the same new text at once; both results are equal
    and the later one wins. Returned arrays are fresh copies: callers may modify them.
    """

    def __init__(self, embed: EmbedFn, max_entries: int = 256) -> None:
        if max_entries < 1:
            raise InvalidSettingError(f"max_entries must be >= 1, got {max_entries}")
        self._embed = embed
        self._max_entries = max_entries
        self._rows: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()

    def __len__(self) -> int:
        return len(self._rows)

    def __call__(self, texts: list[str]) -> np.ndarray:
        """texts -> (n, D) float32, like the wrapped function."""
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                row = self._rows.get(text)
                if row is not None:
                    self._rows.move_to_end(text)
                    found[text] = row
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            fresh = self._embed(missing)  # (m, D)
            with self._lock:
                for text, row in zip(missing, fresh, strict=True):
                    row = np.array(row, dtype=np.float32)
                    row.flags.writeable = False
                    found[text] = row
                    self._rows[text] = row
                    self._rows.move_to_end(text)
                while len(self._rows) > self._max_entries:
                    self._rows.popitem(last=False)
        if not texts:
            return self._embed([])
        return np.stack([found[t] for t in texts])  # (n, D), a new array
