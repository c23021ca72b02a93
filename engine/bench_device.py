"""Every device-specific call of the GPU benchmark suite, in one place.

The suite must time correctly the first time it meets a GPU, so nothing else in it calls
`torch.cuda`: it asks a BenchDevice to synchronize, to time a span, to measure the copy
bandwidth or to free memory. On a CPU the same methods run with host clocks, so a CPU test
exercises every code path the GPU run takes.
"""

from __future__ import annotations

import gc
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from engine.model_runner import resolve_device


@dataclass(slots=True)
class Stopwatch:
    """Filled in when its `with` block ends."""

    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class CopyBandwidth:
    """A device-to-device copy of `num_bytes`, `repeats` times. A copy reads and writes every
    byte, so the memory traffic is 2 x num_bytes per copy (STREAM's convention for "copy")."""

    num_bytes: int
    repeats: int
    seconds: float

    @property
    def bytes_moved(self) -> int:
        return 2 * self.num_bytes * self.repeats

    @property
    def bytes_per_s(self) -> float:
        return self.bytes_moved / self.seconds

    def as_dict(self) -> dict:
        return {
            "buffer_bytes": self.num_bytes,
            "repeats": self.repeats,
            "bytes_moved": self.bytes_moved,
            "seconds": round(self.seconds, 6),
            "gb_per_s": round(self.bytes_per_s / 1e9, 2),
        }


class BenchDevice:
    """The device the suite measures on ("auto" = CUDA when present, as the engine picks)."""

    def __init__(self, name: str) -> None:
        self.device = resolve_device(name)
        if self.device.type not in ("cpu", "cuda"):
            raise ValueError(f"the benchmark runs on 'cpu' or 'cuda[:N]', got {name!r}")
        if self.is_cuda:
            if not torch.cuda.is_available():
                raise ValueError(f"device {name!r} asked for, but torch sees no CUDA device")
            if self.device.index is None:  # "cuda" = the current device, as the engine reads it
                self.device = torch.device("cuda", torch.cuda.current_device())
            # Events record on the current device's stream: make it the measured device.
            torch.cuda.set_device(self.device)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    def synchronize(self) -> None:
        if self.is_cuda:
            torch.cuda.synchronize(self.device)

    @contextmanager
    def wall(self) -> Iterator[Stopwatch]:
        """Host wall time of a span that ends only when the device has finished its work:
        what a caller waits for (engine steps, generate calls)."""
        watch = Stopwatch()
        self.synchronize()
        start = time.perf_counter()
        yield watch
        self.synchronize()
        watch.seconds = time.perf_counter() - start

    @contextmanager
    def device_time(self) -> Iterator[Stopwatch]:
        """Device time of the work queued in the span: CUDA events on a GPU (host launch gaps
        before the first kernel do not count), the synchronized host clock on a CPU."""
        if not self.is_cuda:
            with self.wall() as watch:
                yield watch
            return
        watch = Stopwatch()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        yield watch
        end.record()
        end.synchronize()
        watch.seconds = start.elapsed_time(end) / 1000.0  # elapsed_time is in ms

    def copy_bandwidth(self, num_bytes: int, repeats: int) -> CopyBandwidth:
        """Copy one large buffer into another on the device (host memcpy on a CPU)."""
        if num_bytes <= 0 or repeats <= 0:
            raise ValueError(f"copy size and repeats must be positive, got {num_bytes}, {repeats}")
        src = torch.ones(num_bytes, dtype=torch.uint8, device=self.device)
        dst = torch.empty_like(src)
        dst.copy_(src)  # warm: first-touch page faults and lazy allocation stay out of the timing
        with self.device_time() as watch:
            for _ in range(repeats):
                dst.copy_(src)
        del src, dst
        self.release()
        return CopyBandwidth(num_bytes, repeats, watch.seconds)

    def release(self) -> None:
        """Return freed tensors' memory, so the next model of the run starts clean."""
        gc.collect()
        if self.is_cuda:
            torch.cuda.empty_cache()

    def describe(self) -> dict:
        info: dict = {"device": str(self.device)}
        if self.is_cuda:
            props = torch.cuda.get_device_properties(self.device)
            info |= {
                "name": props.name,
                "total_memory_bytes": props.total_memory,
                "capability": f"{props.major}.{props.minor}",
                "cuda_runtime": torch.version.cuda,
            }
        else:
            info |= {"name": platform.processor() or platform.machine(),
                     "threads": torch.get_num_threads()}
        return info
