"""KV-cache store: write the step's new K and V rows into their cache slots, one launch.

A slot is block_id * block_size + offset; slot -1 marks a padding row (a CUDA graph replays a
fixed batch size) and is skipped. One program per token moves all its KV heads for both caches,
so the launch is T programs of (KVH, D) contiguous rows.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.kernels.validation import check_heads, check_index, check_kv_caches


@triton.jit
def _store_kv_kernel(
    k_ptr,
    v_ptr,
    k_cache_ptr,
    v_cache_ptr,
    slot_ptr,
    stride_kt,
    stride_kh,
    stride_vt,
    stride_vh,
    stride_ch,
    stride_cb,
    stride_co,
    num_kv_heads,
    head_dim,
    BLOCK_SIZE: tl.constexpr,
    BLOCK_H: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    t = tl.program_id(0)
    slot = tl.load(slot_ptr + t).to(tl.int64)
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, BLOCK_D)
    # A padding row (slot < 0) masks everything off: no load, no store. The slot is broadcast
    # to a tensor first: Triton's interpreter rejects a mask built from a scalar comparison.
    slot_ok = (tl.zeros([BLOCK_H], tl.int64) + slot) >= 0
    mask = ((h < num_kv_heads) & slot_ok)[:, None] & (d[None, :] < head_dim)
    t64 = t.to(tl.int64)
    k = tl.load(k_ptr + t64 * stride_kt + h[:, None] * stride_kh + d[None, :], mask=mask)
    v = tl.load(v_ptr + t64 * stride_vt + h[:, None] * stride_vh + d[None, :], mask=mask)
    block = slot // BLOCK_SIZE
    offset = slot % BLOCK_SIZE
    # int64: a large cache passes 2**31 elements per layer.
    dst = h[:, None].to(tl.int64) * stride_ch + block * stride_cb + offset * stride_co + d[None, :]
    tl.store(k_cache_ptr + dst, k.to(k_cache_ptr.dtype.element_ty), mask=mask)
    tl.store(v_cache_ptr + dst, v.to(v_cache_ptr.dtype.element_ty), mask=mask)


def store_kv(
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
) -> None:
    """k, v: (T, KVH, D); caches (KVH, num_blocks, block_size, D); slot_mapping (T,), -1 = skip."""
    kvh, num_blocks, block_size, head_dim = check_kv_caches(k_cache, v_cache)
    check_heads("k", k, kvh, head_dim)
    check_heads("v", v, kvh, head_dim)
    if k.shape != v.shape:
        raise ValueError(f"k and v shapes differ: {tuple(k.shape)} vs {tuple(v.shape)}")
    num_tokens = k.shape[0]
    check_index("slot_mapping", slot_mapping, (num_tokens,), k_cache.device)
    if k.device != k_cache.device or v.device != k_cache.device:
        raise ValueError(f"k/v on {k.device}/{v.device}, the KV cache on {k_cache.device}")
    if num_tokens == 0:
        return
    _store_kv_kernel[(num_tokens,)](
        k,
        v,
        k_cache,
        v_cache,
        slot_mapping,
        k.stride(0),
        k.stride(1),
        v.stride(0),
        v.stride(1),
        k_cache.stride(0),
        k_cache.stride(1),
        k_cache.stride(2),
        kvh,
        head_dim,
        BLOCK_SIZE=block_size,
        BLOCK_H=triton.next_power_of_2(kvh),
        BLOCK_D=triton.next_power_of_2(head_dim),
        num_warps=1 if kvh * head_dim <= 512 else 4,
    )


def store_kv_reference(
    k: torch.Tensor,
    v: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
) -> None:
    """The same in torch: index_copy_ over the flattened slots of the rows with slot >= 0."""
    keep = slot_mapping >= 0
    slots = slot_mapping[keep].long()
    kvh, _, _, head_dim = k_cache.shape
    k_cache.view(kvh, -1, head_dim).index_copy_(1, slots, k[keep].transpose(0, 1).to(k_cache.dtype))
    v_cache.view(kvh, -1, head_dim).index_copy_(1, slots, v[keep].transpose(0, 1).to(v_cache.dtype))
