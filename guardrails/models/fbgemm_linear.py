"""Linear layers with int8 or float16 weights for the rails' models on an x86 CPU without
native bf16 (module swaps, as bf16_linear.py is on CPUs with it), run by fbgemm.

Why: without bf16 the rails' matmuls run float32, and at the few dozen tokens of a chat message
float32 GEMMs on AVX2 run far under the core's peak. Measured on one core of a 2-core AMD EPYC
(Zen 3, AVX2 only), 512x2048, 2048x512 and 576x3072 weights:
- Int8Linear, fbgemm's dynamically quantized linear (int8 weights, one scale per output row;
  the activations quantized per call, per tensor, to 7 bits so AVX2's 16-bit multiply-add sums
  cannot saturate): 2-5x faster than float32 at 8-32 tokens, 1.5-2x at 128. The activations'
  one scale is what costs accuracy: a channel much larger than the rest squeezes the others
  into a few levels, so models with such channels are smoothed first (SmoothQuant, see
  NanoGuardNet.smooth_mlp), and models whose decisions still move stay out (the 6-layer
  MiniLM: 15-25 of 1,000 head decisions flipped even smoothed, guardrails/HISTORY.md).
- Fp16Linear, fbgemm's float16-weight linear (weights rounded to float16, 11 significant bits
  against bf16's 8; activations and sums stay float32): 1.4-2.8x faster at 8-32 tokens,
  1.1-1.3x at 128, and close to exact (the student MiniLM's embeddings agree with float32 to
  a cosine of 1.000000 on 642 messages; head scores move by under 0.001).
On a CPU with native bf16 the prepacked bf16 path is faster for MiniLM, so these are its
fallback. NanoGuard and the judge (16 layers of SmolLM2, llama_encoder.py) run int8 there too
where the CPU's int8 multiply-add cannot saturate, with activations on all 8 bits
(int8_full_range, AVX512-VNNI): faster than bf16 and as close to float32 (README).
"""

from __future__ import annotations

import functools
import platform
import warnings
from collections.abc import Callable

import torch
from torch import nn

from guardrails.models.bf16_linear import float32_forced


def _fbgemm_here() -> bool:
    """An x86 CPU, a torch built with fbgemm, and no HEARTH_GUARDRAILS_FLOAT32."""
    if float32_forced() or platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    return bool({"x86", "fbgemm"} & set(torch.backends.quantized.supported_engines))


def _runs(make: Callable[[nn.Linear], nn.Module]) -> bool:
    try:
        make(nn.Linear(4, 2))(torch.zeros(1, 4))
    except (AttributeError, RuntimeError):
        return False
    return True


def int8_supported() -> bool:
    """Whether fbgemm's int8 linear runs here and float32 is not forced."""
    return _fbgemm_here() and _runs(Int8Linear)


def fp16_supported() -> bool:
    """Whether fbgemm's float16-weight linear runs here and float32 is not forced."""
    return _fbgemm_here() and _runs(Fp16Linear)


@functools.cache
def int8_full_range() -> bool:
    """Whether fbgemm's int8 matmuls here sum products without 16-bit saturation (AVX512-VNNI's
    vpdpbusd does; AVX2's vpmaddubsw saturates a pair's sum at 32767), so activations may be
    quantized to all 8 bits instead of 7. Probed with the worst case, every activation at 255
    and every weight at 127, whose exact answer a saturating multiply-add halves."""
    if not _fbgemm_here():
        return False
    try:
        packed = pack_int8(torch.ones(64, 576))
        y = torch.ops.quantized.linear_dynamic(torch.ones(16, 576), packed, False)  # (16, 64)
    except (AttributeError, RuntimeError):
        return False
    return bool(torch.allclose(y, torch.full_like(y, 576.0), rtol=1e-3))


def pack_int8(weight: torch.Tensor) -> torch.Tensor:
    """(out, in) weight -> fbgemm's packed int8 copy (one scale per output row), no bias."""
    weight = weight.detach().float().contiguous()
    return torch.ops.quantized.linear_prepack(_quantize_rows(weight), None)


def _quantize_rows(weight: torch.Tensor) -> torch.Tensor:
    """(out, in) float32 -> a per-row symmetric qint8 tensor (scale = row's max |w| / 127)."""
    scales = (weight.abs().amax(dim=1) / 127.0).clamp(min=1e-12).double()  # (out,)
    zeros = torch.zeros(weight.shape[0], dtype=torch.long)
    with warnings.catch_warnings():
        # torch marks its quantized tensor types deprecated in favour of torchao; fbgemm's
        # dynamic linear still takes them, and torch is pinned (pyproject.toml).
        warnings.simplefilter("ignore")
        return torch.quantize_per_channel(weight, scales, zeros, 0, torch.qint8)


def _weight_and_bias(linear: nn.Linear) -> tuple[torch.Tensor, torch.Tensor | None]:
    weight = linear.weight.detach().float().contiguous()  # (out, in)
    return weight, None if linear.bias is None else linear.bias.detach().float().clone()


class Int8Linear(nn.Module):
    """y = x @ W.T + b with W held as int8 (per output row scales), packed for fbgemm once:
    float32 in, float32 out. Inference only: the weight is a copy, frozen at construction."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        weight, bias = _weight_and_bias(linear)
        self.packed = torch.ops.quantized.linear_prepack(_quantize_rows(weight), bias)
        self.seven_bits = not int8_full_range()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) float32 -> (..., out) float32; reduce_range: 7-bit activations, as
        # torch's own dynamic Linear runs them on x86, unless int8_full_range.
        return torch.ops.quantized.linear_dynamic(x.contiguous(), self.packed, self.seven_bits)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}"


class Fp16Linear(nn.Module):
    """y = x @ W.T + b with W held as float16, packed for fbgemm once: float32 in, float32 out
    (the bias stays float32). Inference only: the weight is a copy, frozen at construction."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        weight, bias = _weight_and_bias(linear)
        self.packed = torch.ops.quantized.linear_prepack_fp16(weight, bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) float32 -> (..., out) float32
        return torch.ops.quantized.linear_dynamic_fp16(x.contiguous(), self.packed)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}"


def _swap(module: nn.Module, make: Callable[[nn.Linear], nn.Module]) -> int:
    swapped = 0
    for parent in list(module.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear):
                setattr(parent, name, make(child))
                swapped += 1
    return swapped


def swap_linears_int8(module: nn.Module) -> int:
    """Replaces every nn.Linear inside `module` by an Int8Linear copy, in place; returns how
    many. Call it after the weights are loaded (and smoothed)."""
    return _swap(module, Int8Linear)


def swap_linears_fp16(module: nn.Module) -> int:
    """Replaces every nn.Linear inside `module` by an Fp16Linear copy, in place; returns how
    many. Call it after the weights are loaded (and any adapters merged)."""
    return _swap(module, Fp16Linear)
