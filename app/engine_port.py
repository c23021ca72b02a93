"""What the app needs from the inference engine (the real `engine.AsyncEngine` or a test fake)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from engine.outputs import RequestOutput
from engine.sampling_params import SamplingParams


class EngineLike(Protocol):
    tokenizer: Any
    model_name: str
    max_model_len: int

    def start(self) -> None: ...

    async def shutdown(self) -> None: ...

    def generate(
        self, prompt: str | Sequence[int], params: SamplingParams, request_id: str | None = None
    ) -> AsyncIterator[RequestOutput]: ...

    def abort(self, request_id: str) -> None: ...

    def stats(self) -> Any: ...
