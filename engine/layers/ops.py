"""The small per-layer operations, two ways: torch (the CPU path and the reference) or one
Triton kernel each (engine/kernels/layer_ops.py). The model calls them through a `LayerOps`,
which the runner picks once (`EngineConfig.layer_kernels`)."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from engine.layers.norm import RMSNorm, rms_norm
from engine.layers.rotary import RotaryEmbedding, apply_rotary

# What `rope` carries from `RotaryEmbedding` to `rotary`: the step's cos/sin rows for torch,
# the whole tables and the positions for the kernel (it looks the rows up itself).
Rope = tuple[torch.Tensor, ...]


def add_rms_norm_torch(
    x: torch.Tensor, residual: torch.Tensor | None, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(rms_norm(x + residual) * weight, x + residual); residual None: (rms_norm(x), x). The
    sum in x's dtype, as the layers added before the kernels came."""
    summed = x if residual is None else x + residual
    return rms_norm(summed, weight, eps), summed


def silu_and_mul_torch(gate_up: torch.Tensor) -> torch.Tensor:
    """(T, 2I), gate then up -> SiLU(gate) * up, (T, I)."""
    gate, up = gate_up.chunk(2, dim=-1)
    return F.silu(gate) * up


class TorchLayerOps:
    name = "torch"

    def add_rms_norm(
        self, x: torch.Tensor, residual: torch.Tensor | None, norm: RMSNorm
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return add_rms_norm_torch(x, residual, norm.weight, norm.eps)

    def rope(self, rotary: RotaryEmbedding, positions: torch.Tensor) -> Rope:
        return rotary.lookup(positions)

    def rotary(self, q: torch.Tensor, k: torch.Tensor, rope: Rope) -> tuple[torch.Tensor, ...]:
        cos, sin = rope
        return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)

    def silu_and_mul(self, gate_up: torch.Tensor) -> torch.Tensor:
        return silu_and_mul_torch(gate_up)


class TritonLayerOps(TorchLayerOps):
    name = "triton"

    def __init__(self) -> None:
        # Imported here: only the triton path needs Triton.
        from engine.kernels import layer_ops

        self.kernels = layer_ops

    def add_rms_norm(
        self, x: torch.Tensor, residual: torch.Tensor | None, norm: RMSNorm
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return self.kernels.add_rms_norm(x, residual, norm.weight, norm.eps)

    def rope(self, rotary: RotaryEmbedding, positions: torch.Tensor) -> Rope:
        return rotary.cos, rotary.sin, positions

    def rotary(self, q: torch.Tensor, k: torch.Tensor, rope: Rope) -> tuple[torch.Tensor, ...]:
        cos, sin, positions = rope
        return self.kernels.rotary(q, k, cos, sin, positions)

    def silu_and_mul(self, gate_up: torch.Tensor) -> torch.Tensor:
        return self.kernels.silu_and_mul(gate_up)


LayerOps = TorchLayerOps  # the interface: TritonLayerOps overrides every method


def layer_ops(name: str) -> LayerOps:
    if name == "torch":
        return TorchLayerOps()
    if name == "triton":
        return TritonLayerOps()
    raise ValueError(f"layer ops must be torch or triton, got {name!r}")
