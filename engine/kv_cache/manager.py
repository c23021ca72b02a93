"""Per-request block tables on top of the block pool, with automatic prefix caching."""

from __future__ import annotations

from engine.kv_cache.block_pool import BlockPool, KVBlock
from engine.kv_cache.hashing import BlockHash, hash_request_blocks
from engine.request import Request


class KVCacheManager:
    """Maps each running request to the blocks that hold its KV.

    Invariants: a request's blocks cover its first `num_computed_tokens` (+ the tokens scheduled
    this step); its first `num_cached_blocks[rid]` blocks are registered in the prefix cache.
    """

    def __init__(self, num_blocks: int, block_size: int, enable_caching: bool = True) -> None:
        self.block_size = block_size
        self.enable_caching = enable_caching
        self.pool = BlockPool(num_blocks, enable_caching)
        self.req_to_blocks: dict[str, list[KVBlock]] = {}
        self.req_to_hashes: dict[str, list[BlockHash]] = {}
        self.num_cached_blocks: dict[str, int] = {}
        # Prefix-cache statistics, in tokens.
        self.num_queried_tokens = 0
        self.num_hit_tokens = 0

    @property
    def usage(self) -> float:
        return self.pool.usage

    @property
    def num_free_blocks(self) -> int:
        return self.pool.num_free_blocks

    def block_ids(self, request_id: str) -> list[int]:
        return [b.block_id for b in self.req_to_blocks.get(request_id, [])]

    def get_computed_blocks(self, request: Request) -> tuple[list[KVBlock], int]:
        """The longest run of cached full blocks that prefixes the request's tokens.

        At least one token is always left to compute: the model must run on the last token to
        produce the next one, so a fully cached prompt gives back its last block.
        """
        if not self.enable_caching:
            return [], 0
        hashes = self.req_to_hashes.setdefault(request.request_id, [])
        hash_request_blocks(request.all_token_ids, self.block_size, hashes)
        hits: list[KVBlock] = []
        for block_hash in hashes:
            block = self.pool.get_cached_block(block_hash)
            if block is None:
                break
            hits.append(block)
        if hits and len(hits) * self.block_size >= request.num_tokens:
            hits.pop()
        return hits, len(hits) * self.block_size

    def record_prefix_query(self, num_tokens: int, num_hit_tokens: int) -> None:
        """Count one admitted request's prefix-cache lookup (in tokens)."""
        self.num_queried_tokens += num_tokens
        self.num_hit_tokens += num_hit_tokens

    def allocate_slots(
        self,
        request: Request,
        num_new_tokens: int,
        new_computed_blocks: list[KVBlock] | None = None,
    ) -> bool:
        """Make room for `num_new_tokens` more tokens after the computed ones (plus the given
        prefix-cache hits). Returns False, changing nothing, when the pool is too small."""
        computed = new_computed_blocks or []
        blocks = self.req_to_blocks.setdefault(request.request_id, [])
        num_computed = request.num_computed_tokens + len(computed) * self.block_size
        num_required = -(-(num_computed + num_new_tokens) // self.block_size)
        num_new_blocks = num_required - len(blocks) - len(computed)
        # Touching a cached block with ref_cnt 0 takes it off the free queue.
        num_evictable_hits = sum(1 for b in computed if b.ref_cnt == 0)
        if num_new_blocks + num_evictable_hits > self.pool.num_free_blocks:
            if not blocks:
                del self.req_to_blocks[request.request_id]
            return False
        self.pool.touch(computed)
        blocks.extend(computed)
        if num_new_blocks > 0:
            blocks.extend(self.pool.allocate(num_new_blocks))
        if self.enable_caching:
            self._cache_full_blocks(request, num_computed + num_new_tokens)
        return True

    def free(self, request: Request) -> None:
        blocks = self.req_to_blocks.pop(request.request_id, [])
        self.pool.free(reversed(blocks))
        self.num_cached_blocks.pop(request.request_id, None)
        # Keep the hashes while the request lives: a preempted request reuses them.
        if request.is_finished:
            self.req_to_hashes.pop(request.request_id, None)

    def _cache_full_blocks(self, request: Request, num_tokens: int) -> None:
        """Register the blocks that become full once `num_tokens` tokens are computed."""
        rid = request.request_id
        start = self.num_cached_blocks.get(rid, 0)
        num_full = min(num_tokens, request.num_tokens) // self.block_size
        if num_full <= start:
            return
        hashes = self.req_to_hashes.setdefault(rid, [])
        hash_request_blocks(request.all_token_ids[: num_full * self.block_size], self.block_size, hashes)
        blocks = self.req_to_blocks[rid]
        for i in range(start, num_full):
            self.pool.cache_block(blocks[i], hashes[i])
        self.num_cached_blocks[rid] = num_full
