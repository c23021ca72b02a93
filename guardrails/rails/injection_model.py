"""Prompt-injection classifier rail over the NanoGuard transformer (see models/nanoguard.py
for what it was trained on). Long texts are scored in windows of the model's context and the
highest window score counts, so an injection at the end of a long message is not cut off."""

from __future__ import annotations

import torch

from guardrails.base import Action, Verdict
from guardrails.errors import InvalidSettingError
from guardrails.models.nanoguard import NanoGuard


class InjectionModelRail:
    name = "injection_model"

    def __init__(self, model: NanoGuard, threshold: float = 0.99, max_windows: int = 8) -> None:
        if not 0.0 < threshold <= 1.0:
            raise InvalidSettingError(
                f"injection_model threshold must be in (0, 1], got {threshold}"
            )
        self.model = model
        self.threshold = threshold
        self.max_windows = max_windows

    def score(self, text: str) -> float:
        ids = self.model.tokenizer.encode_ordinary(text)
        span = self.model.net.cfg.sequence_len - 1  # room for BOS
        starts = list(range(0, max(len(ids), 1), span))
        if len(starts) > self.max_windows:
            # Keep the head and the tail: instructions hide at the start or the end.
            half = self.max_windows // 2
            starts = starts[:half] + starts[-(self.max_windows - half) :]
        best = 0.0
        with torch.inference_mode():
            for s in starts:
                x = torch.tensor([[self.model.bos_id, *ids[s : s + span]]])  # (1, T)
                logits = self.model.net(x, torch.ones_like(x))  # (1, 2)
                best = max(best, float(torch.softmax(logits, dim=-1)[0, 1]))
        return best

    def check(self, text: str) -> Verdict:
        score = self.score(text)
        if score >= self.threshold:
            reason = f"prompt injection (NanoGuard score {score:.3f})"
            return Verdict(Action.BLOCK, self.name, reason, score, text)
        return Verdict.allow(self.name, score)
