"""A `GuardrailPipeline` behind the app's seams (app/hooks.py): the input check, the output
guard of each streamed answer and the grounding check, speaking the app's types.

`check_input` and `check_grounding` run models, so they go to worker threads (the
RailsExecutor's, each with one torch thread, when one is given); the streaming checker runs on
the event loop once per delta, except that with a model among the output rails (the harmful
answer classifier) each window check goes to the rails' thread too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Literal, TypeVar, cast

from app.guard.executor import RailsExecutor
from app.hooks import (
    GroundingDecision,
    GuardEvent,
    InputDecision,
    OutputDecision,
    OutputGuard,
    TurnContext,
)
from app.metrics import Metrics
from app.protocol import Source, UnsupportedSentence
from guardrails import GuardrailPipeline, ModerationEvent, OutputStep, StreamingOutputChecker

T = TypeVar("T")


async def run_check(executor: RailsExecutor | None, fn: Callable[..., T], *args: object) -> T:
    """Runs a sync check off the event loop: on the rails' threads, else asyncio's pool."""
    if executor is not None:
        return await executor.run(fn, *args)
    return await asyncio.to_thread(fn, *args)


def guard_event(event: ModerationEvent) -> GuardEvent:
    return GuardEvent(
        stage=cast(Literal["input", "output"], event.stage.value),
        rail=event.rail,
        action=cast(Literal["block", "redact", "flag"], event.action.value),
        reason=event.reason,
        excerpt=event.excerpt,
    )


class PipelineInputCheck:
    """The input rails; a redacted copy of the text (input "pii" rail) comes back as
    `InputDecision.text`, which is what gets stored and prompted."""

    def __init__(
        self,
        pipeline: GuardrailPipeline,
        metrics: Metrics | None = None,
        executor: RailsExecutor | None = None,
    ) -> None:
        self.pipeline = pipeline
        self.metrics = metrics
        self.executor = executor

    async def __call__(self, text: str, ctx: TurnContext) -> InputDecision:
        started = time.perf_counter()
        result = await run_check(self.executor, self.pipeline.check_input, text)
        if self.metrics is not None:
            self.metrics.guardrail_input_seconds.observe(time.perf_counter() - started)
        events = tuple(guard_event(e) for e in result.events)
        stored = result.stored_text if result.stored_text != text else None
        if result.blocked is None:
            return InputDecision(text=stored, events=events)
        return InputDecision(blocked=True, rail=result.blocked.rail,
                             reason=result.blocked.reason, text=stored, events=events)


class PipelineOutputGuard:
    """One answer's output rails: released text is checked (and PII-redacted) text. With an
    `executor` (the output rails run a model), a delta that completes a window, and the final
    window, are checked on the rails' thread; other deltas only collect, on the event loop."""

    def __init__(
        self, checker: StreamingOutputChecker, executor: RailsExecutor | None = None
    ) -> None:
        self.checker = checker
        self.executor = executor

    async def feed(self, text: str) -> OutputDecision:
        if self.executor is not None and self.checker.may_check(text):
            return _decision(await self.executor.run(self.checker.feed, text))
        return _decision(self.checker.feed(text))

    async def finish(self) -> OutputDecision:
        if self.executor is not None:
            return _decision(await self.executor.run(self.checker.finish))
        return _decision(self.checker.finish())


class PipelineOutputGuards:
    """The `output_guard` factory: the conversation's system prompt feeds the leak rail."""

    def __init__(self, pipeline: GuardrailPipeline, executor: RailsExecutor | None = None) -> None:
        self.pipeline = pipeline
        self.executor = executor if pipeline.output_runs_models else None

    def __call__(self, ctx: TurnContext) -> OutputGuard:
        checker = self.pipeline.stream_output(ctx.system_prompt or "")
        return PipelineOutputGuard(checker, self.executor)


class PipelineGrounding:
    """Flags the sentences of a finished answer that the turn's sources do not support."""

    def __init__(
        self, pipeline: GuardrailPipeline, executor: RailsExecutor | None = None
    ) -> None:
        self.pipeline = pipeline
        self.executor = executor

    async def __call__(
        self, answer: str, sources: Sequence[Source], ctx: TurnContext
    ) -> GroundingDecision:
        chunks = [s.text for s in sources]
        result = await run_check(self.executor, self.pipeline.check_grounding, answer, chunks)
        unsupported = tuple(
            UnsupportedSentence(
                start=s.start, end=s.end, text=s.text,
                reason=f"not supported by the sources (word overlap {s.lexical:.0%}, "
                f"similarity {s.semantic:.2f})",
            )
            for s in result.report.unsupported
        )
        return GroundingDecision(unsupported, tuple(guard_event(e) for e in result.events))


def _decision(step: OutputStep) -> OutputDecision:
    events = tuple(guard_event(e) for e in step.events)
    if step.blocked is None:
        return OutputDecision(release=step.text, events=events)
    return OutputDecision(release=step.text, blocked=True, rail=step.blocked.rail,
                          reason=step.blocked.reason, events=events)
