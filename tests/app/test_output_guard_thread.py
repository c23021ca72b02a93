"""A model among the output rails runs on the rails' thread, never on the event loop."""

from __future__ import annotations

import asyncio
import threading

import numpy as np

from app.guard.executor import RailsExecutor
from app.guard.seams import PipelineOutputGuards
from app.hooks import TurnContext
from guardrails import GuardrailPipeline
from guardrails.models.head import LogisticHead
from guardrails.rails.harmful import HarmfulContentRail
from guardrails.rails.output_classifier import HarmfulOutputRail


def test_window_checks_go_to_the_rails_thread_and_collecting_stays_on_the_loop() -> None:
    threads: list[str] = []

    def embed(texts: list[str]) -> np.ndarray:
        threads.append(threading.current_thread().name)
        return np.array([[float("bomb" in t)] for t in texts], dtype=np.float32)

    head = LogisticHead(np.array([10.0], dtype=np.float32), -5.0, 0.5, {})
    rail = HarmfulOutputRail(embed, head, 0.5)
    pipeline = GuardrailPipeline([], [rail], chunk_size=10, context_size=5)
    executor = RailsExecutor()
    ctx = TurnContext("u", None, None, None, use_documents=False)

    async def run() -> list[tuple[str, bool]]:
        guard = PipelineOutputGuards(pipeline, executor)(ctx)
        steps = []
        for delta in ("Hello", " there", ", a cake", " recipe", ", then a bomb."):
            decision = await guard.feed(delta)
            steps.append((decision.release, decision.blocked))
            if decision.blocked:
                break
        return steps

    try:
        steps = asyncio.run(run())
    finally:
        executor.shutdown()
    # Windows of 10 chars: the window holding "bomb" blocks before it is released.
    assert steps == [("", False), ("Hello ther", False), ("", False), ("e, a cake ", False),
                     ("recipe, th", True)]
    # Four windows were checked ("Hello ther", "e, a cake ", "recipe, th", the bomb's), every
    # one on the rails' thread; the two deltas that completed none never left the loop.
    assert len(threads) == 4 and all(name.startswith("hearth-rails") for name in threads)


def test_rules_only_output_rails_stay_on_the_loop() -> None:
    pipeline = GuardrailPipeline([], [HarmfulContentRail()])
    executor = RailsExecutor()
    try:
        assert PipelineOutputGuards(pipeline, executor).executor is None
    finally:
        executor.shutdown()
