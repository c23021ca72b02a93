"""RailsExecutor: the worker thread(s) the model-backed rails run on, each with its own torch
intra-op thread count (default 1).

Why: beside a running engine, a rail check on a thread with torch's default thread count
starts a second OpenMP team as wide as the machine, which competes with the engine loop's
team for the same cores; the teams' threads spin-wait on each other and a 15 ms check takes
100 ms or more. One intra-op thread keeps a check on one core.

How it isolates (torch's OpenMP backend): the intra-op count is per OS thread. A thread takes
the process-wide value (the last one `torch.set_num_threads` stored, or the default) at its
first parallel op and keeps its own copy afterwards; `torch.set_num_threads` in one thread
sets that thread's copy and stores the process-wide value. So each worker sets its own count
and then has a short-lived thread store back the value the worker had inherited: the engine
loop, the event loop and threads started later keep theirs. (A thread making its very first
parallel op during those few microseconds could take the workers' count.)
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import torch

T = TypeVar("T")


def _set_thread_torch_threads(num_threads: int) -> None:
    """Gives the calling thread `num_threads` intra-op threads, leaving the process default."""
    inherited = torch.get_num_threads()  # also makes torch initialize this thread's count
    torch.set_num_threads(num_threads)
    if inherited != num_threads:
        restore = threading.Thread(
            target=torch.set_num_threads, args=(inherited,), name="hearth-torch-threads"
        )
        restore.start()
        restore.join()


class RailsExecutor:
    """Runs sync rail checks on `workers` dedicated threads with `torch_threads` intra-op
    threads each; the threads start on first use."""

    def __init__(self, workers: int = 1, torch_threads: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if torch_threads < 1:
            raise ValueError(f"torch_threads must be >= 1, got {torch_threads}")
        self.workers = workers
        self.torch_threads = torch_threads
        self._pool = ThreadPoolExecutor(
            max_workers=workers,
            thread_name_prefix="hearth-rails",
            initializer=_set_thread_torch_threads,
            initargs=(torch_threads,),
        )

    async def run(self, fn: Callable[..., T], *args: object, **kwargs: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def shutdown(self) -> None:
        """Waits for running checks to end; checks submitted afterwards raise RuntimeError."""
        self._pool.shutdown(wait=True, cancel_futures=True)
