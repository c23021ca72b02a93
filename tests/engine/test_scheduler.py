"""Scheduler scenarios (pure Python): budget, chunked prefill, FCFS, preemption, abort."""

from __future__ import annotations

from engine.kv_cache import KVCacheManager
from engine.request import Request, RequestStatus
from engine.sampling_params import SamplingParams
from engine.scheduler import Scheduler, SchedulerOutput


def make_scheduler(num_blocks=64, block_size=4, max_seqs=8, budget=16) -> Scheduler:
    return Scheduler(KVCacheManager(num_blocks, block_size), max_seqs, budget)


def req(rid: str, n: int, start: int = 0) -> Request:
    return Request(rid, list(range(start, start + n)), SamplingParams(max_tokens=50, temperature=0))


def advance(sched: Scheduler, out: SchedulerOutput, token: int = 7) -> None:
    """What the engine core does after the model ran: count computed tokens, append samples."""
    for s in out.scheduled:
        samples = s.samples
        s.request.num_computed_tokens += s.num_new_tokens
        if samples:
            s.request.append_output_token(token)


def plan(out: SchedulerOutput) -> list[tuple[str, int]]:
    return [(s.request.request_id, s.num_new_tokens) for s in out.scheduled]


def test_long_prompt_is_chunked_and_decodes_keep_running():
    s = make_scheduler(budget=8)
    s.add_request(req("a", 3))
    out = s.schedule()
    assert plan(out) == [("a", 3)]
    advance(s, out)
    s.add_request(req("long", 20, start=100))
    steps = []
    for _ in range(4):
        out = s.schedule()
        steps.append(plan(out))
        advance(s, out)
    # "a" decodes one token every step; the prompt takes the rest of the budget in chunks.
    assert steps == [
        [("a", 1), ("long", 7)],
        [("a", 1), ("long", 7)],
        [("a", 1), ("long", 6)],
        [("a", 1), ("long", 1)],
    ]
    assert s.requests["long"].num_output_tokens == 2


def test_chunk_that_does_not_reach_the_end_does_not_sample():
    s = make_scheduler(budget=5)
    s.add_request(req("p", 12))
    out = s.schedule()
    assert plan(out) == [("p", 5)] and not out.scheduled[0].samples
    advance(s, out)
    out = s.schedule()
    assert not out.scheduled[0].samples
    advance(s, out)
    out = s.schedule()
    assert plan(out) == [("p", 2)] and out.scheduled[0].samples


def test_fcfs_and_max_num_seqs():
    s = make_scheduler(max_seqs=2, budget=100)
    for rid in "abc":
        s.add_request(req(rid, 4, start=ord(rid) * 10))
    out = s.schedule()
    assert plan(out) == [("a", 4), ("b", 4)]
    advance(s, out)
    s.finish_request(s.requests["a"], RequestStatus.FINISHED_STOPPED)
    out = s.schedule()
    assert plan(out) == [("b", 1), ("c", 4)]


def test_preemption_frees_the_newest_and_requeues_it_first():
    # 4 blocks of 4 tokens. a and b take 2 blocks each for 5-token prompts.
    s = make_scheduler(num_blocks=4, block_size=4, budget=100)
    s.add_request(req("a", 5))
    s.add_request(req("b", 5, start=50))
    out = s.schedule()
    assert plan(out) == [("a", 5), ("b", 5)]
    advance(s, out)
    for _ in range(3):  # positions 5..7 still fit in the second block
        out = s.schedule()
        advance(s, out)
    # Position 8 of a needs a third block: none free, so b (newest) is preempted.
    out = s.schedule()
    assert out.preempted_ids == ["b"]
    assert plan(out) == [("a", 1)]
    b = s.requests["b"]
    assert b.status is RequestStatus.PREEMPTED and b.num_computed_tokens == 0
    assert list(s.waiting) == [b] and s.kv_cache.block_ids("b") == []
    assert b.output_token_ids == [7, 7, 7, 7]
    # When a finishes, b is recomputed from its prompt plus its output so far (9 tokens). Its
    # first block is still cached; its second was evicted (tail first) to give a its block.
    advance(s, out)
    s.finish_request(s.requests["a"], RequestStatus.FINISHED_STOPPED)
    out = s.schedule()
    assert plan(out) == [("b", 5)]
    assert b.num_computed_tokens == 4
    assert s.num_preemptions == 1


def test_request_alone_that_cannot_grow_preempts_itself():
    s = make_scheduler(num_blocks=2, block_size=4, budget=100)
    s.add_request(req("a", 8))
    out = s.schedule()
    advance(s, out)
    out = s.schedule()
    assert out.preempted_ids == ["a"] and out.scheduled == []


def test_abort_frees_blocks_in_the_same_step():
    s = make_scheduler(num_blocks=8, block_size=4)
    s.add_request(req("a", 10))
    s.add_request(req("b", 3, start=40))
    advance(s, s.schedule())
    assert s.kv_cache.num_free_blocks == 4
    s.finish_request(s.requests["a"], RequestStatus.FINISHED_ABORTED)
    assert s.kv_cache.num_free_blocks == 7
    s.finish_request(s.requests["b"], RequestStatus.FINISHED_ABORTED)
    assert s.kv_cache.num_free_blocks == 8 and s.num_unfinished == 0


def test_waiting_request_is_aborted_before_it_runs():
    s = make_scheduler(max_seqs=1)
    s.add_request(req("a", 3))
    s.add_request(req("b", 3, start=9))
    advance(s, s.schedule())
    s.finish_request(s.requests["b"], RequestStatus.FINISHED_ABORTED)
    assert list(s.waiting) == [] and "b" not in s.requests


def test_prefix_hit_counts_as_computed_and_is_recorded():
    s = make_scheduler(block_size=4, budget=100)
    s.add_request(req("a", 9))
    advance(s, s.schedule())
    s.finish_request(s.requests["a"], RequestStatus.FINISHED_STOPPED)
    s.add_request(req("b", 12))  # shares the first 8 tokens (2 blocks) with a
    out = s.schedule()
    assert plan(out) == [("b", 4)]
    assert s.requests["b"].num_cached_tokens == 8
    assert s.kv_cache.num_hit_tokens == 8 and s.kv_cache.num_queried_tokens == 9 + 12
