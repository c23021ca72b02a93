"""OpenAI-compatible /v1/models and /v1/chat/completions (JSON and SSE streaming)."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from app.auth import AuthUser
from app.db import conversations as repo
from app.db import moderation
from app.db.base import new_id
from app.engine_port import output_stream
from app.errors import ContextLengthError, InvalidRequestError
from app.hooks import GuardEvent, TurnContext
from app.http import json_response, read_json, require_user, state_of
from app.prompt import PromptMessage
from app.sampling import build_sampling_params
from app.state import AppState


class TextPart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: Literal["text"]
    text: str


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: Literal["system", "developer", "user", "assistant"]
    content: str | list[TextPart] | None = None

    @property
    def text(self) -> str:
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(part.text for part in self.content)


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")
    include_usage: bool = False


class CompletionRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    model: str | None = None
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: StreamOptions | None = None
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_tokens: int | None = Field(None, ge=1)
    max_completion_tokens: int | None = Field(None, ge=1)
    stop: str | list[str] | None = None
    seed: int | None = None
    presence_penalty: float | None = Field(None, ge=-2, le=2)
    frequency_penalty: float | None = Field(None, ge=-2, le=2)
    n: int = Field(1, ge=1, le=1)


async def list_models(request: Request) -> Response:
    await require_user(request)
    engine = state_of(request).engine
    return json_response({"object": "list", "data": [
        {"id": engine.model_name, "object": "model", "created": 0, "owned_by": "hearth"}
    ]})


class _Completion:
    """One /v1 completion: guardrails, prompt, engine, output guard; optionally stored."""

    def __init__(self, state: AppState, user: AuthUser, body: CompletionRequest) -> None:
        self.state, self.user, self.body = state, user, body
        self.id = "chatcmpl-" + new_id()
        self.created = int(time.time())
        self.text_parts: list[str] = []
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0}
        self.finish_reason = "stop"
        self.accepted = time.monotonic()
        limit = state.settings.limits.max_message_chars
        self.messages = [
            PromptMessage("system" if m.role == "developer" else m.role, m.text)
            for m in body.messages
        ]
        for m in self.messages:
            if len(m.content) > limit:
                raise InvalidRequestError(
                    f"a message has {len(m.content)} characters; the limit is {limit}"
                )
        # The system messages are this request's system prompt (the leak rail guards it).
        system = "\n\n".join(m.content for m in self.messages if m.role == "system") or None
        self.ctx = TurnContext(user.id, None, None, system, use_documents=False)
        self.input_blocked = False
        self._events: list[GuardEvent] = []  # held for the stored exchange, if stored
        self._prepared: tuple[list[int], Any] | None = None

    def prepare(self) -> tuple[list[int], Any]:
        if self._prepared is None:
            self._prepared = self._prepare()
        return self._prepared

    def _prepare(self) -> tuple[list[int], Any]:
        chat = self.state.settings.chat
        prompt = self.state.prompts.render_ids(self.messages)
        room = self.state.engine.max_model_len - len(prompt)
        asked = self.body.max_completion_tokens or self.body.max_tokens
        if asked is not None and asked > chat.max_tokens_limit:
            raise InvalidRequestError(
                f"max_tokens must be at most {chat.max_tokens_limit}, got {asked}"
            )
        max_tokens = asked if asked is not None else min(chat.default_max_tokens, room)
        if room < 1 or max_tokens > room:
            raise ContextLengthError(
                f"prompt of {len(prompt)} tokens plus max_tokens={max_tokens} exceeds the "
                f"model's context of {self.state.engine.max_model_len} tokens"
            )
        stop = [self.body.stop] if isinstance(self.body.stop, str) else list(self.body.stop or [])
        params = build_sampling_params(
            max_tokens=max_tokens,
            temperature=self.body.temperature if self.body.temperature is not None
            else chat.default_temperature,
            top_p=self.body.top_p if self.body.top_p is not None else 1.0,
            seed=self.body.seed, stop=stop,
            presence_penalty=self.body.presence_penalty or 0.0,
            frequency_penalty=self.body.frequency_penalty or 0.0,
        )
        self.usage["prompt_tokens"] = len(prompt)
        return prompt, params

    async def check_input(self) -> bool:
        """The input rails on the last user message (the new one; earlier ones were checked
        when they were new). A redacted copy replaces it in the prompt and in storage."""
        last = max((i for i, m in enumerate(self.messages) if m.role == "user"), default=None)
        if last is None:
            return False
        decision = await self.state.hooks.input_check(self.messages[last].content, self.ctx)
        if decision.text is not None:
            self.messages[last] = PromptMessage("user", decision.text)
        await self._record(decision.events)
        self.input_blocked = decision.blocked
        return decision.blocked

    async def stream(self) -> AsyncIterator[str]:
        """Released text pieces; sets finish_reason and usage."""
        prompt, params = self.prepare()
        guard = self.state.hooks.output_guard(self.ctx)
        metrics = self.state.metrics
        submitted = time.monotonic()
        metrics.request_queue_time.observe(submitted - self.accepted)
        first = True
        async with self.state.hub.track(self.user.id), output_stream(
            self.state.engine, prompt, params, self.id
        ) as outputs:
            async for out in outputs:
                if out.token_ids and first:
                    metrics.time_to_first_token.observe(time.monotonic() - submitted)
                    first = False
                self.usage = {"prompt_tokens": out.num_prompt_tokens,
                              "completion_tokens": out.num_output_tokens,
                              "cached_tokens": out.num_cached_tokens}
                if out.text:
                    decision = await guard.feed(out.text)
                    await self._record(decision.events)
                    if decision.release:
                        self.text_parts.append(decision.release)
                        yield decision.release
                    if decision.blocked:
                        self.finish_reason = "content_filter"
                        return
                if out.finished:
                    self.finish_reason = "length" if out.finish_reason == "length" else "stop"
            decision = await guard.finish()
            await self._record(decision.events)
            if decision.release:
                self.text_parts.append(decision.release)
                yield decision.release
            if decision.blocked:
                self.finish_reason = "content_filter"

    async def finish(self) -> None:
        metrics = self.state.metrics
        metrics.e2e_request_latency.observe(time.monotonic() - self.accepted)
        metrics.requests.labels("v1", self.finish_reason).inc()
        if not self.state.settings.openai.store_conversations:
            return
        blocked = self.finish_reason == "content_filter"
        last_user = max((i for i, m in enumerate(self.messages) if m.role == "user"), default=-1)
        events = list(self._events)
        async with self.state.db.session() as s:
            first_user = next((m.content for m in self.messages if m.role == "user"), "")
            title = " ".join(first_user.split())[: self.state.settings.chat.title_chars]
            conv = await repo.create_conversation(s, self.user.id, title, self.ctx.system_prompt)
            parent = None
            for i, m in enumerate(self.messages):
                if m.role == "system":
                    continue
                status = "blocked" if self.input_blocked and i == last_user else "complete"
                row = await repo.add_message(s, conversation_id=conv.id, user_id=self.user.id,
                                             role=m.role, content=m.content, status=status)
                parent = row.id if m.role == "user" else parent
            answer = await repo.add_message(
                s, conversation_id=conv.id, user_id=self.user.id, role="assistant",
                content=self.content, parent_id=parent,
                status="blocked" if blocked else "complete",
                finish_reason="blocked" if blocked else self.finish_reason,
                prompt_tokens=self.usage["prompt_tokens"],
                completion_tokens=self.usage["completion_tokens"],
                cached_tokens=self.usage["cached_tokens"],
            )
            await moderation.add_events(s, events, user_id=self.user.id,
                                        conversation_id=conv.id, message_id=answer.id)
        self._count(events)

    @property
    def content(self) -> str:
        if self.finish_reason == "content_filter":
            return self.state.settings.guardrails.refusal_text
        return "".join(self.text_parts)

    def usage_json(self) -> dict[str, Any]:
        u = self.usage
        return {
            "prompt_tokens": u["prompt_tokens"],
            "completion_tokens": u["completion_tokens"],
            "total_tokens": u["prompt_tokens"] + u["completion_tokens"],
            "prompt_tokens_details": {"cached_tokens": u["cached_tokens"]},
        }

    def chunk(self, delta: dict[str, Any], finish_reason: str | None) -> str:
        data = {
            "id": self.id, "object": "chat.completion.chunk", "created": self.created,
            "model": self.state.engine.model_name,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        }
        return f"data: {json.dumps(data)}\n\n"

    async def _record(self, events: tuple[GuardEvent, ...]) -> None:
        """Events of a stored exchange are written with its messages (`finish`); without
        storage there is no message, and each is written at once."""
        if not events:
            return
        if self.state.settings.openai.store_conversations:
            self._events.extend(events)
            return
        async with self.state.db.session() as s:
            await moderation.add_events(s, events, user_id=self.user.id)
        self._count(events)

    def _count(self, events: list[GuardEvent] | tuple[GuardEvent, ...]) -> None:
        for e in events:
            self.state.metrics.guardrail_events.labels(e.stage, e.rail, e.action).inc()


async def chat_completions(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    body = await read_json(request, CompletionRequest)
    completion = _Completion(state, user, body)
    state.admission.admit(user.id)
    blocked = await completion.check_input()
    if blocked:
        completion.finish_reason = "content_filter"
    else:
        completion.prepare()  # typed errors (context length, params) as a status, not mid-stream
    if body.stream:
        return StreamingResponse(_sse(completion, blocked), media_type="text/event-stream")
    if not blocked:
        async for _ in completion.stream():
            pass
    await completion.finish()
    return json_response({
        "id": completion.id, "object": "chat.completion", "created": completion.created,
        "model": state.engine.model_name,
        "choices": [{
            "index": 0, "finish_reason": completion.finish_reason,
            "message": {"role": "assistant", "content": completion.content},
        }],
        "usage": completion.usage_json(),
    })


async def _sse(completion: _Completion, blocked: bool) -> AsyncIterator[str]:
    yield completion.chunk({"role": "assistant", "content": ""}, None)
    if not blocked:
        async for text in completion.stream():
            yield completion.chunk({"content": text}, None)
    if completion.finish_reason == "content_filter":
        refusal = completion.state.settings.guardrails.refusal_text
        yield completion.chunk({"content": refusal}, "content_filter")
    else:
        yield completion.chunk({}, completion.finish_reason)
    await completion.finish()
    options = completion.body.stream_options
    if options is not None and options.include_usage:
        data = {
            "id": completion.id, "object": "chat.completion.chunk",
            "created": completion.created, "model": completion.state.engine.model_name,
            "choices": [], "usage": completion.usage_json(),
        }
        yield f"data: {json.dumps(data)}\n\n"
    yield "data: [DONE]\n\n"


routes = [
    Route("/v1/models", list_models, methods=["GET"]),
    Route("/v1/chat/completions", chat_completions, methods=["POST"]),
]
