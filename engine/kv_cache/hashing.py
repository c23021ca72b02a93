"""Chained block hashes for automatic prefix caching.

A full block is identified by its own token ids and the hash of the block before it, so equal
hashes mean equal prefixes. The key keeps the token ids themselves: a lookup compares them, so a
hash collision can never hand a request someone else's KV.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BlockHash:
    """Identity of one full block: (parent's hash value, this block's tokens)."""

    value: int
    parent_value: int | None
    token_ids: tuple[int, ...]

    def __hash__(self) -> int:
        return self.value


def hash_block_tokens(parent: BlockHash | None, token_ids: Sequence[int]) -> BlockHash:
    tokens = tuple(token_ids)
    parent_value = None if parent is None else parent.value
    return BlockHash(hash((parent_value, tokens)), parent_value, tokens)


def hash_request_blocks(
    token_ids: Sequence[int],
    block_size: int,
    known: list[BlockHash] | None = None,
) -> list[BlockHash]:
    """Hashes of every full block of `token_ids`, extending the already computed `known` list."""
    hashes = [] if known is None else known
    num_full = len(token_ids) // block_size
    parent = hashes[-1] if hashes else None
    for i in range(len(hashes), num_full):
        parent = hash_block_tokens(parent, token_ids[i * block_size : (i + 1) * block_size])
        hashes.append(parent)
    return hashes
