"""Paged attention through the Triton kernels: the triton attention backend.

Same contract as `paged_attention` in attention.py, reading `AttentionMetadata.kernel_batch`:
one store launch for the step's new K/V, one decode launch (plus its split reduction) for all
single-token rows, one prefill launch for all prefill rows. No gather, no per-sequence Python
loop, no host-device sync.
"""

from __future__ import annotations

import torch

from engine.kernels.decode_attention import paged_decode_attention
from engine.kernels.kv_store import store_kv
from engine.kernels.prefill_attention import paged_prefill_attention
from engine.layers.attention import AttentionMetadata


def triton_paged_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    meta: AttentionMetadata,
    scale: float,
) -> torch.Tensor:
    """q: (T, H, D); k, v: (T, KVH, D) for the new tokens. Returns (T, H, D)."""
    batch = meta.kernel_batch
    if batch is None:
        raise ValueError("triton attention needs AttentionMetadata.kernel_batch")
    store_kv(k, v, k_cache, v_cache, meta.slot_mapping)
    out = torch.empty_like(q)
    nd = batch.num_decodes
    if nd:
        paged_decode_attention(
            q[:nd], k_cache, v_cache, batch.decode_block_tables, batch.decode_context_lens,
            scale, out=out[:nd],
        )  # fmt: skip
    if q.shape[0] > nd:
        paged_prefill_attention(
            q[nd:], k_cache, v_cache, batch.prefill_block_tables, batch.prefill_cu_query_starts,
            batch.prefill_num_computed, batch.prefill_max_query_len, scale, out=out[nd:],
        )  # fmt: skip
    return out
