"""AsyncEngine: the engine for asyncio servers. One thread owns the model and runs the loop;
the event loop only submits commands and awaits per-request queues."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from engine.config import EngineConfig
from engine.core import EngineCore, EngineStats
from engine.errors import EngineDeadError
from engine.outputs import RequestOutput
from engine.prompt_input import Prompt, encode_prompt
from engine.sampling_params import SamplingParams

log = logging.getLogger("hearth.engine")

@dataclass(slots=True)
class _Stream:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[RequestOutput | BaseException]

    def put(self, item: RequestOutput | BaseException) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)


class AsyncEngine:
    """`async for out in engine.generate(prompt, params)`; leaving the loop early aborts."""

    def __init__(self, config: EngineConfig | None = None, *, core: EngineCore | None = None):
        self.core = core if core is not None else EngineCore(config or EngineConfig())
        self.config = self.core.config
        self.tokenizer = self.core.tokenizer
        self.model_name = self.core.model_config.name or self.config.model
        self.max_model_len = self.core.max_model_len
        self._commands: queue.SimpleQueue[tuple] = queue.SimpleQueue()
        self._wakeup = threading.Event()
        self._streams: dict[str, _Stream] = {}  # touched by the loop thread only
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._dead: BaseException | None = None
        self.last_heartbeat: float | None = None

    # ------------------------------------------------------------------------- lifecycle
    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run_loop, name="hearth-engine", daemon=True)
        self._thread.start()

    async def shutdown(self) -> None:
        self._stopping = True
        self._wakeup.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)

    @property
    def is_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._dead is None

    def stats(self) -> EngineStats:
        s = self.core.stats()
        s.is_alive = self.is_alive
        s.last_step_monotonic = self.last_heartbeat
        return s

    # ------------------------------------------------------------------------- requests
    def encode_prompt(self, prompt: Prompt) -> list[int]:
        return encode_prompt(self.tokenizer, prompt)

    async def generate(
        self, prompt: Prompt, params: SamplingParams, request_id: str | None = None
    ) -> AsyncIterator[RequestOutput]:
        if self._dead is not None or self._stopping:
            raise EngineDeadError("the engine is not running")
        token_ids = self.encode_prompt(prompt)
        self.core.validate(token_ids, params)  # typed errors before anything is allocated
        rid = request_id or self.core.new_request_id()
        stream = _Stream(asyncio.get_running_loop(), asyncio.Queue())
        self._commands.put(("add", rid, token_ids, params, stream))
        self._wakeup.set()
        finished = False
        try:
            while True:
                item = await stream.queue.get()
                if isinstance(item, BaseException):
                    raise item
                finished = item.finished
                yield item
                if finished:
                    return
        finally:
            if not finished:
                self.abort(rid)

    def abort(self, request_id: str) -> None:
        self._commands.put(("abort", request_id))
        self._wakeup.set()

    # ------------------------------------------------------------------------- the loop
    def _run_loop(self) -> None:
        core = self.core
        try:
            while not self._stopping:
                self.last_heartbeat = time.monotonic()
                self._drain_commands()
                if not core.has_unfinished():
                    self._wakeup.wait(0.5)
                    self._wakeup.clear()
                    continue
                for out in core.step():
                    self._deliver(out)
        except BaseException as exc:  # the loop must never die silently
            log.exception("engine loop crashed")
            self._dead = exc
            for stream in self._streams.values():
                stream.put(EngineDeadError(f"engine loop crashed: {exc!r}"))
            self._streams.clear()
            return
        # Shutdown: abort whatever is still queued or running.
        self._drain_commands()
        for rid in list(self._streams):
            out = core.abort(rid)
            if out is not None:
                self._deliver(out)
        for stream in self._streams.values():
            stream.put(EngineDeadError("the engine shut down"))
        self._streams.clear()

    def _drain_commands(self) -> None:
        while True:
            try:
                cmd = self._commands.get_nowait()
            except queue.Empty:
                return
            if cmd[0] == "add":
                _, rid, token_ids, params, stream = cmd
                try:
                    self.core.add_request(rid, token_ids, params)
                except Exception as exc:  # validated already; a duplicate id lands here
                    stream.put(exc)
                    continue
                self._streams[rid] = stream
            else:
                out = self.core.abort(cmd[1])
                if out is not None:
                    self._deliver(out)

    def _deliver(self, out: RequestOutput) -> None:
        stream = self._streams.get(out.request_id)
        if stream is None:
            return
        stream.put(out)
        if out.finished:
            del self._streams[out.request_id]
