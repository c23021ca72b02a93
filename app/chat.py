"""ChatTurn: one chat turn from the user's text to the stored answer.

No Starlette here: a turn talks to the outside through a `FrameSink` (the generation hub in
the server, a list in tests). Order of work: store the messages and send `start` (so a client
never hears of a message that is not stored), input guardrails, retrieval, prompt, engine
stream through the output guard, periodic flushes of the partial answer, final status.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Protocol

from app.db import conversations as repo
from app.db import moderation
from app.db.session import Database
from app.engine_port import EngineLike, output_stream
from app.errors import AppError, NotFoundError
from app.history import history_turns, last_user_message
from app.hooks import GuardEvent, RetrievalResult, TurnContext, TurnHooks
from app.metrics import Metrics
from app.prompt import BuiltPrompt, PromptBuilder, PromptMessage, with_context
from app.protocol import (
    BlockedFrame,
    ChatParams,
    CitationsFrame,
    DeltaFrame,
    DoneFrame,
    ErrorFrame,
    FinishReason,
    InvalidFrameError,
    ServerFrame,
    StartFrame,
    Usage,
)
from app.sampling import to_sampling_params
from app.settings import Settings
from engine.sampling_params import SamplingParams

log = logging.getLogger("hearth.chat")

# Tokens kept free beyond the measured ones: BPE may merge differently across the joins of
# the sources, the question and the wrapper text around them.
_CONTEXT_MARGIN_TOKENS = 8


class FrameSink(Protocol):
    cancel_reason: str | None

    def send(self, frame: ServerFrame) -> None: ...


@dataclass(frozen=True, slots=True)
class TurnRequest:
    user_id: str
    conversation_id: str | None
    content: str | None  # None: regenerate the answer to the last user message
    params: ChatParams | None = None
    use_documents: bool = True
    replaces: str | None = None  # edit and resend: the last user message this one replaces


@dataclass(slots=True)
class TurnDeps:
    engine: EngineLike
    db: Database
    settings: Settings
    hooks: TurnHooks
    metrics: Metrics
    prompts: PromptBuilder


@dataclass(slots=True)
class _Prepared:
    conversation_id: str
    user_message_id: str
    message_id: str
    system_prompt: str | None
    text: str
    turns: list[list[PromptMessage]]


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
        self._length = 0
        self._last_flush = 0.0

    async def run(self) -> None:
        try:
            prep = await self._prepare()
        except AppError as exc:
            self.sink.send(ErrorFrame(code=exc.code, message=exc.message))
            return
        except Exception:
            log.exception("could not start a chat turn")
            self.sink.send(ErrorFrame(code="internal", message="the server could not start "
                                      "this answer; try again"))
            return
        self.sink.send(StartFrame(conversation_id=prep.conversation_id,
                                  user_message_id=prep.user_message_id,
                                  message_id=prep.message_id))
        await self._answer(prep)

    # ------------------------------------------------------------------------------ steps
    async def _prepare(self) -> _Prepared:
        req, settings = self.request, self.deps.settings
        async with self.deps.db.session() as s:
            if req.conversation_id is None:
                if req.content is None:
                    raise NotFoundError("regenerate needs a conversation")
                if req.replaces is not None:
                    raise InvalidFrameError("replaces needs a conversation_id")
                title = " ".join(req.content.split())[: settings.chat.title_chars]
                conv = await repo.create_conversation(
                    s, req.user_id, title, settings.chat.default_system_prompt
                )
                messages = []
            else:
                conv = await repo.get_conversation(s, req.user_id, req.conversation_id)
                messages = list(await repo.list_messages(s, conv.id))
            if req.content is None:
                user_msg = last_user_message(messages)
                if user_msg is None:
                    raise NotFoundError(f"conversation {conv.id!r} has no user message to answer")
            else:
                if req.replaces is not None:
                    last = last_user_message(messages)
                    if last is None or last.id != req.replaces:
                        raise InvalidFrameError(
                            f"message {req.replaces!r} is not the last user message of "
                            f"conversation {conv.id!r}; only that one can be edited"
                        )
                user_msg = await repo.add_message(
                    s, conversation_id=conv.id, user_id=req.user_id, role="user",
                    content=req.content, status="complete", parent_id=req.replaces,
                )
            answer = await repo.add_message(
                s, conversation_id=conv.id, user_id=req.user_id, role="assistant", content="",
                status="streaming", parent_id=user_msg.id,
            )
            await repo.touch_conversation(s, conv.id)
        return _Prepared(
            conversation_id=conv.id, user_message_id=user_msg.id, message_id=answer.id,
            system_prompt=conv.system_prompt, text=user_msg.content,
            turns=history_turns(messages, before_id=req.replaces or user_msg.id),
        )

    async def _answer(self, prep: _Prepared) -> None:
        hooks, mid = self.deps.hooks, prep.message_id
        ctx = TurnContext(self.request.user_id, prep.conversation_id, mid, prep.system_prompt,
                          self.request.use_documents)
        dropped = 0
        try:
            decision = await hooks.input_check(prep.text, ctx)
            await self._record(decision.events, prep)
            if decision.blocked:
                await self._update(prep.user_message_id, status="blocked")
                self.sink.send(BlockedFrame(message_id=mid, stage="input", rail=decision.rail,
                                            reason=decision.reason))
                await self._finish(prep, "blocked", "blocked")
                return
            text = decision.text or prep.text
            if text != prep.text:
                # Store what the model saw, so later turns render this turn identically.
                await self._update(prep.user_message_id, content=text)
            system = PromptMessage("system", prep.system_prompt) if prep.system_prompt else None
            params = to_sampling_params(self.request.params, self.deps.settings.chat)
            retrieved, built = await self._retrieve(text, ctx, system, prep.turns,
                                                    params.max_tokens)
            if retrieved.sources:
                self.sink.send(CitationsFrame(message_id=mid, sources=list(retrieved.sources)))
                await self._update(mid, citations=[s.model_dump() for s in retrieved.sources])
            await self._update(prep.user_message_id, context=retrieved.context or None)
            dropped = built.dropped_turns
            params.max_tokens = built.max_tokens
            self.usage = Usage(prompt_tokens=len(built.token_ids), completion_tokens=0,
                               cached_tokens=0)
            reason = await self._stream(prep, ctx, built.token_ids, params)
            status = "blocked" if reason == "blocked" else "complete"
            await self._finish(prep, status, reason, dropped)
        except asyncio.CancelledError:
            cancelled = self.sink.cancel_reason == "cancelled"
            await self._finish(prep, "interrupted", "cancelled" if cancelled else "error", dropped)
        except AppError as exc:
            self.sink.send(ErrorFrame(code=exc.code, message=exc.message, message_id=mid))
            await self._finish(prep, "error", "error", dropped)
        except Exception:
            log.exception("chat turn %s failed", mid)
            await self._finish(prep, "error", "error", dropped)

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

    async def _stream(self, prep: _Prepared, ctx: TurnContext, prompt: list[int],
                      params: SamplingParams) -> FinishReason:
        engine, metrics, mid = self.deps.engine, self.deps.metrics, prep.message_id
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
                    await self._record(decision.events, prep)
                    await self._release(mid, decision.release)
                    if decision.blocked:
                        self._send_blocked(mid, decision.rail, decision.reason)
                        return "blocked"
                if out.finished:
                    finish = "length" if out.finish_reason == "length" else "stop"
        decision = await guard.finish()
        await self._record(decision.events, prep)
        await self._release(mid, decision.release)
        if decision.blocked:
            self._send_blocked(mid, decision.rail, decision.reason)
            return "blocked"
        return finish

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
            await self._update(mid, content="".join(self.released),
                               stream_offsets=list(self.offsets))

    async def _finish(self, prep: _Prepared, status: str, reason: FinishReason,
                      dropped: int = 0) -> None:
        """Store the final state, then send the one `done` (shielded from a second cancel)."""
        values = dict(
            status=status, finish_reason=reason, content="".join(self.released),
            stream_offsets=list(self.offsets), token_ids=list(self.token_ids) or None,
            prompt_tokens=self.usage.prompt_tokens,
            completion_tokens=self.usage.completion_tokens,
            cached_tokens=self.usage.cached_tokens,
        )

        async def store() -> None:
            async with self.deps.db.session() as s:
                await repo.update_message(s, prep.message_id, **values)
                await repo.touch_conversation(s, prep.conversation_id)

        stored = asyncio.ensure_future(store())
        try:
            await asyncio.shield(stored)
        except asyncio.CancelledError:
            # Cancelled again while storing (e.g. shutdown): the store itself goes on.
            await asyncio.wait([stored])
        except Exception:
            log.exception("could not store the end of message %s", prep.message_id)
        self.deps.metrics.e2e_request_latency.observe(time.monotonic() - self.accepted)
        self.deps.metrics.requests.labels("ws", reason).inc()
        self.sink.send(DoneFrame(message_id=prep.message_id, finish_reason=reason,
                                 usage=self.usage, dropped_turns=dropped))

    async def _update(self, message_id: str, **values: object) -> None:
        async with self.deps.db.session() as s:
            await repo.update_message(s, message_id, **values)

    async def _record(self, events: tuple[GuardEvent, ...], prep: _Prepared) -> None:
        if not events:
            return
        async with self.deps.db.session() as s:
            for e in events:
                await moderation.add_event(
                    s, user_id=self.request.user_id, conversation_id=prep.conversation_id,
                    message_id=prep.message_id, stage=e.stage, rail=e.rail, action=e.action,
                    reason=e.reason, excerpt=e.excerpt,
                )
        for e in events:
            self.deps.metrics.guardrail_events.labels(e.stage, e.rail, e.action).inc()
