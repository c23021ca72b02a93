"""RMSNorm, computed in float32 whatever the activations' dtype."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """x: (T, hidden), normalised in float32 (one fused kernel instead of pow/mean/rsqrt/mul)
    and returned in its own dtype."""
    return F.rms_norm(x.float(), (x.shape[-1],), weight.float(), eps).to(x.dtype)


class RMSNorm(nn.Module):
    """The weight stays float32 (the runner does not cast `*norm.weight`): it is tiny, and
    normalising in float32 keeps bf16 activations close to a float32 reference."""

    def __init__(self, hidden_size: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size), requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)
