"""A byte-level BPE tokenizer in tiktoken's format (regex pre-split, merge by rank).

NanoGuard ships its tokenizer as a pickled `tiktoken.core.Encoding`. Unpickling runs whatever
the file names, so `_EncodingState` reads it with an unpickler that admits exactly one class and
keeps only the plain data in its state (pattern, ranks, special tokens). That way neither
tiktoken nor arbitrary code is needed: encoding is the rank-ordered merge loop below.
"""

from __future__ import annotations

import functools
import pickle
from pathlib import Path

import regex

from guardrails.errors import ModelLoadError


class _EncodingState:
    """Stand-in for tiktoken's Encoding: pickle's BUILD hands it the state dict, nothing runs."""

    state: dict

    def __setstate__(self, state: dict) -> None:
        self.state = state


class _OneClassUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if (module, name) == ("tiktoken.core", "Encoding"):
            return _EncodingState
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a tokenizer file")


class BpeTokenizer:
    """Encodes text to ids; pieces repeat a lot, so each piece's ids are cached."""

    def __init__(
        self, pattern: regex.Pattern, ranks: dict[bytes, int], special_tokens: dict[str, int]
    ) -> None:
        self.pattern = pattern
        self.ranks = ranks
        self.special_tokens = special_tokens
        self._encode_piece = functools.lru_cache(maxsize=16384)(self._merge)

    @classmethod
    def from_tiktoken_pickle(cls, path: Path) -> BpeTokenizer:
        try:
            with path.open("rb") as f:
                obj = _OneClassUnpickler(f).load()
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
            raise ModelLoadError(f"cannot read tokenizer {str(path)!r}: {exc}") from exc
        state = getattr(obj, "state", None)
        if not isinstance(state, dict) or not {"pat_str", "mergeable_ranks"} <= state.keys():
            raise ModelLoadError(f"tokenizer {str(path)!r} is not a tiktoken encoding")
        ranks = state["mergeable_ranks"]
        if not all(isinstance(k, bytes) and isinstance(v, int) for k, v in ranks.items()):
            raise ModelLoadError(f"tokenizer {str(path)!r} has malformed merge ranks")
        return cls(regex.compile(state["pat_str"]), ranks, dict(state.get("special_tokens", {})))

    def encode_ordinary(self, text: str) -> list[int]:
        """Token ids of `text`; special-token strings in it are encoded as ordinary text."""
        ids: list[int] = []
        for piece in self.pattern.findall(text):
            ids.extend(self._encode_piece(piece.encode("utf-8")))
        return ids

    def _merge(self, piece: bytes) -> tuple[int, ...]:
        rank = self.ranks.get(piece)
        if rank is not None:
            return (rank,)
        parts = [piece[i : i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            # Merge the adjacent pair whose concatenation has the lowest rank (learned earliest).
            best_rank, best_i = None, -1
            for i in range(len(parts) - 1):
                r = self.ranks.get(parts[i] + parts[i + 1])
                if r is not None and (best_rank is None or r < best_rank):
                    best_rank, best_i = r, i
            if best_rank is None:
                break
            parts[best_i : best_i + 2] = [parts[best_i] + parts[best_i + 1]]
        return tuple(self.ranks[p] for p in parts)
