"""Paged decode attention: one query token per sequence over its block table (flash-decoding).

Grid (B, KVH, num_splits). A program takes every query head of one KV head (GQA: K/V are read
once per group, the group padded to 16 rows for tensor-core dots) and one split of the
sequence's blocks, and runs an online softmax over its tokens in tiles of BLOCK_N. With one
split it writes the normalized output; with several, each writes its unnormalized fp32
accumulator, running max and sum of exponentials, and a second kernel combines the splits.
Splitting keeps the GPU busy when B * KVH programs are too few to fill it (small batch, long
context). The number of splits is chosen from shapes alone (no host-device sync), so a step
launches the same way under CUDA graphs. Scores are kept in log2 units (exp2).
"""

from __future__ import annotations

import functools
import math

import torch
import triton
import triton.language as tl

from engine.kernels.common import dot_options, mma
from engine.kernels.validation import check_heads, check_index, check_kv_caches

LOG2E = 1.4426950408889634
# A split below this many tokens costs more in launch and reduction than it saves.
MIN_TOKENS_PER_SPLIT = 128
MAX_SPLITS = 64


@triton.jit
def _decode_split_kernel(
    q_ptr,
    k_cache_ptr,
    v_cache_ptr,
    block_tables_ptr,
    context_lens_ptr,
    out_ptr,
    m_ptr,
    l_ptr,
    stride_qb,
    stride_qh,
    stride_ch,
    stride_cb,
    stride_co,
    stride_bt,
    stride_ob,
    stride_oh,
    stride_os,
    stride_mb,
    stride_mh,
    scale_log2,
    heads_per_kv,
    head_dim,
    blocks_per_split,
    BLOCK_SIZE: tl.constexpr,
    BLOCK_G: tl.constexpr,
    BLOCK_D: tl.constexpr,
    BLOCK_N: tl.constexpr,
    ONE_SPLIT: tl.constexpr,
    PRECISION: tl.constexpr,
    UPCAST: tl.constexpr,
):
    b = tl.program_id(0)
    kvh = tl.program_id(1)
    split = tl.program_id(2)
    context_len = tl.load(context_lens_ptr + b)

    g = tl.arange(0, BLOCK_G)
    d = tl.arange(0, BLOCK_D)
    heads = kvh * heads_per_kv + g
    g_mask = g < heads_per_kv
    d_mask = d < head_dim
    q = tl.load(
        q_ptr + b.to(tl.int64) * stride_qb + heads[:, None] * stride_qh + d[None, :],
        mask=g_mask[:, None] & d_mask[None, :],
        other=0.0,
    )  # (G, D)

    start = split * blocks_per_split * BLOCK_SIZE
    end = tl.minimum(context_len, start + blocks_per_split * BLOCK_SIZE)
    cache_head = kvh.to(tl.int64) * stride_ch
    table = block_tables_ptr + b.to(tl.int64) * stride_bt

    m_i = tl.full([BLOCK_G], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_G], tl.float32)
    acc = tl.zeros([BLOCK_G, BLOCK_D], tl.float32)
    for n0 in range(start, end, BLOCK_N):
        n = n0 + tl.arange(0, BLOCK_N)
        n_mask = n < end
        block = tl.load(table + n // BLOCK_SIZE, mask=n_mask, other=0).to(tl.int64)
        rows = cache_head + block * stride_cb + (n % BLOCK_SIZE) * stride_co  # (N,)
        kv_mask = n_mask[:, None] & d_mask[None, :]
        k = tl.load(k_cache_ptr + rows[:, None] + d[None, :], mask=kv_mask, other=0.0)  # (N, D)
        scores = mma(q, tl.trans(k), PRECISION, UPCAST) * scale_log2  # (G, N)
        scores = tl.where(n_mask[None, :], scores, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(scores, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(scores - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_cache_ptr + rows[:, None] + d[None, :], mask=kv_mask, other=0.0)  # (N, D)
        acc = acc * alpha[:, None] + mma(p.to(v.dtype), v, PRECISION, UPCAST)
        m_i = m_new

    out_mask = g_mask[:, None] & d_mask[None, :]
    if ONE_SPLIT:
        # An empty context (a padding row) leaves l_i = 0: write zeros, not NaN.
        out = acc / tl.where(l_i > 0.0, l_i, 1.0)[:, None]
        dst = out_ptr + b.to(tl.int64) * stride_ob + heads[:, None] * stride_oh + d[None, :]
        tl.store(dst, out.to(out_ptr.dtype.element_ty), mask=out_mask)
    else:
        base = b.to(tl.int64) * stride_ob + heads[:, None] * stride_oh + split * stride_os
        tl.store(out_ptr + base + d[None, :], acc, mask=out_mask)
        stat = b.to(tl.int64) * stride_mb + heads * stride_mh + split
        tl.store(m_ptr + stat, m_i, mask=g_mask)
        tl.store(l_ptr + stat, l_i, mask=g_mask)


@triton.jit
def _decode_reduce_kernel(
    part_ptr,
    m_ptr,
    l_ptr,
    out_ptr,
    stride_pb,
    stride_ph,
    stride_ps,
    stride_mb,
    stride_mh,
    stride_ob,
    stride_oh,
    num_splits,
    head_dim,
    BLOCK_S: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    b = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1)
    s = tl.arange(0, BLOCK_S)
    d = tl.arange(0, BLOCK_D)
    s_mask = s < num_splits
    stat = b * stride_mb + h * stride_mh + s
    m = tl.load(m_ptr + stat, mask=s_mask, other=float("-inf"))  # (S,)
    sum_exp = tl.load(l_ptr + stat, mask=s_mask, other=0.0)
    # Splits past the context (m = -inf) weigh exp2(-inf) = 0; when all are empty (a padding
    # row) the reference max is 0 rather than -inf, which would make -inf - -inf = NaN.
    m_max = tl.max(m, 0)
    w = tl.exp2(m - tl.where(m_max > float("-inf"), m_max, 0.0))
    total = tl.sum(w * sum_exp, 0)
    part = tl.load(
        part_ptr + b * stride_pb + h * stride_ph + s[:, None] * stride_ps + d[None, :],
        mask=s_mask[:, None] & (d[None, :] < head_dim),
        other=0.0,
    )  # (S, D)
    out = tl.sum(part * w[:, None], 0) / tl.where(total > 0.0, total, 1.0)
    tl.store(
        out_ptr + b * stride_ob + h * stride_oh + d,
        out.to(out_ptr.dtype.element_ty),
        mask=d < head_dim,
    )


@functools.cache
def _num_sms(device_index: int) -> int:
    return torch.cuda.get_device_properties(device_index).multi_processor_count


def choose_num_splits(
    batch: int, num_kv_heads: int, max_blocks: int, block_size: int, num_sms: int
) -> int:
    """Enough programs for about two waves over the GPU, each split at least
    MIN_TOKENS_PER_SPLIT tokens of the longest possible context."""
    programs = max(1, batch * num_kv_heads)
    wanted = math.ceil(2 * num_sms / programs)
    by_length = max(1, (max_blocks * block_size) // MIN_TOKENS_PER_SPLIT)
    return max(1, min(wanted, by_length, MAX_SPLITS))


def split_plan(max_blocks: int, num_splits: int, block_size: int, block_n: int) -> tuple[int, int]:
    """(blocks_per_split, num_splits) for at most `num_splits` runs of a `max_blocks` table.

    A split covers whole BLOCK_N tiles when blocks are smaller than a tile, and none is left
    empty for the longest table (shorter contexts leave their tail splits empty).
    """
    if num_splits < 1:
        raise ValueError(f"num_splits must be positive, got {num_splits}")
    tile_blocks = max(1, block_n // block_size)
    blocks_per_split = triton.cdiv(triton.cdiv(max_blocks, num_splits), tile_blocks) * tile_blocks
    return blocks_per_split, triton.cdiv(max_blocks, blocks_per_split)


def paged_decode_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float,
    *,
    num_splits: int | None = None,
    block_n: int = 64,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """q: (B, H, D); caches (KVH, num_blocks, block_size, D); block_tables (B, max_blocks);
    context_lens (B,) with 0 <= len <= max_blocks * block_size. Returns (B, H, D) in q's dtype.

    `num_splits` None = chosen from the shapes; the sequence's blocks are cut into that many
    equal runs (fewer when the table is short).
    """
    kvh, _, block_size, head_dim = check_kv_caches(k_cache, v_cache)
    check_heads("q", q, None, head_dim)
    batch, num_heads, _ = q.shape
    if num_heads % kvh:
        raise ValueError(f"query heads ({num_heads}) must be a multiple of KV heads ({kvh})")
    if block_tables.dim() != 2:
        raise ValueError(f"block_tables must be (B, max_blocks), got {tuple(block_tables.shape)}")
    max_blocks = block_tables.shape[1]
    check_index("block_tables", block_tables, (batch, max_blocks), k_cache.device)
    check_index("context_lens", context_lens, (batch,), k_cache.device)
    if q.device != k_cache.device:
        raise ValueError(f"q on {q.device}, the KV cache on {k_cache.device}")
    if block_n < 16 or block_n & (block_n - 1):
        raise ValueError(f"block_n must be a power of two >= 16, got {block_n}")
    if out is None:
        out = torch.empty_like(q)
    elif out.shape != q.shape or out.stride(-1) != 1:
        raise ValueError(f"out must be {tuple(q.shape)} with a contiguous head dim")
    if batch == 0:
        return out
    if max_blocks == 0:
        return out.zero_()

    if num_splits is None:
        sms = _num_sms(q.device.index or 0) if q.device.type == "cuda" else 4
        num_splits = choose_num_splits(batch, kvh, max_blocks, block_size, sms)
    blocks_per_split, num_splits = split_plan(max_blocks, num_splits, block_size, block_n)

    heads_per_kv = num_heads // kvh
    common = dict(
        BLOCK_SIZE=block_size,
        BLOCK_G=max(16, triton.next_power_of_2(heads_per_kv)),
        BLOCK_D=max(16, triton.next_power_of_2(head_dim)),
        BLOCK_N=block_n,
        ONE_SPLIT=num_splits == 1,
        num_warps=4,
        **dot_options(q.dtype),
    )
    scale_log2 = scale * LOG2E
    grid = (batch, kvh, num_splits)
    if num_splits == 1:
        _decode_split_kernel[grid](
            q, k_cache, v_cache, block_tables, context_lens, out, out, out,
            q.stride(0), q.stride(1),
            k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
            block_tables.stride(0),
            out.stride(0), out.stride(1), 0, 0, 0,
            scale_log2, heads_per_kv, head_dim, blocks_per_split,
            **common,
        )  # fmt: skip
        return out

    part = torch.empty(batch, num_heads, num_splits, head_dim, dtype=torch.float32, device=q.device)
    # Per split: unnormalized output, running max and sum of exponentials (fp32).
    m = torch.empty(batch, num_heads, num_splits, dtype=torch.float32, device=q.device)
    sum_exp = torch.empty_like(m)
    _decode_split_kernel[grid](
        q, k_cache, v_cache, block_tables, context_lens, part, m, sum_exp,
        q.stride(0), q.stride(1),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        block_tables.stride(0),
        part.stride(0), part.stride(1), part.stride(2), m.stride(0), m.stride(1),
        scale_log2, heads_per_kv, head_dim, blocks_per_split,
        **common,
    )  # fmt: skip
    _decode_reduce_kernel[(batch, num_heads)](
        part, m, sum_exp, out,
        part.stride(0), part.stride(1), part.stride(2),
        m.stride(0), m.stride(1),
        out.stride(0), out.stride(1),
        num_splits, head_dim,
        BLOCK_S=triton.next_power_of_2(num_splits),
        BLOCK_D=triton.next_power_of_2(head_dim),
        num_warps=1 if head_dim * num_splits <= 2048 else 4,
    )  # fmt: skip
    return out


def paged_decode_attention_reference(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float,
) -> torch.Tensor:
    """The same in torch, one sequence at a time in float32: gather its blocks, softmax, sum."""
    kvh, _, block_size, head_dim = k_cache.shape
    batch, num_heads, _ = q.shape
    out = torch.zeros_like(q)
    for b in range(batch):
        n = int(context_lens[b])
        if n == 0:
            continue
        blocks = block_tables[b, : -(-n // block_size)].long()
        k = k_cache[:, blocks].reshape(kvh, -1, head_dim)[:, :n].float()  # (KVH, n, D)
        v = v_cache[:, blocks].reshape(kvh, -1, head_dim)[:, :n].float()
        k = k.repeat_interleave(num_heads // kvh, 0)  # (H, n, D)
        v = v.repeat_interleave(num_heads // kvh, 0)
        scores = torch.einsum("hd,hnd->hn", q[b].float(), k) * scale
        out[b] = torch.einsum("hn,hnd->hd", scores.softmax(-1), v).to(q.dtype)
    return out
