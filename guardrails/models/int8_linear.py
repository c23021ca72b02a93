"""Linear layers with int8 weights for the rails' models on an x86 CPU without native bf16 (a
module swap, as bf16_linear.py is on CPUs with it).

Why: without bf16 the rails' matmuls run float32, and at the few dozen tokens of a chat message
float32 GEMMs on AVX2 run far under the core's peak. fbgemm's dynamically quantized linear
(int8 weights, one scale per output row; the activations quantized per call, per tensor, to 7
bits so AVX2's 16-bit multiply-add sums cannot saturate) does the same work 2-5x faster on one
core of a 2-core AMD EPYC (Zen 3, AVX2 only) at 8-32 tokens and 1.5-2x at 128 (measured with
512x2048, 2048x512 and 576x3072 weights). On a CPU with native bf16 the prepacked bf16 path
is faster still, so this one is only the fallback.

The activations' per-tensor scale is what costs accuracy: a channel much larger than the rest
squeezes the others into a few levels. Models whose matmul inputs have such channels are
smoothed first (the activation divided and the weight multiplied by the same per-channel
factor, SmoothQuant), see NanoGuardNet.smooth_mlp.
"""

from __future__ import annotations

import platform
import warnings

import torch
from torch import nn

from guardrails.models.bf16_linear import float32_forced


def int8_supported() -> bool:
    """Whether fbgemm's int8 linear runs here (an x86 CPU and a torch built with it) and
    HEARTH_GUARDRAILS_FLOAT32 does not ask for float32."""
    if float32_forced() or platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if not {"x86", "fbgemm"} & set(torch.backends.quantized.supported_engines):
        return False
    try:
        probe = Int8Linear(nn.Linear(4, 2, bias=False))
        probe(torch.zeros(1, 4))
    except (AttributeError, RuntimeError):
        return False
    return True


def _quantize_rows(weight: torch.Tensor) -> torch.Tensor:
    """(out, in) float32 -> a per-row symmetric qint8 tensor (scale = row's max |w| / 127)."""
    scales = (weight.abs().amax(dim=1) / 127.0).clamp(min=1e-12).double()  # (out,)
    zeros = torch.zeros(weight.shape[0], dtype=torch.long)
    with warnings.catch_warnings():
        # torch marks its quantized tensor types deprecated in favour of torchao; fbgemm's
        # dynamic linear still takes them, and torch is pinned (pyproject.toml).
        warnings.simplefilter("ignore")
        return torch.quantize_per_channel(weight, scales, zeros, 0, torch.qint8)


class Int8Linear(nn.Module):
    """y = x @ W.T + b with W held as int8 (per output row scales), packed for fbgemm once:
    float32 in, float32 out. Inference only: the weight is a copy, frozen at construction."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        weight = linear.weight.detach().float().contiguous()  # (out, in)
        bias = None if linear.bias is None else linear.bias.detach().float().clone()
        self.packed = torch.ops.quantized.linear_prepack(_quantize_rows(weight), bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) float32 -> (..., out) float32; reduce_range: 7-bit activations, as
        # torch's own dynamic Linear runs them on x86.
        return torch.ops.quantized.linear_dynamic(x.contiguous(), self.packed, True)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}"


def swap_linears_int8(module: nn.Module) -> int:
    """Replaces every nn.Linear inside `module` by an Int8Linear copy, in place; returns how
    many. Call it after the weights are loaded (and smoothed)."""
    swapped = 0
    for parent in list(module.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear):
                setattr(parent, name, Int8Linear(child))
                swapped += 1
    return swapped
