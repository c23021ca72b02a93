"""The engine's internal state for one request (never seen by the app)."""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Any

from engine.sampling_params import SamplingParams


class RequestStatus(enum.Enum):
    WAITING = "waiting"
    RUNNING = "running"
    PREEMPTED = "preempted"
    FINISHED_STOPPED = "stop"
    FINISHED_LENGTH = "length"
    FINISHED_ABORTED = "abort"

    @property
    def finished(self) -> bool:
        return self in (
            RequestStatus.FINISHED_STOPPED,
            RequestStatus.FINISHED_LENGTH,
            RequestStatus.FINISHED_ABORTED,
        )


@dataclass(eq=False, slots=True)
class Request:
    """One generation request.

    `num_computed_tokens` counts the leading tokens of `all_token_ids` whose KV is in the cache;
    the scheduler's single rule (schedule `num_tokens - num_computed_tokens` more, within the
    budget) covers prefill, chunked prefill, decode, prefix-cache hits and recompute after
    preemption.
    """

    request_id: str
    prompt_token_ids: list[int]
    sampling_params: SamplingParams
    eos_token_ids: tuple[int, ...] = ()
    arrival_time: float = field(default_factory=time.monotonic)
    all_token_ids: list[int] = field(init=False)
    output_token_ids: list[int] = field(default_factory=list)
    num_computed_tokens: int = 0
    num_cached_tokens: int = -1  # prompt tokens served by the prefix cache at first schedule
    num_preemptions: int = 0
    status: RequestStatus = RequestStatus.WAITING
    stop_reason: str | int | None = None
    first_scheduled_time: float | None = None
    # Per-request objects owned by the engine core: the seeded generator, the detokenizer.
    generator: Any = None
    detokenizer: Any = None

    def __post_init__(self) -> None:
        self.all_token_ids = list(self.prompt_token_ids)

    @property
    def num_prompt_tokens(self) -> int:
        return len(self.prompt_token_ids)

    @property
    def num_output_tokens(self) -> int:
        return len(self.output_token_ids)

    @property
    def num_tokens(self) -> int:
        return len(self.all_token_ids)

    @property
    def is_finished(self) -> bool:
        return self.status.finished

    def append_output_token(self, token_id: int) -> None:
        self.output_token_ids.append(token_id)
        self.all_token_ids.append(token_id)
