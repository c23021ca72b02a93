"""The small per-layer operations of a decoder layer, one launch each: residual add + RMSNorm,
rotary embedding of q and k, SiLU(gate) x up.

In bf16 torch they are 28 kernel launches a layer: 8 for the two norms and their residual adds
(casts to float32 and back), 18 for rotary on q and k (casts, four products, two sums, a cat),
2 for SiLU and the product. Here they are 4. At batch 1 a decode step is mostly such small
launches: on an H200 a SmolLM2-135M step took 2.4 ms for 284 MB of weights
(tests/gpu/NOTES.md). Each kernel computes in float32 and rounds once to the activations'
dtype. The references are the torch path itself (engine/layers/ops.py).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.layers.ops import add_rms_norm_torch as add_rms_norm_reference
from engine.layers.ops import silu_and_mul_torch as silu_and_mul_reference
from engine.layers.rotary import apply_rotary

__all__ = ["add_rms_norm", "add_rms_norm_reference", "rotary", "rotary_reference",
           "silu_and_mul", "silu_and_mul_reference"]


# ---------------------------------------------------------------------- residual add + RMSNorm
@triton.jit
def _add_rms_norm_kernel(
    x_ptr,
    res_ptr,
    w_ptr,
    out_ptr,
    sum_ptr,
    stride_x,
    stride_res,
    stride_out,
    stride_sum,
    hidden,
    eps,
    HAS_RESIDUAL: tl.constexpr,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < hidden
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    if HAS_RESIDUAL:
        r = tl.load(res_ptr + row * stride_res + cols, mask=mask, other=0.0)
        # The sum is rounded to the activations' dtype first, as the torch path's `x + r` is,
        # and that rounded value is both stored and normalised.
        x = (x.to(tl.float32) + r.to(tl.float32)).to(sum_ptr.dtype.element_ty)
        tl.store(sum_ptr + row * stride_sum + cols, x, mask=mask)
    xf = x.to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(xf * xf, axis=0) / hidden + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * stride_out + cols, (xf * rstd * w).to(out_ptr.dtype.element_ty),
             mask=mask)


def add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor | None, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """x, residual: (T, hidden). Returns (rms_norm(s) * weight, s) with s = x + residual (x when
    residual is None), both in x's dtype; s is the next residual."""
    _check_rows("x", x, weight.shape[0])
    if residual is not None:
        _check_rows("residual", residual, weight.shape[0])
        if residual.shape != x.shape or residual.dtype != x.dtype:
            raise ValueError(f"residual {tuple(residual.shape)} {residual.dtype} does not match "
                             f"x {tuple(x.shape)} {x.dtype}")
    out = torch.empty_like(x)
    res = x if residual is None else residual  # not read without a residual
    summed = x if residual is None else torch.empty_like(x)
    if x.shape[0]:
        hidden = x.shape[1]
        _add_rms_norm_kernel[(x.shape[0],)](
            x, res, weight, out, summed,
            x.stride(0), res.stride(0), out.stride(0), summed.stride(0), hidden, eps,
            HAS_RESIDUAL=residual is not None,
            BLOCK=triton.next_power_of_2(hidden),
            num_warps=_warps(hidden),
        )
    return out, summed


# ------------------------------------------------------------------------------------- rotary
@triton.jit
def _rotate(src_ptr, dst_ptr, stride_src_t, stride_src_h, stride_dst_t, t, cos, sin, heads,
            HALF: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_HALF: tl.constexpr):
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, BLOCK_HALF)
    mask = (h < heads)[:, None] & (d < HALF)[None, :]
    src = src_ptr + t * stride_src_t + h[:, None] * stride_src_h + d[None, :]
    x1 = tl.load(src, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(src + HALF, mask=mask, other=0.0).to(tl.float32)
    dst = dst_ptr + t * stride_dst_t + h[:, None] * (2 * HALF) + d[None, :]
    ty = dst_ptr.dtype.element_ty
    tl.store(dst, (x1 * cos - x2 * sin).to(ty), mask=mask)
    tl.store(dst + HALF, (x2 * cos + x1 * sin).to(ty), mask=mask)


@triton.jit
def _rotary_kernel(
    q_ptr, k_ptr, q_out_ptr, k_out_ptr, cos_ptr, sin_ptr, pos_ptr,
    stride_qt, stride_qh, stride_kt, stride_kh, stride_table,
    num_heads, num_kv_heads,
    HALF: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_KVH: tl.constexpr,
    BLOCK_HALF: tl.constexpr,
):
    t = tl.program_id(0).to(tl.int64)
    pos = tl.load(pos_ptr + t).to(tl.int64)
    d = tl.arange(0, BLOCK_HALF)
    cos = tl.load(cos_ptr + pos * stride_table + d, mask=d < HALF, other=0.0)[None, :]
    sin = tl.load(sin_ptr + pos * stride_table + d, mask=d < HALF, other=0.0)[None, :]
    _rotate(q_ptr, q_out_ptr, stride_qt, stride_qh, num_heads * 2 * HALF, t, cos, sin, num_heads,
            HALF, BLOCK_H, BLOCK_HALF)
    _rotate(k_ptr, k_out_ptr, stride_kt, stride_kh, num_kv_heads * 2 * HALF, t, cos, sin,
            num_kv_heads, HALF, BLOCK_KVH, BLOCK_HALF)


def rotary(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
    positions: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """q: (T, H, D), k: (T, KVH, D), each with unit stride along D (views into the fused qkv
    output are fine); cos, sin: (max_positions, D/2) float32 tables; positions: (T,).
    Returns new contiguous rotated q and k (half-split layout, as Hugging Face Llama)."""
    if q.dim() != 3 or k.dim() != 3 or q.shape[0] != k.shape[0] or q.shape[2] != k.shape[2]:
        raise ValueError(f"q (T, H, D) and k (T, KVH, D) expected, got {tuple(q.shape)} and "
                         f"{tuple(k.shape)}")
    num_tokens, num_heads, head_dim = q.shape
    half = head_dim // 2
    if head_dim % 2 or q.stride(2) != 1 or k.stride(2) != 1:
        raise ValueError("head_dim must be even and q, k contiguous along it")
    if cos.shape != sin.shape or cos.dim() != 2 or cos.shape[1] != half or not cos.is_contiguous():
        raise ValueError(f"cos/sin tables (P, {half}) expected, got {tuple(cos.shape)}")
    if positions.shape != (num_tokens,):
        raise ValueError(f"positions ({num_tokens},) expected, got {tuple(positions.shape)}")
    q_out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    k_out = torch.empty(k.shape, dtype=k.dtype, device=k.device)
    if num_tokens:
        _rotary_kernel[(num_tokens,)](
            q, k, q_out, k_out, cos, sin, positions,
            q.stride(0), q.stride(1), k.stride(0), k.stride(1), cos.stride(0),
            num_heads, k.shape[1],
            HALF=half, BLOCK_H=triton.next_power_of_2(num_heads),
            BLOCK_KVH=triton.next_power_of_2(k.shape[1]),
            BLOCK_HALF=triton.next_power_of_2(half),
            num_warps=_warps(num_heads * head_dim),
        )
    return q_out, k_out


def rotary_reference(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
    positions: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The torch path: each row's cos and sin looked up, then rotated (the kernel looks up
    itself)."""
    c, s = cos[positions].unsqueeze(1), sin[positions].unsqueeze(1)
    return apply_rotary(q, c, s), apply_rotary(k, c, s)


# ------------------------------------------------------------------------------ SiLU(gate) x up
@triton.jit
def _silu_and_mul_kernel(x_ptr, out_ptr, stride_x, stride_out, inter, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < inter
    gate = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * stride_x + inter + cols, mask=mask, other=0.0).to(tl.float32)
    out = gate / (1.0 + tl.exp(-gate)) * up
    tl.store(out_ptr + row * stride_out + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


SILU_BLOCK = 1024


def silu_and_mul(x: torch.Tensor) -> torch.Tensor:
    """x: (T, 2I), gate then up (the fused gate/up projection). Returns (T, I)."""
    if x.dim() != 2 or x.shape[1] % 2 or x.stride(1) != 1:
        raise ValueError(f"x (T, 2I) contiguous along its rows expected, got {tuple(x.shape)}")
    inter = x.shape[1] // 2
    out = torch.empty((x.shape[0], inter), dtype=x.dtype, device=x.device)
    if x.shape[0]:
        block = min(SILU_BLOCK, triton.next_power_of_2(inter))
        _silu_and_mul_kernel[(x.shape[0], triton.cdiv(inter, block))](
            x, out, x.stride(0), out.stride(0), inter, BLOCK=block, num_warps=_warps(block)
        )
    return out


# ------------------------------------------------------------------------------------ helpers
def _check_rows(name: str, t: torch.Tensor, hidden: int) -> None:
    if t.dim() != 2 or t.shape[1] != hidden or t.stride(1) != 1:
        raise ValueError(f"{name} must be (T, {hidden}) and contiguous along its rows, got "
                         f"{tuple(t.shape)}")


def _warps(width: int) -> int:
    return 1 if width <= 256 else 4 if width <= 4096 else 8
