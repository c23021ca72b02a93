"""Paged attention, pure torch: the reference path and the CPU path.

The KV cache of a layer is (KVH, num_blocks, block_size, D): new K/V are written by slot
(block * block_size + offset), and attention reads each sequence's context by gathering whole
blocks through its block table, which lands contiguous as (KVH, B, num_blocks * block_size, D)
and feeds batched matmuls without another copy. Prefix-cache hits and chunked prefill therefore
need no contiguous copy of a sequence's history kept anywhere. The Triton kernels
(engine/kernels, dispatched in attention_triton.py) read the same cache through the flat tensors
of `KernelBatch` instead, and never gather.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass(slots=True)
class PrefillSeq:
    """A sequence with more than one new token this step (a prompt or a prompt chunk)."""

    query_start: int  # first row of its tokens in the flattened batch
    num_query: int  # new tokens this step
    num_computed: int  # tokens already in the cache before this step
    block_table: torch.Tensor | None  # (num_blocks,) block ids; None when nothing is cached


@dataclass(slots=True)
class DecodeGroup:
    """Single-token sequences of similar context length, attended together.

    Rows `start:end` of the batch; contexts padded to the group's longest, so grouping sequences
    by length keeps the padded gather (the dominant cost of CPU decode) small.
    """

    start: int
    end: int
    block_tables: torch.Tensor  # (b, max_blocks), padded with block 0
    mask: torch.Tensor  # (1, b, 1, max_blocks * block_size) bool, True = attend


@dataclass(slots=True)
class KernelBatch:
    """The step's sequences as flat int32 tensors, for the Triton kernels.

    Rows of the flattened batch: `num_decodes` single-token sequences, then the prefills' rows
    back to back. Every prefill, with or without a cached prefix, reads its context through its
    block table (its new K/V are stored first). Tables are padded with block 0 past each
    sequence's blocks; the kernels never read past a context length.
    """

    num_decodes: int
    decode_block_tables: torch.Tensor  # (num_decodes, max_blocks) int32
    decode_context_lens: torch.Tensor  # (num_decodes,) int32, tokens including the new one
    prefill_block_tables: torch.Tensor  # (P, max_blocks) int32
    prefill_cu_query_starts: torch.Tensor  # (P + 1,) int32, rows counted from the first prefill
    prefill_num_computed: torch.Tensor  # (P,) int32, tokens cached before this step
    prefill_max_query_len: int  # host-side, sizes the prefill launch without a device sync


@dataclass(slots=True)
class AttentionMetadata:
    """Everything attention needs for one step; built once per step, shared by all layers.

    Rows of the flattened batch: first the single-token sequences, then the prefills. The torch
    path reads `decode_groups` and `prefills`; with `kernel_batch` set (the triton backend) those
    are empty and the Triton kernels run instead.
    """

    slot_mapping: torch.Tensor  # (T,) cache slot of each new token
    decode_groups: list[DecodeGroup]
    prefills: list[PrefillSeq]
    kernel_batch: KernelBatch | None = None


def store_kv(
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
) -> None:
    # k, v: (T, KVH, D); caches: (KVH, num_blocks, block_size, D)
    kvh, _, _, d = k_cache.shape
    k_cache.view(kvh, -1, d).index_copy_(1, slot_mapping, k.transpose(0, 1))
    v_cache.view(kvh, -1, d).index_copy_(1, slot_mapping, v.transpose(0, 1))


def gather_blocks(cache: torch.Tensor, block_tables: torch.Tensor) -> torch.Tensor:
    """(KVH, NB, bs, D) cache, (..., nblk) tables -> (KVH, ..., nblk * bs, D), contiguous."""
    out = cache[:, block_tables]  # (KVH, ..., nblk, bs, D)
    return out.flatten(-3, -2)


def decode_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor, scale: float
) -> torch.Tensor:
    """One query per sequence over its padded context, as two batched matmuls.

    q: (B, H, D); k, v: (KVH, B, L, D); mask: (1, B, 1, L) bool. Returns (B, H, D).
    Written out rather than through SDPA: the CPU flash kernel is several times slower for a
    single query. Query heads are grouped under their KV head, so K/V are never repeated.
    """
    B, H, D = q.shape
    kvh = k.shape[0]
    qg = q.view(B, kvh, H // kvh, D).transpose(0, 1)  # (KVH, B, G, D)
    scores = torch.matmul(qg, k.transpose(-1, -2)).float() * scale  # (KVH, B, G, L)
    scores.masked_fill_(~mask, float("-inf"))
    probs = torch.softmax(scores, dim=-1).to(v.dtype)
    out = torch.matmul(probs, v)  # (KVH, B, G, D)
    return out.transpose(0, 1).reshape(B, H, D)


def paged_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    meta: AttentionMetadata,
    scale: float,
) -> torch.Tensor:
    """q: (T, H, D); k, v: (T, KVH, D) for the new tokens. Returns (T, H, D)."""
    if meta.kernel_batch is not None:
        # Imported here: only the triton backend needs Triton.
        from engine.layers.attention_triton import triton_paged_attention

        return triton_paged_attention(q, k, v, k_cache, v_cache, meta, scale)
    store_kv(k, v, k_cache, v_cache, meta.slot_mapping)
    out = torch.empty_like(q)
    for g in meta.decode_groups:
        kd = gather_blocks(k_cache, g.block_tables)  # (KVH, b, L, D)
        vd = gather_blocks(v_cache, g.block_tables)
        out[g.start : g.end] = decode_attention(q[g.start : g.end], kd, vd, g.mask, scale)
    for p in meta.prefills:
        rows = slice(p.query_start, p.query_start + p.num_query)
        qp = q[rows].transpose(0, 1).unsqueeze(0)  # (1, H, n, D)
        if p.block_table is None:
            kp = k[rows].transpose(0, 1).unsqueeze(0)  # (1, KVH, n, D)
            vp = v[rows].transpose(0, 1).unsqueeze(0)
            op = F.scaled_dot_product_attention(
                qp, kp, vp, is_causal=True, scale=scale, enable_gqa=True
            )
        else:
            ctx = p.num_computed + p.num_query
            kp = gather_blocks(k_cache, p.block_table)[:, :ctx].unsqueeze(0)  # (1, KVH, ctx, D)
            vp = gather_blocks(v_cache, p.block_table)[:, :ctx].unsqueeze(0)
            # Query i sits at position num_computed + i and sees keys 0..num_computed + i.
            mask = torch.ones(p.num_query, ctx, dtype=torch.bool, device=q.device).tril(
                diagonal=p.num_computed
            )
            op = F.scaled_dot_product_attention(
                qp, kp, vp, attn_mask=mask, scale=scale, enable_gqa=True
            )
        out[rows] = op.squeeze(0).transpose(0, 1)
    return out
