"""Running generations, independent of the sockets that watch them.

A generation keeps running when its socket drops, so a client that reconnects can `resume` it:
the hub keeps every running generation (and finished ones for a while) by message id, with the
deltas sent so far. Sockets subscribe to generations; frames fan out to all subscribers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from app.protocol import DeltaFrame, DoneFrame, ServerFrame, StartFrame

log = logging.getLogger("hearth.generations")

Subscriber = Callable[[ServerFrame], None]


class Generation:
    """One answer being generated. Also the frame sink of its chat turn.

    Invariant: `deltas[i]` is the text of the delta frame with index i; once `done` is set
    no further frame is sent.
    """

    def __init__(self, hub: GenerationHub, user_id: str) -> None:
        self.hub = hub
        self.user_id = user_id
        self.message_id: str | None = None
        self.conversation_id: str | None = None
        self.deltas: list[str] = []
        self.done: DoneFrame | None = None
        self.cancel_reason: str | None = None
        self.task: asyncio.Task[None] | None = None
        self._subscribers: list[Subscriber] = []

    @property
    def finished(self) -> bool:
        return self.done is not None

    def send(self, frame: ServerFrame) -> None:
        if isinstance(frame, StartFrame):
            self.message_id = frame.message_id
            self.conversation_id = frame.conversation_id
            self.hub._index(self)
        elif isinstance(frame, DeltaFrame):
            self.deltas.append(frame.text)
        elif isinstance(frame, DoneFrame):
            self.done = frame
        for subscriber in list(self._subscribers):
            subscriber(frame)
        if self.done is not None:
            self._subscribers.clear()

    def subscribe(self, subscriber: Subscriber, after: int | None = None) -> None:
        """Follow this generation; with `after`, first replay deltas from that index (and the
        `done` when it has finished). Synchronous, so no frame can slip in between."""
        if after is not None:
            for index in range(after, len(self.deltas)):
                subscriber(DeltaFrame(message_id=self.message_id or "", index=index,
                                      text=self.deltas[index]))
            if self.done is not None:
                subscriber(self.done)
                return
        if self.done is None and subscriber not in self._subscribers:
            self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber in self._subscribers:
            self._subscribers.remove(subscriber)

    def cancel(self, reason: str) -> None:
        if self.task is not None and not self.task.done():
            self.cancel_reason = reason
            self.task.cancel()


class GenerationHub:
    def __init__(self, retention_seconds: float = 120.0) -> None:
        self.retention_seconds = retention_seconds
        self.draining = False
        self.drain_deadline: float | None = None  # time.monotonic() when draining must end
        self._by_message: dict[str, Generation] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._active_by_user: Counter[str] = Counter()
        self._idle = asyncio.Event()
        self._idle.set()

    # ----------------------------------------------------------------------- bookkeeping
    @property
    def num_active(self) -> int:
        return sum(self._active_by_user.values())

    def num_active_for(self, user_id: str) -> int:
        return self._active_by_user[user_id]

    def get(self, message_id: str) -> Generation | None:
        return self._by_message.get(message_id)

    def running_in(self, conversation_id: str) -> list[Generation]:
        return [
            g for g in self._by_message.values()
            if g.conversation_id == conversation_id and not g.finished
        ]

    @asynccontextmanager
    async def track(self, user_id: str) -> AsyncIterator[None]:
        """Count work that is not a resumable generation (e.g. /v1 completions)."""
        self._enter(user_id)
        try:
            yield
        finally:
            self._leave(user_id)

    def _enter(self, user_id: str) -> None:
        self._active_by_user[user_id] += 1
        self._idle.clear()

    def _leave(self, user_id: str) -> None:
        self._active_by_user[user_id] -= 1
        if self._active_by_user[user_id] <= 0:
            del self._active_by_user[user_id]
        if not self._active_by_user:
            self._idle.set()

    def _index(self, generation: Generation) -> None:
        assert generation.message_id is not None
        self._by_message[generation.message_id] = generation

    # ----------------------------------------------------------------------- lifecycle
    def begin_drain(self, seconds: float) -> None:
        """Admit nothing new from now on; running work has `seconds` to finish (the first
        call sets the deadline, so a later shutdown step does not restart the window)."""
        self.draining = True
        if self.drain_deadline is None:
            self.drain_deadline = time.monotonic() + seconds

    def drain_time_left(self) -> float:
        if self.drain_deadline is None:
            return 0.0
        return max(0.0, self.drain_deadline - time.monotonic())

    def launch(
        self, generation: Generation, run: Callable[[], Coroutine[Any, Any, None]]
    ) -> asyncio.Task[None]:
        self._enter(generation.user_id)
        task = asyncio.get_running_loop().create_task(run())
        generation.task = task
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._finished(generation, t))
        return task

    def _finished(self, generation: Generation, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._leave(generation.user_id)
        if not task.cancelled() and task.exception() is not None:
            log.error("chat turn failed", exc_info=task.exception())
        if generation.message_id is not None:
            message_id = generation.message_id
            loop = asyncio.get_running_loop()
            loop.call_later(self.retention_seconds, self._forget, message_id, generation)

    def _forget(self, message_id: str, generation: Generation) -> None:
        if self._by_message.get(message_id) is generation:
            del self._by_message[message_id]

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is generating; False if `timeout` seconds passed first."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def cancel_all(self, reason: str, timeout: float = 10.0) -> None:
        """Cancel every running generation and wait for each to record its end."""
        tasks = list(self._tasks)
        for generation in {g for g in self._by_message.values() if not g.finished}:
            generation.cancel(reason)
        for task in tasks:
            if not task.done():
                task.cancel()
        if tasks:
            deadline = time.monotonic() + timeout
            await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
