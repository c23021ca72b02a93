"""Block pool and KV-cache manager scenarios with exact block ids and eviction order."""

from __future__ import annotations

import pytest

from engine.kv_cache import BlockPool, KVCacheManager, hash_block_tokens, hash_request_blocks
from engine.request import Request, RequestStatus
from engine.sampling_params import SamplingParams


def make_request(rid: str, tokens: list[int], max_tokens: int = 8) -> Request:
    return Request(rid, tokens, SamplingParams(max_tokens=max_tokens, temperature=0.0))


def test_allocate_takes_lowest_ids_first_and_free_returns_them():
    pool = BlockPool(6)
    a = pool.allocate(2)
    b = pool.allocate(3)
    assert [blk.block_id for blk in a] == [0, 1]
    assert [blk.block_id for blk in b] == [2, 3, 4]
    assert pool.num_free_blocks == 1
    pool.free(reversed(a))
    # Uncached blocks go to the front: reused before anything else.
    assert pool.free_queue.block_ids() == [0, 1, 5]
    with pytest.raises(RuntimeError, match="asked for 4 blocks, 3 free"):
        pool.allocate(4)


def test_cached_blocks_are_evicted_lru_tail_first():
    pool = BlockPool(4)
    blocks = pool.allocate(4)
    parent = None
    for i, blk in enumerate(blocks):
        parent = hash_block_tokens(parent, [i] * 4)
        pool.cache_block(blk, parent)
    # A request frees its blocks tail first: the tail is the first to be evicted.
    pool.free(reversed(blocks))
    assert pool.free_queue.block_ids() == [3, 2, 1, 0]
    [victim] = pool.allocate(1)
    assert victim.block_id == 3 and victim.block_hash is None
    assert pool.num_evictions == 1
    assert len(pool.cached) == 3


def test_touch_takes_a_cached_free_block_off_the_queue_and_counts_refs():
    pool = BlockPool(3)
    [blk] = pool.allocate(1)
    h = hash_block_tokens(None, [1, 2])
    pool.cache_block(blk, h)
    pool.free([blk])
    assert pool.get_cached_block(h) is blk and blk.ref_cnt == 0
    pool.touch([blk])
    pool.touch([blk])
    assert blk.ref_cnt == 2 and pool.free_queue.block_ids() == [1, 2]
    pool.free([blk])
    assert blk.ref_cnt == 1 and pool.num_free_blocks == 2


def test_hash_hit_is_verified_by_tokens_and_parent():
    h1 = hash_block_tokens(None, [1, 2, 3, 4])
    same = hash_block_tokens(None, [1, 2, 3, 4])
    other_parent = hash_block_tokens(hash_block_tokens(None, [9]), [1, 2, 3, 4])
    assert h1 == same and hash(h1) == hash(same)
    assert h1 != other_parent
    assert hash_request_blocks(list(range(10)), 4) == [
        hash_block_tokens(None, [0, 1, 2, 3]),
        hash_block_tokens(hash_block_tokens(None, [0, 1, 2, 3]), [4, 5, 6, 7]),
    ]


def test_prefix_hit_reuses_blocks_and_leaves_one_token_to_compute():
    mgr = KVCacheManager(num_blocks=8, block_size=4)
    a = make_request("a", list(range(10)))  # 2 full blocks + 2 tokens
    assert mgr.get_computed_blocks(a) == ([], 0)
    assert mgr.allocate_slots(a, 10)
    assert mgr.block_ids("a") == [0, 1, 2]
    a.num_computed_tokens = 10

    b = make_request("b", list(range(8)) + [77, 78, 79])
    hits, n = mgr.get_computed_blocks(b)
    assert [blk.block_id for blk in hits] == [0, 1] and n == 8
    assert mgr.allocate_slots(b, 3, hits)
    assert mgr.block_ids("b") == [0, 1, 3]
    assert [mgr.pool.blocks[i].ref_cnt for i in (0, 1, 2, 3)] == [2, 2, 1, 1]

    # A prompt that is exactly two cached blocks gives back the last one.
    c = make_request("c", list(range(8)))
    hits, n = mgr.get_computed_blocks(c)
    assert [blk.block_id for blk in hits] == [0] and n == 4


def test_free_after_finish_keeps_cached_blocks_for_the_next_turn():
    mgr = KVCacheManager(num_blocks=6, block_size=4)
    turn1 = make_request("t1", list(range(9)))
    mgr.allocate_slots(turn1, 9)
    turn1.num_computed_tokens = 9
    turn1.status = RequestStatus.FINISHED_STOPPED
    mgr.free(turn1)
    assert mgr.num_free_blocks == 6
    # The uncached partial block goes first, untouched blocks keep their place, cached blocks
    # go to the tail, the sequence's tail first.
    assert mgr.pool.free_queue.block_ids() == [2, 3, 4, 5, 1, 0]
    turn2 = make_request("t2", list(range(9)) + [100, 101, 102, 103])
    hits, n = mgr.get_computed_blocks(turn2)
    assert [blk.block_id for blk in hits] == [0, 1] and n == 8


def test_allocation_failure_changes_nothing():
    mgr = KVCacheManager(num_blocks=3, block_size=4)
    a = make_request("a", list(range(8)))
    assert mgr.allocate_slots(a, 8)
    b = make_request("b", list(range(100, 108)))
    assert not mgr.allocate_slots(b, 8)
    assert mgr.block_ids("b") == [] and mgr.num_free_blocks == 1
    assert "b" not in mgr.req_to_blocks


def test_cache_hit_on_free_block_counts_against_free_space():
    mgr = KVCacheManager(num_blocks=3, block_size=4)
    a = make_request("a", list(range(8)))
    mgr.allocate_slots(a, 8)
    a.num_computed_tokens = 8
    a.status = RequestStatus.FINISHED_STOPPED
    mgr.free(a)
    # b hits block 0 (free, cached) and needs 2 more: 3 blocks in all, exactly the pool.
    b = make_request("b", list(range(4)) + [50] * 8)
    hits, n = mgr.get_computed_blocks(b)
    assert n == 4
    assert mgr.allocate_slots(b, 8, hits)
    assert mgr.block_ids("b") == [0, 2, 1]
    assert mgr.num_free_blocks == 0
