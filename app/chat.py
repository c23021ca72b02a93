"""ChatTurn: one chat turn from the user's text to the stored answer.

No Starlette here: a turn talks to the outside through a `FrameSink` (the generation hub in
the server, a list in tests). Order of work: input guardrails (app/turn_start.py: nothing is
stored before they have spoken), then the messages and their input events in one
transaction and `start` (so a client never hears of a message that is not stored),
retrieval, prompt, engine stream through the output guard, periodic flushes of the partial
answer, the grounding check when sources were used, final status.

Guardrail events concern the answer; each is written in the same transaction as the answer
text it concerns (a flush, or the final store), and counted in the metrics once committed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.db import conversations as repo
from app.db import moderation
from app.db.session import Database
from app.engine_port import EngineLike, output_stream
from app.errors import AppError
from app.hooks import GuardEvent, OutputDecision, RetrievalResult, TurnContext, TurnHooks
from app.metrics import Metrics
from app.prompt import BuiltPrompt, PromptBuilder, PromptMessage, with_context
from app.protocol import (
    BlockedFrame,
    CitationsFrame,
    DeltaFrame,
    DoneFrame,
    ErrorFrame,
    FinishReason,
    ServerFrame,
    Source,
    StartFrame,
    UnsupportedSentence,
    Usage,
)
from app.sampling import to_sampling_params
from app.settings import Settings
from app.turn_start import TurnPlan, TurnRequest, plan_turn, store_turn
from engine.sampling_params import SamplingParams

log = logging.getLogger("hearth.chat")

# Tokens kept free beyond the measured ones: BPE may merge differently across the joins of
# the sources, the question and the wrapper text around them.
_CONTEXT_MARGIN_TOKENS = 8


class FrameSink(Protocol):
    cancel_reason: str | None

    def send(self, frame: ServerFrame) -> None: ...


@dataclass(slots=True)
class TurnDeps:
    engine: EngineLike
    db: Database
    settings: Settings
    hooks: TurnHooks
    metrics: Metrics
    prompts: PromptBuilder


class ChatTurn:
    def __init__(self, deps: TurnDeps, request: TurnRequest, sink: FrameSink) -> None:
        self.deps = deps
        self.request = request
        self.sink = sink
        self.accepted = time.monotonic()
        self.released: list[str] = []
        self.offsets: list[int] = []
        self.token_ids: list[int] = []
        self.usage = Usage(prompt_tokens=0, completion_tokens=0, cached_tokens=0)
        self.unsupported: tuple[UnsupportedSentence, ...] = ()
        self._events: list[GuardEvent] = []  # for the answer, not yet written
        self.conversation_id: str | None = None  # known once the turn is planned
        self._length = 0
        self._last_flush = 0.0

    async def run(self) -> None:
        req, deps = self.request, self.deps
        try:
            plan = await plan_turn(deps.db, deps.settings.chat, req)
            self.conversation_id = plan.conversation_id
            ctx = TurnContext(req.user_id, plan.conversation_id, plan.message_id,
                              plan.system_prompt, req.use_documents)
            decision = await deps.hooks.input_check(plan.text, ctx)
            await store_turn(deps.db, deps.settings.chat, req, plan, decision)
        except AppError as exc:
            self.sink.send(ErrorFrame(code=exc.code, message=exc.message))
            return
        except Exception:
            log.exception("could not start a chat turn")
            self.sink.send(ErrorFrame(code="internal", message="the server could not start "
                                      "this answer; try again"))
            return
        self._count(decision.events)
        self.sink.send(StartFrame(conversation_id=plan.conversation_id,
                                  user_message_id=plan.user_message_id,
                                  message_id=plan.message_id))
        if decision.blocked:
            self.sink.send(BlockedFrame(message_id=plan.message_id, stage="input",
                                        rail=decision.rail, reason=decision.reason))
            await self._finish(plan, "blocked", "blocked")
            return
        await self._answer(plan, ctx, decision.text or plan.text)

    # ------------------------------------------------------------------------------ steps
    async def _answer(self, plan: TurnPlan, ctx: TurnContext, text: str) -> None:
        """`text`: the user's text as stored (redacted, if the input rails redact)."""
        mid = plan.message_id
        dropped = 0
        try:
            system = PromptMessage("system", plan.system_prompt) if plan.system_prompt else None
            params = to_sampling_params(self.request.params, self.deps.settings.chat)
            retrieved, built = await self._retrieve(text, ctx, system, plan.turns,
                                                    params.max_tokens)
            if retrieved.sources:
                self.sink.send(CitationsFrame(message_id=mid, sources=list(retrieved.sources)))
                await self._update(mid, citations=[s.model_dump() for s in retrieved.sources])
            await self._update(plan.user_message_id, context=retrieved.context or None)
            dropped = built.dropped_turns
            params.max_tokens = built.max_tokens
            self.usage = Usage(prompt_tokens=len(built.token_ids), completion_tokens=0,
                               cached_tokens=0)
            reason = await self._stream(plan, ctx, built.token_ids, params)
            if reason != "blocked" and retrieved.sources:
                await self._ground(ctx, retrieved.sources)
            status = "blocked" if reason == "blocked" else "complete"
            await self._finish(plan, status, reason, dropped)
        except asyncio.CancelledError:
            cancelled = self.sink.cancel_reason == "cancelled"
            await self._finish(plan, "interrupted", "cancelled" if cancelled else "error", dropped)
        except AppError as exc:
            self.sink.send(ErrorFrame(code=exc.code, message=exc.message, message_id=mid))
            await self._finish(plan, "error", "error", dropped)
        except Exception:
            log.exception("chat turn %s failed", mid)
            await self._finish(plan, "error", "error", dropped)

    async def _retrieve(
        self, text: str, ctx: TurnContext, system: PromptMessage | None,
        turns: list[list[PromptMessage]], max_tokens: int,
    ) -> tuple[RetrievalResult, BuiltPrompt]:
        """Sources for the turn and the prompt with them. Sources get only the room the
        prompt without them leaves: fewer sources rather than dropped history or a shorter
        answer. The context sits in the user's turn and is stored with it, so later turns
        render this one byte-identically (prefix cache)."""
        prompts = self.deps.prompts
        plain = prompts.build(system, [*turns, [PromptMessage("user", text)]], max_tokens)
        wrapper = prompts.count_tokens(with_context(".", ".")) + _CONTEXT_MARGIN_TOKENS
        room = prompts.max_model_len - plain.max_tokens - len(plain.token_ids) - wrapper
        retrieved = await self.deps.hooks.retrieve(
            text, dataclasses.replace(ctx, context_budget=max(room, 0)))
        if not retrieved.context:
            return retrieved, plain
        current = [PromptMessage("user", with_context(text, retrieved.context))]
        built = prompts.build(system, [*turns, current], max_tokens)
        if built.dropped_turns > plain.dropped_turns or built.max_tokens < plain.max_tokens:
            return RetrievalResult(), plain  # the estimate was off: history wins
        return retrieved, built

    async def _stream(self, plan: TurnPlan, ctx: TurnContext, prompt: list[int],
                      params: SamplingParams) -> FinishReason:
        """Engine text goes through the output guard; only what it releases becomes deltas.
        A block returns at once, which closes the engine stream (aborting the request)."""
        engine, metrics, mid = self.deps.engine, self.deps.metrics, plan.message_id
        guard = self.deps.hooks.output_guard(ctx)
        submitted = time.monotonic()
        metrics.request_queue_time.observe(submitted - self.accepted)
        last_token_at: float | None = None
        finish: FinishReason = "stop"
        async with output_stream(engine, prompt, params, mid) as outputs:
            async for out in outputs:
                now = time.monotonic()
                if out.token_ids:
                    if last_token_at is None:
                        metrics.time_to_first_token.observe(now - submitted)
                    else:
                        gap = (now - last_token_at) / len(out.token_ids)
                        for _ in out.token_ids:
                            metrics.inter_token_latency.observe(gap)
                    last_token_at = now
                self.token_ids.extend(out.token_ids)
                self.usage = Usage(prompt_tokens=out.num_prompt_tokens,
                                   completion_tokens=out.num_output_tokens,
                                   cached_tokens=out.num_cached_tokens)
                if out.text:
                    decision = await guard.feed(out.text)
                    if await self._apply(mid, decision):
                        return "blocked"
                if out.finished:
                    finish = "length" if out.finish_reason == "length" else "stop"
        if await self._apply(mid, await guard.finish()):
            return "blocked"
        return finish

    async def _apply(self, mid: str, decision: OutputDecision) -> bool:
        """Send what the guard released; True when it blocked. A redaction's event is
        written with the first store of the text it concerns; a block's with the final,
        `blocked` store of the answer."""
        if decision.blocked:
            await self._release(mid, decision.release)
            self._events.extend(decision.events)
            self._send_blocked(mid, decision.rail, decision.reason)
            return True
        self._events.extend(decision.events)
        await self._release(mid, decision.release)
        return False

    async def _ground(self, ctx: TurnContext, sources: tuple[Source, ...]) -> None:
        """Flag the answer's sentences that its sources do not support. A failing check
        costs the flags, never the answer."""
        try:
            decision = await self.deps.hooks.ground("".join(self.released), sources, ctx)
        except Exception:
            log.exception("grounding check of message %s failed", ctx.message_id)
            return
        self.unsupported = decision.unsupported
        self._events.extend(decision.events)

    # ------------------------------------------------------------------------------ output
    def _send_blocked(self, mid: str, rail: str, reason: str) -> None:
        self.sink.send(BlockedFrame(message_id=mid, stage="output", rail=rail, reason=reason))

    async def _release(self, mid: str, text: str) -> None:
        if not text:
            return
        self.sink.send(DeltaFrame(message_id=mid, index=len(self.released), text=text))
        self.released.append(text)
        self._length += len(text)
        self.offsets.append(self._length)
        now = time.monotonic()
        if now - self._last_flush >= self.deps.settings.chat.flush_interval_seconds:
            self._last_flush = now
            await self._write_answer(mid, content="".join(self.released),
                                     stream_offsets=list(self.offsets))

    async def _finish(self, plan: TurnPlan, status: str, reason: FinishReason,
                      dropped: int = 0) -> None:
        """Store the final state, then send the one `done` (shielded from a second cancel)."""
        unsupported = list(self.unsupported)
        values = dict(
            status=status, finish_reason=reason, content="".join(self.released),
            stream_offsets=list(self.offsets), token_ids=list(self.token_ids) or None,
            prompt_tokens=self.usage.prompt_tokens,
            completion_tokens=self.usage.completion_tokens,
            cached_tokens=self.usage.cached_tokens,
            unsupported=[u.model_dump() for u in unsupported] or None,
        )
        stored = asyncio.ensure_future(self._write_answer(plan.message_id, touch=True, **values))
        try:
            await asyncio.shield(stored)
        except asyncio.CancelledError:
            # Cancelled again while storing (e.g. shutdown): the store itself goes on.
            await asyncio.wait([stored])
        except Exception:
            log.exception("could not store the end of message %s", plan.message_id)
        self.deps.metrics.e2e_request_latency.observe(time.monotonic() - self.accepted)
        self.deps.metrics.requests.labels("ws", reason).inc()
        self.sink.send(DoneFrame(message_id=plan.message_id, finish_reason=reason,
                                 usage=self.usage, dropped_turns=dropped,
                                 unsupported=unsupported))

    async def _update(self, message_id: str, **values: object) -> None:
        async with self.deps.db.session() as s:
            await repo.update_message(s, message_id, **values)

    async def _write_answer(self, message_id: str, touch: bool = False,
                            **values: object) -> None:
        """Update the answer and write the guardrail events held for it, in one transaction
        (`touch`: also mark the conversation updated)."""
        events = list(self._events)
        async with self.deps.db.session() as s:
            await repo.update_message(s, message_id, **values)
            await moderation.add_events(s, events, user_id=self.request.user_id,
                                        conversation_id=self.conversation_id,
                                        message_id=message_id)
            if touch and self.conversation_id is not None:
                await repo.touch_conversation(s, self.conversation_id)
        del self._events[: len(events)]
        self._count(events)

    def _count(self, events: Sequence[GuardEvent]) -> None:
        for e in events:
            self.deps.metrics.guardrail_events.labels(e.stage, e.rail, e.action).inc()
