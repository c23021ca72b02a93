"""Triton helpers shared by the attention kernels."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.kernels import interpreter_enabled


@triton.jit
def mma(a, b, PRECISION: tl.constexpr, UPCAST: tl.constexpr):
    """tl.dot with an fp32 accumulator; UPCAST computes in fp32.

    Triton's interpreter multiplies bfloat16 operands as their raw bits, so the wrappers set
    UPCAST there; bf16 -> fp32 is exact, so results still match what the GPU computes.
    """
    if UPCAST:
        return tl.dot(a.to(tl.float32), b.to(tl.float32), input_precision="ieee")
    return tl.dot(a, b, input_precision=PRECISION)


def dot_options(dtype: torch.dtype) -> dict[str, object]:
    """Constexpr arguments for `mma`: exact fp32 dots for fp32 inputs (not TF32)."""
    return {
        "PRECISION": "ieee" if dtype == torch.float32 else "tf32",
        "UPCAST": interpreter_enabled(),
    }
