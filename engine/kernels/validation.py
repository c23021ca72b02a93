"""Argument checks shared by the kernel wrappers: bad input gets a ValueError naming the value,
not a crash or a silent out-of-bounds read inside a kernel."""

from __future__ import annotations

import torch

FLOAT_DTYPES = (torch.float32, torch.bfloat16, torch.float16)
INDEX_DTYPES = (torch.int32, torch.int64)


def check_kv_caches(k_cache: torch.Tensor, v_cache: torch.Tensor) -> tuple[int, int, int, int]:
    """Both caches (KVH, num_blocks, block_size, D), same shape, strides, dtype and device.

    Returns (KVH, num_blocks, block_size, D). The kernels address both caches with one set of
    strides and need the head dim contiguous for coalesced loads.
    """
    if k_cache.dim() != 4:
        raise ValueError(
            f"KV cache must be (KVH, num_blocks, block_size, D), got {tuple(k_cache.shape)}"
        )
    if k_cache.shape != v_cache.shape or k_cache.stride() != v_cache.stride():
        raise ValueError(
            f"K and V caches differ: {tuple(k_cache.shape)}/{k_cache.stride()} vs "
            f"{tuple(v_cache.shape)}/{v_cache.stride()}"
        )
    if k_cache.dtype != v_cache.dtype or k_cache.dtype not in FLOAT_DTYPES:
        raise ValueError(
            f"KV cache dtypes must match and be float: {k_cache.dtype}, {v_cache.dtype}"
        )
    if k_cache.device != v_cache.device:
        raise ValueError(f"KV caches on different devices: {k_cache.device}, {v_cache.device}")
    if k_cache.stride(-1) != 1:
        raise ValueError(f"KV cache head dim must be contiguous, strides {k_cache.stride()}")
    kvh, num_blocks, block_size, head_dim = k_cache.shape
    if block_size <= 0 or block_size & (block_size - 1):
        raise ValueError(f"block_size must be a power of two, got {block_size}")
    return kvh, num_blocks, block_size, head_dim


def check_index(name: str, t: torch.Tensor, shape: tuple[int, ...], device: torch.device) -> None:
    if t.dtype not in INDEX_DTYPES:
        raise ValueError(f"{name} must be int32 or int64, got {t.dtype}")
    if tuple(t.shape) != shape:
        raise ValueError(f"{name} must have shape {shape}, got {tuple(t.shape)}")
    if t.device != device:
        raise ValueError(f"{name} is on {t.device}, the KV cache on {device}")
    if t.dim() and t.stride(-1) != 1:
        raise ValueError(f"{name} must be contiguous in its last dim, strides {t.stride()}")


def check_heads(name: str, t: torch.Tensor, num_heads: int | None, head_dim: int) -> None:
    """A (rows, heads, D) activation with a contiguous head dim."""
    if (
        t.dim() != 3
        or t.shape[-1] != head_dim
        or (num_heads is not None and t.shape[1] != num_heads)
    ):
        want = f"(rows, {num_heads if num_heads is not None else 'heads'}, {head_dim})"
        raise ValueError(f"{name} must be {want}, got {tuple(t.shape)}")
    if t.stride(-1) != 1:
        raise ValueError(f"{name} head dim must be contiguous, strides {t.stride()}")
    if t.dtype not in FLOAT_DTYPES:
        raise ValueError(f"{name} must be float32, bfloat16 or float16, got {t.dtype}")
