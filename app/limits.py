"""Admission control: per-user message rate, per-user concurrency, a bounded engine queue."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from app.errors import OverloadedError, RateLimitedError
from app.generations import GenerationHub
from app.settings import LimitSettings


class _Stats(Protocol):
    num_waiting: int
    is_alive: bool


class RateLimiter:
    """Sliding one-minute window of accepted messages per user."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}

    def hit(self, user_id: str) -> None:
        now = self.clock()
        hits = self._hits.setdefault(user_id, deque())
        while hits and now - hits[0] >= 60.0:
            hits.popleft()
        if len(hits) >= self.per_minute:
            retry = 60.0 - (now - hits[0])
            raise RateLimitedError(
                f"more than {self.per_minute} messages per minute; retry in {retry:.0f} s"
            )
        hits.append(now)


class Admission:
    def __init__(
        self, limits: LimitSettings, hub: GenerationHub, stats: Callable[[], _Stats]
    ) -> None:
        self.limits = limits
        self.hub = hub
        self.stats = stats
        self.rate = RateLimiter(limits.messages_per_minute)

    def admit(self, user_id: str) -> None:
        """Raise a typed error if this user's new generation may not start now."""
        if self.hub.draining:
            raise OverloadedError("the server is shutting down; try again shortly")
        stats = self.stats()
        if not stats.is_alive:
            raise OverloadedError("the inference engine is not running")
        running = self.hub.num_active_for(user_id)
        if running >= self.limits.max_concurrent_generations_per_user:
            raise RateLimitedError(
                f"{running} generations already running for this user "
                f"(limit {self.limits.max_concurrent_generations_per_user})"
            )
        if (
            self.hub.num_active >= self.limits.max_active_generations
            or stats.num_waiting >= self.limits.max_engine_waiting
        ):
            raise OverloadedError(
                f"the server is busy ({self.hub.num_active} generations, "
                f"{stats.num_waiting} waiting); try again shortly"
            )
        self.rate.hit(user_id)
