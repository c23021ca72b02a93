"""Paged KV-cache bookkeeping: block pool, prefix-cache hashing, per-request block tables.

Pure Python (no torch): the tensors live in the model runner; this package only decides which
block ids a request owns.
"""

from engine.kv_cache.block_pool import BlockPool, KVBlock
from engine.kv_cache.hashing import BlockHash, hash_block_tokens, hash_request_blocks
from engine.kv_cache.manager import KVCacheManager

__all__ = [
    "BlockHash",
    "BlockPool",
    "KVBlock",
    "KVCacheManager",
    "hash_block_tokens",
    "hash_request_blocks",
]
