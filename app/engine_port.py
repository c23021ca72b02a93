"""What the app needs from the inference engine (the real `engine.AsyncEngine` or a test fake)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
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


@asynccontextmanager
async def output_stream(
    engine: EngineLike, prompt: Sequence[int], params: SamplingParams, request_id: str
) -> AsyncIterator[AsyncIterator[RequestOutput]]:
    """`engine.generate`, closed on exit: closing the generator is what aborts the request
    in the engine (freeing its KV blocks) right away instead of whenever it is collected."""
    stream = engine.generate(prompt, params, request_id=request_id)
    try:
        yield stream
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
