"""Paged attention, pure torch: the reference path and the CPU path.

New K/V are written into a flat slot-indexed cache; attention then reads each sequence's
context through its slots, so prefix-cache hits and chunked prefill need no contiguous copy of
a sequence's history. GPU kernels (engine/kernels) implement the same `AttentionMetadata`
contract.
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
    context_slots: torch.Tensor | None  # (num_computed + num_query,) slots; None if no prefix


@dataclass(slots=True)
class AttentionMetadata:
    """Everything attention needs for one step; built once per step, shared by all layers.

    Rows of the flattened batch: first `num_decodes` single-token sequences, then the prefills.
    """

    slot_mapping: torch.Tensor  # (T,) cache slot of each new token
    num_decodes: int
    decode_slots: torch.Tensor | None  # (Bd, Lmax) context slots, padded
    decode_mask: torch.Tensor | None  # (Bd, 1, 1, Lmax) bool, True = attend
    prefills: list[PrefillSeq]


def store_kv(
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
) -> None:
    # k, v: (T, KVH, D); caches: (num_slots, KVH, D)
    k_cache.index_copy_(0, slot_mapping, k)
    v_cache.index_copy_(0, slot_mapping, v)


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
    store_kv(k, v, k_cache, v_cache, meta.slot_mapping)
    out = torch.empty_like(q)
    nd = meta.num_decodes
    if nd:
        assert meta.decode_slots is not None and meta.decode_mask is not None
        kd = k_cache[meta.decode_slots].transpose(1, 2)  # (Bd, KVH, L, D)
        vd = v_cache[meta.decode_slots].transpose(1, 2)
        qd = q[:nd].unsqueeze(2)  # (Bd, H, 1, D)
        od = F.scaled_dot_product_attention(
            qd, kd, vd, attn_mask=meta.decode_mask, scale=scale, enable_gqa=True
        )  # (Bd, H, 1, D)
        out[:nd] = od.squeeze(2)
    for p in meta.prefills:
        rows = slice(p.query_start, p.query_start + p.num_query)
        qp = q[rows].transpose(0, 1).unsqueeze(0)  # (1, H, n, D)
        if p.context_slots is None:
            kp = k[rows].transpose(0, 1).unsqueeze(0)  # (1, KVH, n, D)
            vp = v[rows].transpose(0, 1).unsqueeze(0)
            op = F.scaled_dot_product_attention(
                qp, kp, vp, is_causal=True, scale=scale, enable_gqa=True
            )
        else:
            kp = k_cache[p.context_slots].transpose(0, 1).unsqueeze(0)  # (1, KVH, ctx, D)
            vp = v_cache[p.context_slots].transpose(0, 1).unsqueeze(0)
            ctx = p.num_computed + p.num_query
            # Query i sits at position num_computed + i and sees keys 0..num_computed + i.
            mask = torch.ones(p.num_query, ctx, dtype=torch.bool, device=q.device).tril(
                diagonal=p.num_computed
            )
            op = F.scaled_dot_product_attention(
                qp, kp, vp, attn_mask=mask, scale=scale, enable_gqa=True
            )
        out[rows] = op.squeeze(0).transpose(0, 1)
    return out
