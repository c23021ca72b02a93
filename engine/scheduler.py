"""Continuous-batching scheduler: token budget, chunked prefill, FCFS, preemption by recompute.

Pure Python. One rule covers every phase: each step a request is given up to
`num_tokens - num_computed_tokens` tokens of the step's budget.
"""

from __future__ import annotations

import contextlib
from collections import deque
from dataclasses import dataclass, field

from engine.kv_cache.manager import KVCacheManager
from engine.request import Request, RequestStatus


@dataclass(slots=True)
class ScheduledRequest:
    request: Request
    num_new_tokens: int
    block_ids: list[int]

    @property
    def samples(self) -> bool:
        """True when this chunk reaches the request's last known token, so the step samples."""
        return self.request.num_computed_tokens + self.num_new_tokens == self.request.num_tokens


@dataclass(slots=True)
class SchedulerOutput:
    scheduled: list[ScheduledRequest] = field(default_factory=list)
    preempted_ids: list[str] = field(default_factory=list)

    @property
    def num_tokens(self) -> int:
        return sum(s.num_new_tokens for s in self.scheduled)

    @property
    def is_empty(self) -> bool:
        return not self.scheduled


class Scheduler:
    """Decides, each step, which requests run and how many of their tokens.

    Running requests come first (in arrival order) so decodes are never starved by a long
    prompt: a prompt only gets what is left of the budget, in chunks. When blocks run out the
    latest-arrived running request is preempted: its blocks are freed and it goes back to the
    front of the queue to be recomputed later (its prefix blocks may still hit the cache).
    """

    def __init__(
        self,
        kv_cache: KVCacheManager,
        max_num_seqs: int,
        max_num_batched_tokens: int,
    ) -> None:
        self.kv_cache = kv_cache
        self.max_num_seqs = max_num_seqs
        self.max_num_batched_tokens = max_num_batched_tokens
        self.waiting: deque[Request] = deque()
        self.running: list[Request] = []
        self.requests: dict[str, Request] = {}
        self.num_preemptions = 0

    @property
    def num_unfinished(self) -> int:
        return len(self.waiting) + len(self.running)

    def add_request(self, request: Request) -> None:
        if request.request_id in self.requests:
            raise ValueError(f"duplicate request id {request.request_id!r}")
        self.requests[request.request_id] = request
        self.waiting.append(request)

    def schedule(self) -> SchedulerOutput:
        out = SchedulerOutput()
        budget = self.max_num_batched_tokens
        kept: list[Request] = []
        # 1. Running requests, oldest first; preempt from the newest end when out of blocks.
        queue = deque(self.running)
        while queue and budget > 0:
            request = queue.popleft()
            num_new = min(request.num_tokens - request.num_computed_tokens, budget)
            while not self.kv_cache.allocate_slots(request, num_new):
                victim = queue.pop() if queue else request
                self._preempt(victim)
                out.preempted_ids.append(victim.request_id)
                if victim is request:
                    break
            else:
                kept.append(request)
                out.scheduled.append(
                    ScheduledRequest(request, num_new, self.kv_cache.block_ids(request.request_id))
                )
                budget -= num_new
        kept.extend(queue)  # running requests the budget did not reach stay running
        self.running = kept

        # 2. Waiting requests in FCFS order while budget, sequence slots and blocks allow.
        if out.preempted_ids:
            return out  # memory is tight: admit nothing new this step
        while self.waiting and budget > 0 and len(self.running) < self.max_num_seqs:
            request = self.waiting[0]
            hits, num_hit_tokens = self.kv_cache.get_computed_blocks(request)
            num_new = min(request.num_tokens - request.num_computed_tokens - num_hit_tokens, budget)
            if not self.kv_cache.allocate_slots(request, num_new, hits):
                break
            self.waiting.popleft()
            self.kv_cache.record_prefix_query(request.num_tokens, num_hit_tokens)
            if request.num_cached_tokens < 0:
                request.num_cached_tokens = num_hit_tokens
            request.num_computed_tokens += num_hit_tokens
            request.status = RequestStatus.RUNNING
            self.running.append(request)
            out.scheduled.append(
                ScheduledRequest(request, num_new, self.kv_cache.block_ids(request.request_id))
            )
            budget -= num_new
        return out

    def finish_request(self, request: Request, status: RequestStatus) -> None:
        """Mark a request finished and free its blocks at once (also for aborts)."""
        assert status.finished
        if request.is_finished:
            return
        request.status = status
        if request in self.running:
            self.running.remove(request)
        else:
            with contextlib.suppress(ValueError):
                self.waiting.remove(request)
        self.kv_cache.free(request)
        self.requests.pop(request.request_id, None)

    def _preempt(self, request: Request) -> None:
        self.kv_cache.free(request)
        request.status = RequestStatus.PREEMPTED
        request.num_computed_tokens = 0
        request.num_preemptions += 1
        self.num_preemptions += 1
        self.waiting.appendleft(request)
