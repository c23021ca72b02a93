"""Prompt-injection classifier rail over the NanoGuard transformer (see models/nanoguard.py
for what it was trained on).

Texts longer than `window` tokens are scored in windows (the last one aligned to the end) and
the highest window score counts, so an attack past the model's 512-token context is not cut
off; beyond `max_windows` (default 2: the first and the last 511 tokens) only the head's and
the tail's windows are read, because each full window costs ~100-200 ms on one core of this
CPU (measured against 8 windows: no decision changed on the dev set or the held-out splits).
All windows of a text run as one batch. Limitation: the model mean-pools over all tokens, so
a short attack inside a long benign window is diluted (measured: the score of a 17-token attack
falls from 0.99999 to 0.30 behind 57 tokens of filler); smaller windows find it but fire more
often on benign text."""

from __future__ import annotations

from collections.abc import Callable

from guardrails.base import Action, Verdict
from guardrails.errors import InvalidSettingError
from guardrails.models.nanoguard import NanoGuard
from guardrails.text import strip_invisible


class InjectionModelRail:
    name = "injection_model"

    def __init__(
        self,
        model: NanoGuard,
        threshold: float = 0.99,
        window: int = 511,
        stride: int = 511,
        max_windows: int = 2,
        defers_to: Callable[[str], bool] | None = None,
    ) -> None:
        if not 0.0 < threshold <= 1.0:
            raise InvalidSettingError(
                f"injection_model threshold must be in (0, 1], got {threshold}"
            )
        self.model = model
        self.threshold = threshold
        if not 0 < stride <= window < model.net.cfg.sequence_len:
            raise InvalidSettingError(
                f"need 0 < stride <= window < {model.net.cfg.sequence_len}, "
                f"got stride={stride} window={window}"
            )
        if max_windows < 1:
            raise InvalidSettingError(f"max_windows must be >= 1, got {max_windows}")
        self.window = window
        self.stride = stride
        self.max_windows = max_windows
        # Messages another rail decides alone (the pipeline passes the multilingual rail's
        # test): NanoGuard, trained on English injections, takes many ordinary messages in
        # other scripts for attacks (a leave request to HR in Arabic, 0.9999); on the
        # multilingual validation rows in other scripts it added 11 of 416 attacks for 28 of
        # 585 benign rows.
        self.defers_to = defers_to

    def windows(self, text: str) -> list[list[int]]:
        """BOS + up to `window` tokens per window, all of one length when there are several
        (so they run as one batch); at most `max_windows`, the head's and the tail's."""
        ids = self.model.tokenizer.encode_ordinary(strip_invisible(text))
        span = self.window
        starts = list(range(0, max(len(ids) - span, 0) + 1, self.stride))
        if starts[-1] + span < len(ids):
            starts.append(len(ids) - span)
        if len(starts) > self.max_windows:
            # Keep the head and the tail: instructions hide at the start or the end.
            head = (self.max_windows + 1) // 2
            tail = self.max_windows - head
            starts = starts[:head] + (starts[-tail:] if tail else [])
        return [[self.model.bos_id, *ids[s : s + span]] for s in starts]

    def score(self, text: str) -> float:
        """The highest window score; all windows go through the model in one forward pass."""
        return max(self.model.score_ids(self.windows(text)))

    def check(self, text: str) -> Verdict:
        if self.defers_to is not None and self.defers_to(text):
            return Verdict.allow(self.name)  # not run: no model call
        score = self.score(text)
        if score >= self.threshold:
            reason = f"prompt injection (NanoGuard score {score:.3f})"
            return Verdict(Action.BLOCK, self.name, reason, score, text)
        return Verdict.allow(self.name, score)
