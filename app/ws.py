"""WebSocket /ws: authenticate, then read frames and route them (PROTOCOL.md).

Frames going out are queued and written by one sender task, so generations (which push
from their own tasks) never write to the socket concurrently.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.auth import AuthUser
from app.chat import ChatTurn, TurnRequest
from app.db import conversations as repo
from app.db.models import Message
from app.errors import AppError, NotFoundError
from app.generations import Generation
from app.http import authenticate, state_of
from app.protocol import (
    CancelFrame,
    ChatFrame,
    DeltaFrame,
    DoneFrame,
    ErrorFrame,
    FinishReason,
    InvalidFrameError,
    PingFrame,
    PongFrame,
    RegenerateFrame,
    ResumeFrame,
    ServerFrame,
    UnsupportedSentence,
    Usage,
    frame_json,
    parse_client_frame,
)
from app.sampling import to_sampling_params
from app.state import AppState
from app.textcheck import is_id

log = logging.getLogger("hearth.ws")

CLOSE_POLICY, CLOSE_UNSUPPORTED, CLOSE_TOO_BIG, CLOSE_INTERNAL = 1008, 1003, 1009, 1011
_FINISH_REASONS = ("stop", "length", "cancelled", "blocked", "error")
_DONE_FROM_STATUS = {"complete": "stop", "blocked": "blocked", "interrupted": "error",
                     "error": "error", "streaming": "error"}


def origin_allowed(websocket: WebSocket, allowed: list[str]) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser; the token decides
    if origin.rstrip("/") in (o.rstrip("/") for o in allowed):
        return True
    parts = urlsplit(origin)
    host = websocket.headers.get("host", "")
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


async def websocket_endpoint(websocket: WebSocket) -> None:
    state = state_of(websocket)
    if not origin_allowed(websocket, state.settings.server.allowed_origins):
        await websocket.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    user = await authenticate(websocket, allow_query=True)
    await websocket.accept()
    if user is None:
        await websocket.send_json({"type": "error", "code": "unauthorized",
                                   "message": "a valid token is required"})
        await websocket.close(code=CLOSE_POLICY, reason="unauthorized")
        return
    await Connection(websocket, state, user).serve()


class Connection:
    def __init__(self, websocket: WebSocket, state: AppState, user: AuthUser) -> None:
        self.ws = websocket
        self.state = state
        self.user = user
        self.outbox: asyncio.Queue[dict[str, Any] | int] = asyncio.Queue()
        self.followed: set[Generation] = set()

    def push(self, frame: ServerFrame) -> None:
        self.outbox.put_nowait(frame_json(frame))

    def _error(self, exc: AppError, message_id: str | None = None) -> None:
        # Over the socket every validation failure is an `invalid_frame`.
        code = "invalid_frame" if exc.code == "invalid_request" else exc.code
        self.push(ErrorFrame(code=code, message=exc.message, message_id=message_id))

    async def serve(self) -> None:
        sender = asyncio.create_task(self._send_loop())
        try:
            close_code = await self._receive_loop()
            if close_code is not None:
                self.outbox.put_nowait(close_code)
                await sender
        except WebSocketDisconnect:
            pass
        finally:
            for generation in self.followed:
                generation.unsubscribe(self.push)
            if not sender.done():
                sender.cancel()

    async def _send_loop(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if isinstance(item, int):
                    await self.ws.close(code=item)
                    return
                await self.ws.send_json(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the peer is gone; the receive loop sees it too

    async def _receive_loop(self) -> int | None:
        limit = self.state.settings.limits.max_frame_bytes
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return None
            if message.get("bytes") is not None:
                return CLOSE_UNSUPPORTED
            text = message.get("text") or ""
            if len(text) > limit or len(text.encode()) > limit:
                return CLOSE_TOO_BIG
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                self.push(ErrorFrame(code="invalid_json", message=f"not valid JSON: {exc}"))
                continue
            try:
                await self._handle(parse_client_frame(data))
            except AppError as exc:
                self._error(exc, _message_id_of(data))
            except Exception:
                log.exception("frame handling failed")
                return CLOSE_INTERNAL
            if self.ws.application_state != WebSocketState.CONNECTED:
                return None

    async def _handle(self, frame: object) -> None:
        if isinstance(frame, PingFrame):
            self.push(PongFrame())
        elif isinstance(frame, ChatFrame):
            limit = self.state.settings.limits.max_message_chars
            if len(frame.content) > limit:
                raise InvalidFrameError(
                    f"content has {len(frame.content)} characters; the limit is {limit}"
                )
            self._start(TurnRequest(self.user.id, frame.conversation_id, frame.content,
                                    frame.params, frame.documents, frame.replaces))
        elif isinstance(frame, RegenerateFrame):
            self._start(TurnRequest(self.user.id, frame.conversation_id, None, frame.params))
        elif isinstance(frame, CancelFrame):
            await self._cancel(frame.message_id)
        elif isinstance(frame, ResumeFrame):
            await self._resume(frame.message_id, frame.after)

    def _start(self, request: TurnRequest) -> None:
        to_sampling_params(request.params, self.state.settings.chat)  # bad params: no start
        self.state.admission.admit(self.user.id)
        generation = Generation(self.state.hub, self.user.id)
        generation.subscribe(self.push)
        self.followed.add(generation)
        turn = ChatTurn(self.state.turn_deps(), request, generation)
        self.state.hub.launch(generation, turn.run)

    async def _cancel(self, message_id: str) -> None:
        generation = self.state.hub.get(message_id)
        if generation is not None and generation.user_id == self.user.id:
            generation.cancel("cancelled")
            return
        async with self.state.db.session() as s:
            await repo.get_message(s, self.user.id, message_id)  # not_found if not theirs
        # Theirs but no longer running: nothing to stop.

    async def _resume(self, message_id: str, after: int) -> None:
        generation = self.state.hub.get(message_id)
        if generation is not None and generation.user_id == self.user.id:
            generation.subscribe(self.push, after=after)
            self.followed.add(generation)
            return
        async with self.state.db.session() as s:
            message = await repo.get_message(s, self.user.id, message_id)
        if message.role != "assistant":
            raise NotFoundError(f"message {message_id!r} is not an answer")
        for frame in _replay(message, after):
            self.push(frame)


def _replay(message: Message, after: int) -> list[ServerFrame]:
    """The deltas of a stored answer from index `after`, then its `done`."""
    offsets = message.stream_offsets or ([len(message.content)] if message.content else [])
    frames: list[ServerFrame] = []
    start = 0
    for index, end in enumerate(offsets):
        if index >= after:
            frames.append(DeltaFrame(message_id=message.id, index=index,
                                     text=message.content[start:end]))
        start = end
    stored = message.finish_reason or _DONE_FROM_STATUS.get(message.status, "error")
    reason: FinishReason = stored if stored in _FINISH_REASONS else "error"  # type: ignore[assignment]
    usage = Usage(prompt_tokens=message.prompt_tokens or 0,
                  completion_tokens=message.completion_tokens or 0,
                  cached_tokens=message.cached_tokens or 0)
    unsupported = [UnsupportedSentence(**u) for u in message.unsupported or []]
    frames.append(DoneFrame(message_id=message.id, finish_reason=reason, usage=usage,
                            unsupported=unsupported))
    return frames


def _message_id_of(data: Any) -> str | None:
    if isinstance(data, dict) and is_id(data.get("message_id")):
        return data["message_id"]  # type: ignore[no-any-return]
    return None
