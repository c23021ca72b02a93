"""The rails' worker thread runs torch with its own intra-op thread count, and leaves the
count of every other thread (the engine loop, the event loop, threads started later) alone;
the input and grounding seams run their checks there."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
import torch

from app.guard.executor import RailsExecutor
from app.guard.seams import PipelineGrounding, PipelineInputCheck
from app.hooks import TurnContext
from app.protocol import Source
from guardrails.pipeline import GroundingResult, InputResult
from guardrails.rails.grounding import GroundingReport


def in_fresh_thread(fn):
    out = []
    thread = threading.Thread(target=lambda: out.append(fn()))
    thread.start()
    thread.join()
    return out[0]


@pytest.fixture
def process_default_3() -> Iterator[None]:
    """Stores 3 as the process-wide count (from a throwaway thread, so that this thread keeps
    its own), and the previous value afterwards."""
    before = in_fresh_thread(torch.get_num_threads)
    in_fresh_thread(lambda: torch.set_num_threads(3))
    yield
    in_fresh_thread(lambda: torch.set_num_threads(before))


def test_the_rails_thread_has_its_own_count_and_leaves_the_others(process_default_3) -> None:
    mine = torch.get_num_threads()
    executor = RailsExecutor(torch_threads=1)
    try:
        name, count = asyncio.run(
            executor.run(lambda: (threading.current_thread().name, torch.get_num_threads()))
        )
        assert name.startswith("hearth-rails") and count == 1
        assert torch.get_num_threads() == mine  # this thread's count is untouched
        assert in_fresh_thread(torch.get_num_threads) == 3  # later threads get the default
        assert asyncio.run(executor.run(torch.get_num_threads)) == 1  # and it stays 1
    finally:
        executor.shutdown()


def test_two_workers_with_two_threads_each(process_default_3) -> None:
    executor = RailsExecutor(workers=2, torch_threads=2)

    async def both() -> list[int]:
        barrier = threading.Barrier(2)

        def count() -> int:
            barrier.wait(timeout=10)  # both workers busy at once: two threads were started
            return torch.get_num_threads()

        return list(await asyncio.gather(executor.run(count), executor.run(count)))

    try:
        assert asyncio.run(both()) == [2, 2]
        assert in_fresh_thread(torch.get_num_threads) == 3
    finally:
        executor.shutdown()
    with pytest.raises(RuntimeError):
        asyncio.run(executor.run(torch.get_num_threads))


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="workers must be >= 1, got 0"):
        RailsExecutor(workers=0)
    with pytest.raises(ValueError, match="torch_threads must be >= 1, got 0"):
        RailsExecutor(torch_threads=0)


class RecordingPipeline:
    """Stands in for GuardrailPipeline: records where each check ran."""

    def __init__(self) -> None:
        self.ran_on: list[tuple[str, int]] = []

    def _record(self) -> None:
        self.ran_on.append((threading.current_thread().name, torch.get_num_threads()))

    def check_input(self, text: str) -> InputResult:
        self._record()
        return InputResult(None, (), (), text)

    def check_grounding(self, answer: str, chunks: list[str]) -> GroundingResult:
        self._record()
        return GroundingResult(GroundingReport(()), ())


def test_input_and_grounding_seams_run_on_the_rails_thread(process_default_3) -> None:
    pipeline = RecordingPipeline()
    executor = RailsExecutor()
    ctx = TurnContext("u1", None, None, None, use_documents=True)
    source = Source(document_id="d", chunk_id="1", filename="a.txt", score=1.0, text="alpha")

    async def turn() -> None:
        check = PipelineInputCheck(pipeline, executor=executor)  # type: ignore[arg-type]
        ground = PipelineGrounding(pipeline, executor)  # type: ignore[arg-type]
        decision = await check("hello", ctx)
        assert not decision.blocked and decision.text is None
        assert (await ground("alpha.", [source], ctx)).unsupported == ()

    try:
        asyncio.run(turn())
    finally:
        executor.shutdown()
    assert [n.startswith("hearth-rails") for n, _ in pipeline.ran_on] == [True, True]
    assert [c for _, c in pipeline.ran_on] == [1, 1]
