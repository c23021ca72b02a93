"""Weight-only quantized matmul y = x @ W^T (+ bias), W dequantized in registers.

W stays packed in global memory (layouts in quant_formats.py); each program loads a tile of
packed bytes, turns it into float32 weights in registers and multiplies. Two kernel shapes per
family of formats:

- matrix-vector (few rows of x, i.e. decode at small batch): one program per (BLOCK_N output
  rows, row of x); the K loop only multiplies and adds into a register tile of the weight tile's
  shape and reduces it once at the end (no cross-thread reduction inside the loop). The step is memory bound, so the loads are what matter:
  packed bytes are contiguous per row (vectorized loads), scales are loaded once per 32 weights.
- matrix-matrix (prefill, large batches): (BLOCK_M, BLOCK_N) output tiles, the dequantized
  weight tile cast to x's dtype and fed to tl.dot.

Nibble formats (q4_1, q4_k) keep GGUF's split of a group into low and high nibbles: the byte
tile (BLOCK_N, BLOCK_G, HALF) yields two weight tiles, multiplied with the two halves of the
group's x (x[k] and x[k + HALF]), so weights are never shuffled. Block sizes are constexpr and
picked on the host from the shape alone: no host-device sync, safe under CUDA graphs.

The torch reference (quant_reference.quant_matmul_reference) is the oracle in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from engine.kernels import interpreter_enabled
from engine.kernels.quant_formats import QuantizedWeight

# Up to this many rows of x run the matrix-vector kernel (weights re-read per row, from L2).
GEMV_MAX_ROWS = 4
_FLOAT_DTYPES = (torch.float32, torch.bfloat16, torch.float16)
_NIBBLE = {"q4_1": (16, 0), "q4_k": (32, 1)}  # format -> (HALF bytes per group, FMT id)


# ---- dequantizing tile loaders -----------------------------------------------------------


@triton.jit
def _nibble_tile(
    q_ptr,
    s_ptr,
    m_ptr,
    ss_ptr,
    sm_ptr,
    rows,
    groups,
    mask2,
    stride_q,
    stride_s,
    stride_ss,
    HALF: tl.constexpr,
    FMT: tl.constexpr,
):
    """Weights of `groups` (2*HALF weights each) of `rows`: two (BN, BG, HALF) float32 tiles,
    low nibbles (weights g*2*HALF + j) and high nibbles (weights g*2*HALF + HALF + j)."""
    j = tl.arange(0, HALF)
    rows64 = rows.to(tl.int64)
    offs = rows64[:, None, None] * stride_q + groups[None, :, None] * HALF + j[None, None, :]
    b = tl.load(q_ptr + offs, mask=mask2[:, :, None], other=0)
    lo = (b & 0x0F).to(tl.float32)
    hi = (b >> 4).to(tl.float32)
    if FMT == 0:  # q4_1: one fp16 scale and min per group of 32
        sidx = rows64[:, None] * stride_s + groups[None, :]
        s = tl.load(s_ptr + sidx, mask=mask2, other=0.0).to(tl.float32)[:, :, None]
        m = tl.load(m_ptr + sidx, mask=mask2, other=0.0).to(tl.float32)[:, :, None]
        w_lo = s * lo + m
        w_hi = s * hi + m
    else:  # q4_k: fp16 super-block scale/min (256 weights) times 6-bit sub-block ones (32)
        sidx = rows64[:, None] * stride_s + groups[None, :] // 4
        d = tl.load(s_ptr + sidx, mask=mask2, other=0.0).to(tl.float32)
        dmin = tl.load(m_ptr + sidx, mask=mask2, other=0.0).to(tl.float32)
        sub = rows64[:, None] * stride_ss + 2 * groups[None, :]
        sc_lo = tl.load(ss_ptr + sub, mask=mask2, other=0).to(tl.float32)
        sc_hi = tl.load(ss_ptr + sub + 1, mask=mask2, other=0).to(tl.float32)
        mn_lo = tl.load(sm_ptr + sub, mask=mask2, other=0).to(tl.float32)
        mn_hi = tl.load(sm_ptr + sub + 1, mask=mask2, other=0).to(tl.float32)
        w_lo = (d * sc_lo)[:, :, None] * lo - (dmin * mn_lo)[:, :, None]
        w_hi = (d * sc_hi)[:, :, None] * hi - (dmin * mn_hi)[:, :, None]
    return w_lo, w_hi


@triton.jit
def _byte_tile(q_ptr, s_ptr, rows, groups, row_mask, K, stride_q, stride_sn, stride_sg):
    """q8_0 / int8: (BN, BG, 32) float32 weights of groups of 32; scale per group (q8_0,
    stride_sg=1) or per row (int8, stride_sg=0). Weights at k >= K read as 0."""
    j = tl.arange(0, 32)
    rows64 = rows.to(tl.int64)
    k = groups[:, None] * 32 + j[None, :]  # (BG, 32)
    mask = row_mask[:, None, None] & (k < K)[None, :, :]
    q = tl.load(q_ptr + rows64[:, None, None] * stride_q + k[None, :, :], mask=mask, other=0)
    smask = row_mask[:, None] & (groups * 32 < K)[None, :]
    s = tl.load(
        s_ptr + rows64[:, None] * stride_sn + groups[None, :] * stride_sg, mask=smask, other=0.0
    )
    return q.to(tl.float32) * s.to(tl.float32)[:, :, None]


# ---- matrix-vector -----------------------------------------------------------------------


@triton.jit
def _nibble_gemv_kernel(
    x_ptr,
    y_ptr,
    bias_ptr,
    q_ptr,
    s_ptr,
    m_ptr,
    ss_ptr,
    sm_ptr,
    N,
    num_groups,
    stride_xm,
    stride_ym,
    stride_q,
    stride_s,
    stride_ss,
    HALF: tl.constexpr,
    FMT: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_G: tl.constexpr,
):
    row = tl.program_id(1).to(tl.int64)
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_mask = rows < N
    j = tl.arange(0, HALF)
    acc = tl.zeros((BLOCK_N, BLOCK_G, HALF), dtype=tl.float32)
    for g0 in range(0, num_groups, BLOCK_G):
        groups = g0 + tl.arange(0, BLOCK_G)
        gmask = groups < num_groups
        mask2 = row_mask[:, None] & gmask[None, :]
        w_lo, w_hi = _nibble_tile(
            q_ptr,
            s_ptr,
            m_ptr,
            ss_ptr,
            sm_ptr,
            rows,
            groups,
            mask2,
            stride_q,
            stride_s,
            stride_ss,
            HALF,
            FMT,
        )
        k_lo = groups[:, None] * (2 * HALF) + j[None, :]  # (BG, HALF)
        x_lo = tl.load(x_ptr + row * stride_xm + k_lo, mask=gmask[:, None], other=0.0).to(
            tl.float32
        )
        x_hi = tl.load(x_ptr + row * stride_xm + k_lo + HALF, mask=gmask[:, None], other=0.0).to(
            tl.float32
        )
        acc += w_lo * x_lo[None, :, :] + w_hi * x_hi[None, :, :]
    y = tl.sum(tl.sum(acc, axis=2), axis=1)  # (BN,)
    if HAS_BIAS:
        y += tl.load(bias_ptr + rows, mask=row_mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + rows, y.to(y_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def _byte_gemv_kernel(
    x_ptr,
    y_ptr,
    bias_ptr,
    q_ptr,
    s_ptr,
    N,
    K,
    num_groups,
    stride_xm,
    stride_ym,
    stride_q,
    stride_sn,
    stride_sg,
    HAS_BIAS: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_G: tl.constexpr,
):
    row = tl.program_id(1).to(tl.int64)
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_mask = rows < N
    j = tl.arange(0, 32)
    acc = tl.zeros((BLOCK_N, BLOCK_G, 32), dtype=tl.float32)
    for g0 in range(0, num_groups, BLOCK_G):
        groups = g0 + tl.arange(0, BLOCK_G)
        w = _byte_tile(q_ptr, s_ptr, rows, groups, row_mask, K, stride_q, stride_sn, stride_sg)
        k = groups[:, None] * 32 + j[None, :]  # (BG, 32)
        x = tl.load(x_ptr + row * stride_xm + k, mask=k < K, other=0.0).to(tl.float32)
        acc += w * x[None, :, :]
    y = tl.sum(tl.sum(acc, axis=2), axis=1)  # (BN,)
    if HAS_BIAS:
        y += tl.load(bias_ptr + rows, mask=row_mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + rows, y.to(y_ptr.dtype.element_ty), mask=row_mask)


# ---- matrix-matrix -----------------------------------------------------------------------


@triton.jit
def _nibble_gemm_kernel(
    x_ptr,
    y_ptr,
    bias_ptr,
    q_ptr,
    s_ptr,
    m_ptr,
    ss_ptr,
    sm_ptr,
    M,
    N,
    num_groups,
    stride_xm,
    stride_ym,
    stride_q,
    stride_s,
    stride_ss,
    HALF: tl.constexpr,
    FMT: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    IEEE: tl.constexpr,
    UPCAST: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_G: tl.constexpr,
):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rows = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = offs_m < M
    row_mask = rows < N
    j = tl.arange(0, HALF)
    x_rows = offs_m.to(tl.int64)[:, None, None] * stride_xm
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for g0 in range(0, num_groups, BLOCK_G):
        groups = g0 + tl.arange(0, BLOCK_G)
        gmask = groups < num_groups
        mask2 = row_mask[:, None] & gmask[None, :]
        w_lo, w_hi = _nibble_tile(
            q_ptr,
            s_ptr,
            m_ptr,
            ss_ptr,
            sm_ptr,
            rows,
            groups,
            mask2,
            stride_q,
            stride_s,
            stride_ss,
            HALF,
            FMT,
        )
        k_lo = groups[None, :, None] * (2 * HALF) + j[None, None, :]  # (1, BG, HALF)
        xmask = m_mask[:, None, None] & gmask[None, :, None]
        x_lo = tl.load(x_ptr + x_rows + k_lo, mask=xmask, other=0.0)
        x_hi = tl.load(x_ptr + x_rows + k_lo + HALF, mask=xmask, other=0.0)
        dt = x_lo.dtype
        w_lo2 = tl.reshape(w_lo.to(dt), (BLOCK_N, BLOCK_G * HALF))
        w_hi2 = tl.reshape(w_hi.to(dt), (BLOCK_N, BLOCK_G * HALF))
        x_lo2 = tl.reshape(x_lo, (BLOCK_M, BLOCK_G * HALF))
        x_hi2 = tl.reshape(x_hi, (BLOCK_M, BLOCK_G * HALF))
        acc = _dot_acc(x_lo2, tl.trans(w_lo2), acc, IEEE, UPCAST)
        acc = _dot_acc(x_hi2, tl.trans(w_hi2), acc, IEEE, UPCAST)
    _store_tile(y_ptr, bias_ptr, acc, offs_m, rows, m_mask, row_mask, stride_ym, HAS_BIAS)


@triton.jit
def _byte_gemm_kernel(
    x_ptr,
    y_ptr,
    bias_ptr,
    q_ptr,
    s_ptr,
    M,
    N,
    K,
    num_groups,
    stride_xm,
    stride_ym,
    stride_q,
    stride_sn,
    stride_sg,
    HAS_BIAS: tl.constexpr,
    IEEE: tl.constexpr,
    UPCAST: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_G: tl.constexpr,
):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rows = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = offs_m < M
    row_mask = rows < N
    kk = tl.arange(0, BLOCK_G * 32)
    x_rows = offs_m.to(tl.int64)[:, None] * stride_xm
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for g0 in range(0, num_groups, BLOCK_G):
        groups = g0 + tl.arange(0, BLOCK_G)
        w = _byte_tile(q_ptr, s_ptr, rows, groups, row_mask, K, stride_q, stride_sn, stride_sg)
        k = g0 * 32 + kk
        x = tl.load(x_ptr + x_rows + k[None, :], mask=m_mask[:, None] & (k < K)[None, :], other=0.0)
        w2 = tl.reshape(w.to(x.dtype), (BLOCK_N, BLOCK_G * 32))
        acc = _dot_acc(x, tl.trans(w2), acc, IEEE, UPCAST)
    _store_tile(y_ptr, bias_ptr, acc, offs_m, rows, m_mask, row_mask, stride_ym, HAS_BIAS)


@triton.jit
def _dot_acc(a, b, acc, IEEE: tl.constexpr, UPCAST: tl.constexpr):
    """acc + a @ b. IEEE: fp32 inputs get fp32 products, not TF32. UPCAST: Triton's interpreter
    multiplies bfloat16 operands as raw bits, so there the dot runs on (exact) fp32 copies."""
    if UPCAST:
        return tl.dot(a.to(tl.float32), b.to(tl.float32), acc, input_precision="ieee")
    if IEEE:
        return tl.dot(a, b, acc, input_precision="ieee")
    return tl.dot(a, b, acc)


@triton.jit
def _store_tile(
    y_ptr, bias_ptr, acc, offs_m, rows, m_mask, row_mask, stride_ym, HAS_BIAS: tl.constexpr
):
    if HAS_BIAS:
        acc += tl.load(bias_ptr + rows, mask=row_mask, other=0.0).to(tl.float32)[None, :]
    ptrs = y_ptr + offs_m.to(tl.int64)[:, None] * stride_ym + rows[None, :]
    tl.store(ptrs, acc.to(y_ptr.dtype.element_ty), mask=m_mask[:, None] & row_mask[None, :])


# ---- host side ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Blocks:
    block_m: int
    block_n: int
    block_g: int
    num_warps: int


def _gemv_blocks(n: int, bytes_per_group: int) -> _Blocks:
    # Enough programs to cover the SMs of a large GPU twice (~264), but no fewer than 4 rows
    # each; a 2048-element accumulator tile (16 fp32 registers a thread at 4 warps), i.e.
    # 2 KB of packed bytes (4 KB for int8 / q8_0) loaded per program per iteration.
    block_n = 16 if n >= 16 * 264 else 8 if n >= 8 * 264 else 4
    block_g = max(1, 2048 // (block_n * bytes_per_group))
    return _Blocks(1, block_n, block_g, 4)


def _gemm_blocks(m: int, group_weights: int) -> _Blocks:
    block_m = 16 if m <= 16 else 32 if m <= 32 else 64
    return _Blocks(block_m, 64, max(1, 128 // group_weights), 4)


def quant_matmul(
    x: torch.Tensor, weight: QuantizedWeight, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """x (..., K) float -> (..., N) in x's dtype; the packed weight on x's device."""
    n, k = weight.shape
    if x.dtype not in _FLOAT_DTYPES:
        raise ValueError(f"x must be float32, bfloat16 or float16, got {x.dtype}")
    if x.shape[-1] != k:
        raise ValueError(f"x has {x.shape[-1]} features, the {weight.format} weight takes {k}")
    for name, t in weight.tensors.items():
        if t.device != x.device or not t.is_contiguous():
            raise ValueError(
                f"weight tensor {name} must be contiguous on {x.device}, got {t.device}"
            )
    if bias is not None and (tuple(bias.shape) != (n,) or bias.device != x.device):
        raise ValueError(
            f"bias must be ({n},) on {x.device}, got {tuple(bias.shape)} on {bias.device}"
        )
    lead = x.shape[:-1]
    x2 = x.reshape(-1, k)
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    m = x2.shape[0]
    y = torch.empty((m, n), dtype=x.dtype, device=x.device)
    if m == 0:
        return y.view(*lead, n)
    has_bias = bias is not None
    b = bias if bias is not None else y  # never read without HAS_BIAS
    t = weight.tensors
    dots = {"IEEE": x.dtype == torch.float32, "UPCAST": interpreter_enabled()}
    if weight.format in _NIBBLE:
        half, fmt = _NIBBLE[weight.format]
        ss = t.get("sub_scales", t["scales"])
        sm = t.get("sub_mins", t["mins"])
        num_groups = k // (2 * half)
        common = (t["qweight"], t["scales"], t["mins"], ss, sm)
        strides = (t["qweight"].stride(0), t["scales"].stride(0), ss.stride(0))
        if m <= GEMV_MAX_ROWS:
            c = _gemv_blocks(n, half)
            _nibble_gemv_kernel[(triton.cdiv(n, c.block_n), m)](
                x2,
                y,
                b,
                *common,
                n,
                num_groups,
                x2.stride(0),
                y.stride(0),
                *strides,
                HALF=half,
                FMT=fmt,
                HAS_BIAS=has_bias,
                BLOCK_N=c.block_n,
                BLOCK_G=c.block_g,
                num_warps=c.num_warps,
            )
        else:
            c = _gemm_blocks(m, 2 * half)
            _nibble_gemm_kernel[(triton.cdiv(m, c.block_m), triton.cdiv(n, c.block_n))](
                x2,
                y,
                b,
                *common,
                m,
                n,
                num_groups,
                x2.stride(0),
                y.stride(0),
                *strides,
                HALF=half,
                FMT=fmt,
                HAS_BIAS=has_bias,
                **dots,
                BLOCK_M=c.block_m,
                BLOCK_N=c.block_n,
                BLOCK_G=c.block_g,
                num_warps=c.num_warps,
            )
    elif weight.format in ("q8_0", "int8"):
        q, s = t["qweight"], t["scales"]
        stride_sg = 1 if weight.format == "q8_0" else 0
        num_groups = triton.cdiv(k, 32)
        strides = (q.stride(0), s.stride(0), stride_sg)
        if m <= GEMV_MAX_ROWS:
            c = _gemv_blocks(n, 32)
            _byte_gemv_kernel[(triton.cdiv(n, c.block_n), m)](
                x2,
                y,
                b,
                q,
                s,
                n,
                k,
                num_groups,
                x2.stride(0),
                y.stride(0),
                *strides,
                HAS_BIAS=has_bias,
                BLOCK_N=c.block_n,
                BLOCK_G=c.block_g,
                num_warps=c.num_warps,
            )
        else:
            c = _gemm_blocks(m, 32)
            _byte_gemm_kernel[(triton.cdiv(m, c.block_m), triton.cdiv(n, c.block_n))](
                x2,
                y,
                b,
                q,
                s,
                m,
                n,
                k,
                num_groups,
                x2.stride(0),
                y.stride(0),
                *strides,
                HAS_BIAS=has_bias,
                **dots,
                BLOCK_M=c.block_m,
                BLOCK_N=c.block_n,
                BLOCK_G=c.block_g,
                num_warps=c.num_warps,
            )
    else:
        raise ValueError(f"no Triton kernel for format {weight.format!r}")
    return y.view(*lead, n)
