"""Torch references for the quantized matmuls: dequantize, then an ordinary matmul.

These are the CPU path of QuantLinear and the oracle of the Triton kernels
(engine/kernels/quant_matmul.py). Dequantization does the same float32 operations in the same
order as gguf.quants.dequantize (no fused multiply-add), so its values equal that library's bit
for bit; the tests hold it to that.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from engine.kernels.quant_formats import QuantizedWeight


def dequantize(weight: QuantizedWeight) -> torch.Tensor:
    """The float32 (out_features, in_features) matrix a packed weight stands for."""
    t = weight.tensors
    n, k = weight.shape
    if weight.format == "q8_0":
        q = t["qweight"].float().view(n, k // 32, 32)
        return (q * t["scales"].float()[..., None]).view(n, k)
    if weight.format == "int8":
        return t["qweight"].float() * t["scales"]
    if weight.format == "q4_1":
        q = _nibbles(t["qweight"], half=16)  # (N, K/32, 32)
        w = t["scales"].float()[..., None] * q
        return (w + t["mins"].float()[..., None]).view(n, k)
    if weight.format == "q4_k":
        q = _nibbles(t["qweight"], half=32).view(n, k // 256, 8, 32)
        scales = t["scales"].float()[..., None] * t["sub_scales"].float().view(n, k // 256, 8)
        mins = t["mins"].float()[..., None] * t["sub_mins"].float().view(n, k // 256, 8)
        return (scales[..., None] * q - mins[..., None]).view(n, k)
    raise ValueError(f"no reference dequantization for format {weight.format!r}")


def _nibbles(qweight: torch.Tensor, half: int) -> torch.Tensor:
    """(N, K/2) bytes -> (N, K/(2*half), 2*half) float32: each group's low nibbles, then high."""
    n = qweight.shape[0]
    b = qweight.view(n, -1, half)  # (N, groups, half)
    return torch.cat([b & 0x0F, b >> 4], dim=-1).float()


def dequantize_rows(weight: QuantizedWeight, rows: torch.Tensor) -> torch.Tensor:
    """Dequantized rows `rows` (any shape of indices) -> (*rows.shape, in_features) float32.

    An embedding lookup on a packed table: only the gathered rows are ever dequantized.
    """
    flat = rows.reshape(-1)
    picked = dequantize(weight.select_rows(flat))  # (R, K)
    return picked.view(*rows.shape, weight.in_features)


def quant_matmul_reference(
    x: torch.Tensor, weight: QuantizedWeight, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """y = x @ W^T (+ bias) with W dequantized to x's dtype; x (..., K) -> (..., N)."""
    if x.shape[-1] != weight.in_features:
        raise ValueError(f"x has {x.shape[-1]} features, the weight takes {weight.in_features}")
    w = dequantize(weight).to(x.dtype)
    return F.linear(x, w, None if bias is None else bias.to(x.dtype))
