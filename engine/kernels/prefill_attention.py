"""Prefill attention over the paged cache: every prefill sequence of a step in one launch.

Sequence i has new query rows cu_query_starts[i]:cu_query_starts[i+1] and num_computed[i]
tokens cached before them; store_kv has already written the new tokens' K/V, so its whole
context (prefix and chunk) is read through its block table and nothing is gathered into a
contiguous copy: chunked prefill and prefix-cache hits cost no extra memory traffic. Query row
j sits at position num_computed + j and attends to keys 0..num_computed + j (causal with an
offset).

Grid (cdiv(max_query_len, BLOCK_M), num_seqs, H): a program takes BLOCK_M query rows of one
head and runs an online softmax (fp32) over key tiles of BLOCK_N up to its last row's position;
programs past their sequence's query length exit at once. The launch needs max_query_len, a
host-side int the caller knows when it builds the batch, so no device sync.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.kernels.common import dot_options, mma
from engine.kernels.validation import check_heads, check_index, check_kv_caches

LOG2E = 1.4426950408889634


@triton.jit
def _prefill_kernel(
    q_ptr,
    k_cache_ptr,
    v_cache_ptr,
    out_ptr,
    block_tables_ptr,
    cu_query_starts_ptr,
    num_computed_ptr,
    stride_qt,
    stride_qh,
    stride_ot,
    stride_oh,
    stride_ch,
    stride_cb,
    stride_co,
    stride_bt,
    scale_log2,
    heads_per_kv,
    head_dim,
    BLOCK_SIZE: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_D: tl.constexpr,
    PRECISION: tl.constexpr,
    UPCAST: tl.constexpr,
):
    tile = tl.program_id(0)
    seq = tl.program_id(1)
    head = tl.program_id(2)
    q_start = tl.load(cu_query_starts_ptr + seq)
    num_query = tl.load(cu_query_starts_ptr + seq + 1) - q_start
    if tile * BLOCK_M >= num_query:
        return
    num_computed = tl.load(num_computed_ptr + seq)

    m_rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = m_rows < num_query
    d = tl.arange(0, BLOCK_D)
    d_mask = d < head_dim
    rows64 = (q_start + m_rows).to(tl.int64)
    q = tl.load(
        q_ptr + rows64[:, None] * stride_qt + head * stride_qh + d[None, :],
        mask=m_mask[:, None] & d_mask[None, :],
        other=0.0,
    )  # (M, D)
    q_pos = num_computed + m_rows  # (M,)
    # Keys up to the tile's last real row (exclusive end).
    kv_end = num_computed + tl.minimum((tile + 1) * BLOCK_M, num_query)
    cache_head = (head // heads_per_kv).to(tl.int64) * stride_ch
    table = block_tables_ptr + seq.to(tl.int64) * stride_bt

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)
    for n0 in range(0, kv_end, BLOCK_N):
        n = n0 + tl.arange(0, BLOCK_N)
        n_mask = n < kv_end
        block = tl.load(table + n // BLOCK_SIZE, mask=n_mask, other=0).to(tl.int64)
        kv_rows = cache_head + block * stride_cb + (n % BLOCK_SIZE) * stride_co  # (N,)
        kv_mask = n_mask[:, None] & d_mask[None, :]
        k = tl.load(k_cache_ptr + kv_rows[:, None] + d[None, :], mask=kv_mask, other=0.0)
        scores = mma(q, tl.trans(k), PRECISION, UPCAST) * scale_log2  # (M, N)
        visible = (n[None, :] <= q_pos[:, None]) & n_mask[None, :]
        scores = tl.where(visible, scores, float("-inf"))
        # Every row sees key 0, so m_new is finite after the first tile.
        m_new = tl.maximum(m_i, tl.max(scores, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(scores - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_cache_ptr + kv_rows[:, None] + d[None, :], mask=kv_mask, other=0.0)
        acc = acc * alpha[:, None] + mma(p.to(v.dtype), v, PRECISION, UPCAST)
        m_i = m_new

    out = acc / l_i[:, None]
    dst = out_ptr + rows64[:, None] * stride_ot + head * stride_oh + d[None, :]
    tl.store(dst, out.to(out_ptr.dtype.element_ty), mask=m_mask[:, None] & d_mask[None, :])


def paged_prefill_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_query_starts: torch.Tensor,
    num_computed: torch.Tensor,
    max_query_len: int,
    scale: float,
    *,
    block_m: int = 64,
    block_n: int = 64,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """q: (T, H, D), the rows of all prefill sequences back to back; caches (KVH, num_blocks,
    block_size, D) already holding the new tokens; block_tables (P, max_blocks) covering each
    sequence's num_computed + num_query tokens; cu_query_starts (P + 1,) from 0 to T;
    num_computed (P,); max_query_len >= every sequence's query length. Returns (T, H, D).
    """
    kvh, _, block_size, head_dim = check_kv_caches(k_cache, v_cache)
    check_heads("q", q, None, head_dim)
    num_tokens, num_heads, _ = q.shape
    if num_heads % kvh:
        raise ValueError(f"query heads ({num_heads}) must be a multiple of KV heads ({kvh})")
    if block_tables.dim() != 2:
        raise ValueError(f"block_tables must be (P, max_blocks), got {tuple(block_tables.shape)}")
    num_seqs = block_tables.shape[0]
    check_index("block_tables", block_tables, (num_seqs, block_tables.shape[1]), k_cache.device)
    check_index("cu_query_starts", cu_query_starts, (num_seqs + 1,), k_cache.device)
    check_index("num_computed", num_computed, (num_seqs,), k_cache.device)
    if q.device != k_cache.device:
        raise ValueError(f"q on {q.device}, the KV cache on {k_cache.device}")
    for name, size in (("block_m", block_m), ("block_n", block_n)):
        if size < 16 or size & (size - 1):
            raise ValueError(f"{name} must be a power of two >= 16, got {size}")
    if max_query_len < 0:
        raise ValueError(f"max_query_len must be >= 0, got {max_query_len}")
    if out is None:
        out = torch.empty_like(q)
    elif out.shape != q.shape or out.stride(-1) != 1:
        raise ValueError(f"out must be {tuple(q.shape)} with a contiguous head dim")
    if num_seqs == 0 or num_tokens == 0 or max_query_len == 0:
        return out

    grid = (triton.cdiv(max_query_len, block_m), num_seqs, num_heads)
    _prefill_kernel[grid](
        q, k_cache, v_cache, out, block_tables, cu_query_starts, num_computed,
        q.stride(0), q.stride(1), out.stride(0), out.stride(1),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        block_tables.stride(0),
        scale * LOG2E, num_heads // kvh, head_dim,
        BLOCK_SIZE=block_size,
        BLOCK_M=block_m,
        BLOCK_N=block_n,
        BLOCK_D=max(16, triton.next_power_of_2(head_dim)),
        num_warps=4,
        **dot_options(q.dtype),
    )  # fmt: skip
    return out


def paged_prefill_attention_reference(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_query_starts: torch.Tensor,
    num_computed: torch.Tensor,
    scale: float,
) -> torch.Tensor:
    """The same in torch, one sequence at a time in float32 with an explicit causal mask."""
    kvh, _, block_size, head_dim = k_cache.shape
    num_heads = q.shape[1]
    out = torch.zeros_like(q)
    for i in range(block_tables.shape[0]):
        start, end = int(cu_query_starts[i]), int(cu_query_starts[i + 1])
        cached = int(num_computed[i])
        ctx = cached + end - start
        blocks = block_tables[i, : -(-ctx // block_size)].long()
        k = k_cache[:, blocks].reshape(kvh, -1, head_dim)[:, :ctx].float()  # (KVH, ctx, D)
        v = v_cache[:, blocks].reshape(kvh, -1, head_dim)[:, :ctx].float()
        k = k.repeat_interleave(num_heads // kvh, 0)  # (H, ctx, D)
        v = v.repeat_interleave(num_heads // kvh, 0)
        scores = torch.einsum("thd,hnd->htn", q[start:end].float(), k) * scale  # (H, t, ctx)
        visible = torch.ones(end - start, ctx, dtype=torch.bool, device=q.device).tril(diagonal=cached)
        scores = scores.masked_fill(~visible, float("-inf"))
        out[start:end] = torch.einsum("htn,hnd->thd", scores.softmax(-1), v).to(q.dtype)
    return out
