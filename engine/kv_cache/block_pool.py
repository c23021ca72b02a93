"""The pool of KV blocks: reference counts, an O(1) LRU free queue and the prefix-cache map."""

from __future__ import annotations

from collections.abc import Iterable

from engine.kv_cache.hashing import BlockHash


class KVBlock:
    """One block of `block_size` KV slots.

    Invariants: a block is in the free queue iff ref_cnt == 0. A free block may still carry a
    block_hash: its KV stays reusable until the block is handed out again (evicted).
    """

    __slots__ = ("block_id", "ref_cnt", "block_hash", "prev_free", "next_free")

    def __init__(self, block_id: int) -> None:
        self.block_id = block_id
        self.ref_cnt = 0
        self.block_hash: BlockHash | None = None
        self.prev_free: KVBlock | None = None
        self.next_free: KVBlock | None = None

    def __repr__(self) -> str:
        return f"KVBlock(id={self.block_id}, ref_cnt={self.ref_cnt}, cached={self.block_hash is not None})"


class FreeBlockQueue:
    """Doubly linked list threaded through the blocks themselves: O(1) pop, append, remove.

    Order is eviction order: the head is evicted first. Freed blocks go to the tail, so the
    least recently used cached block is the first to be reused.
    """

    def __init__(self, blocks: Iterable[KVBlock]) -> None:
        self._head = KVBlock(-1)  # sentinels keep the link updates branch-free
        self._tail = KVBlock(-1)
        self._head.next_free = self._tail
        self._tail.prev_free = self._head
        self.num_free_blocks = 0
        for block in blocks:
            self.append(block)

    def append(self, block: KVBlock) -> None:
        last = self._tail.prev_free
        assert last is not None and block.prev_free is None and block.next_free is None
        last.next_free = block
        block.prev_free = last
        block.next_free = self._tail
        self._tail.prev_free = block
        self.num_free_blocks += 1

    def appendleft(self, block: KVBlock) -> None:
        first = self._head.next_free
        assert first is not None and block.prev_free is None and block.next_free is None
        self._head.next_free = block
        block.prev_free = self._head
        block.next_free = first
        first.prev_free = block
        self.num_free_blocks += 1

    def remove(self, block: KVBlock) -> None:
        prev, nxt = block.prev_free, block.next_free
        assert prev is not None and nxt is not None, f"{block} is not in the free queue"
        prev.next_free = nxt
        nxt.prev_free = prev
        block.prev_free = block.next_free = None
        self.num_free_blocks -= 1

    def popleft(self) -> KVBlock:
        block = self._head.next_free
        if block is None or block is self._tail:
            raise RuntimeError("no free KV blocks")
        self.remove(block)
        return block

    def block_ids(self) -> list[int]:
        """Free block ids in eviction order (for tests and debugging)."""
        ids = []
        node = self._head.next_free
        while node is not None and node is not self._tail:
            ids.append(node.block_id)
            node = node.next_free
        return ids


class BlockPool:
    """Owns every KV block. Callers take blocks with `allocate` or `touch` and give them back
    with `free`; a block's KV is reused by prefix caching until the block is evicted."""

    def __init__(self, num_blocks: int, enable_caching: bool = True) -> None:
        if num_blocks < 1:
            raise ValueError(f"num_blocks must be >= 1, got {num_blocks}")
        self.num_blocks = num_blocks
        self.enable_caching = enable_caching
        self.blocks = [KVBlock(i) for i in range(num_blocks)]
        self.free_queue = FreeBlockQueue(self.blocks)
        self.cached: dict[BlockHash, KVBlock] = {}
        self.num_evictions = 0

    @property
    def num_free_blocks(self) -> int:
        return self.free_queue.num_free_blocks

    @property
    def usage(self) -> float:
        """Fraction of blocks held by requests (cached free blocks count as free)."""
        return 1.0 - self.num_free_blocks / self.num_blocks

    def get_cached_block(self, block_hash: BlockHash) -> KVBlock | None:
        block = self.cached.get(block_hash)
        # The dict compares BlockHash by value, parent and tokens: a hit is verified.
        return block

    def allocate(self, num_blocks: int) -> list[KVBlock]:
        """Hand out `num_blocks` fresh blocks (ref_cnt 1), evicting cached ones LRU-first."""
        if num_blocks > self.num_free_blocks:
            raise RuntimeError(f"asked for {num_blocks} blocks, {self.num_free_blocks} free")
        out = []
        for _ in range(num_blocks):
            block = self.free_queue.popleft()
            self._evict(block)
            block.ref_cnt = 1
            out.append(block)
        return out

    def touch(self, blocks: Iterable[KVBlock]) -> None:
        """Take another reference to blocks found in the prefix cache."""
        for block in blocks:
            if block.ref_cnt == 0:
                self.free_queue.remove(block)
            block.ref_cnt += 1

    def free(self, blocks: Iterable[KVBlock]) -> None:
        """Drop one reference from each block. Callers pass a request's blocks tail first, so
        that the tail of a sequence (least likely to be shared) is evicted before its prefix."""
        for block in blocks:
            assert block.ref_cnt > 0, f"double free of {block}"
            block.ref_cnt -= 1
            if block.ref_cnt == 0:
                if block.block_hash is None:
                    # Uncached blocks carry nothing reusable: reuse them before cached ones.
                    self.free_queue.appendleft(block)
                else:
                    self.free_queue.append(block)

    def cache_block(self, block: KVBlock, block_hash: BlockHash) -> None:
        """Register a full block's content under its hash (first writer wins)."""
        if not self.enable_caching or block.block_hash is not None:
            return
        if block_hash in self.cached:
            return  # an identical block is already cached; this one stays private
        block.block_hash = block_hash
        self.cached[block_hash] = block

    def reset_prefix_cache(self) -> None:
        for block in self.blocks:
            if block.block_hash is not None:
                self.cached.pop(block.block_hash, None)
                block.block_hash = None

    def _evict(self, block: KVBlock) -> None:
        if block.block_hash is not None:
            if self.cached.get(block.block_hash) is block:
                del self.cached[block.block_hash]
            block.block_hash = None
            self.num_evictions += 1
