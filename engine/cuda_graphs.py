"""Decode steps replayed from CUDA graphs, one graph per batch size of a ladder.

A decode step of a small model is dozens of short kernels; launching them one by one from
Python costs more than running them. Captured once per batch size, a step becomes one graph
replay. What makes that possible:
- static device buffers (token ids, positions, slots, context lengths, block tables) sized for
  the largest batch, filled from one pinned host buffer by one asynchronous copy per step;
- padding: a step of B decodes replays the graph of the smallest ladder size >= B; padded rows
  store nothing (slot -1), attend to nothing (context length 0: the decode kernel writes zeros)
  and their hidden states are never read;
- block tables as wide as the longest context the engine admits, at every size, so the decode
  kernel's split plan (chosen from shapes alone) is the same at capture and at replay.
Only the Triton attention backend reads its metadata from flat tensors like these; the torch
path's per-length decode groups change shape every step and stay eager.

`capture=False` runs the same padded static-buffer path without capturing: the tests run it on
a CPU (kernels interpreted), and it tells a capture problem from a kernel problem.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

import torch

from engine.layers.attention import AttentionMetadata, KernelBatch

# Batch sizes that get a graph, up to the engine's max_num_seqs: fine steps where most batches
# are, coarser above (padding a 100-row batch to 112 costs little next to its own work).
_LADDER = (1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128)
_LADDER_STEP_ABOVE = 32

# (input_ids (T,), positions (T,), metadata) -> hidden states (T, hidden)
ForwardFn = Callable[[torch.Tensor, torch.Tensor, AttentionMetadata], torch.Tensor]


def graph_batch_sizes(max_num_seqs: int) -> list[int]:
    """The ladder of captured batch sizes: every step of `_LADDER` below max_num_seqs, then
    multiples of 32, and max_num_seqs itself so that every admissible batch has a graph."""
    if max_num_seqs < 1:
        raise ValueError(f"max_num_seqs must be positive, got {max_num_seqs}")
    sizes = [s for s in _LADDER if s < max_num_seqs]
    top = _LADDER[-1] + _LADDER_STEP_ABOVE
    while top < max_num_seqs:
        sizes.append(top)
        top += _LADDER_STEP_ABOVE
    sizes.append(max_num_seqs)
    return sizes


def padded_batch_size(num_decodes: int, sizes: Sequence[int]) -> int | None:
    """The smallest ladder size holding `num_decodes` rows; None when none does."""
    i = bisect.bisect_left(sizes, num_decodes)
    return sizes[i] if i < len(sizes) else None


class DecodeGraphs:
    """Static buffers, and per ladder size a captured graph (or, uncaptured, the same calls).

    Invariant: between steps the device buffers hold the last step's values; a step rewrites
    every row it replays, padding included, so no stale row is ever read as live. The pinned
    host buffer is rewritten only after the previous step's sampled tokens reached the host,
    which waits for the stream, so the previous asynchronous copy out of it has finished.
    """

    def __init__(
        self,
        forward: ForwardFn,
        *,
        max_num_seqs: int,
        max_blocks: int,
        device: torch.device,
        capture: bool,
    ) -> None:
        if capture and device.type != "cuda":
            raise ValueError(f"CUDA graphs need a CUDA device, got {device}")
        self._forward = forward
        self.sizes = graph_batch_sizes(max_num_seqs)
        self.max_blocks = max_blocks
        self.capture = capture
        rows = self.sizes[-1]
        self._rows = rows
        # One int64 buffer: ids | positions | slots | context lengths | block tables (rows, max_blocks).
        width = rows * (4 + max_blocks)
        pin = device.type == "cuda"
        self._host = torch.zeros(width, dtype=torch.int64, pin_memory=pin)
        self._host_np = self._host.numpy()
        self._device_buf = torch.zeros(width, dtype=torch.int64, device=device)
        ids, pos, slots, lens, tables = self._device_buf.split([rows] * 4 + [rows * max_blocks])
        self._ids, self._pos, self._slots, self._lens = ids, pos, slots, lens
        self._tables = tables.view(rows, max_blocks)
        self._no_prefill_tables = torch.zeros(0, max_blocks, dtype=torch.int64, device=device)
        self._no_prefill_starts = torch.zeros(1, dtype=torch.int64, device=device)
        self._no_prefill_computed = torch.zeros(0, dtype=torch.int64, device=device)
        self._hidden: dict[int, torch.Tensor] = {}
        self._graphs: dict[int, torch.cuda.CUDAGraph] = {}
        self._clear_rows(0, rows)
        self._device_buf.copy_(self._host)

    @property
    def max_batch_size(self) -> int:
        return self._rows

    def _metadata(self, size: int) -> AttentionMetadata:
        batch = KernelBatch(
            num_decodes=size,
            decode_block_tables=self._tables[:size],
            decode_context_lens=self._lens[:size],
            prefill_block_tables=self._no_prefill_tables,
            prefill_cu_query_starts=self._no_prefill_starts,
            prefill_num_computed=self._no_prefill_computed,
            prefill_max_query_len=0,
        )
        return AttentionMetadata(self._slots[:size], [], [], batch)

    def _run_eager(self, size: int) -> torch.Tensor:
        return self._forward(self._ids[:size], self._pos[:size], self._metadata(size))

    def capture_all(self) -> None:
        """Captures every ladder size, largest first so the smaller graphs reuse its memory
        pool. The buffers hold padding only (slot -1, length 0): capture writes no KV."""
        if not self.capture:
            return
        pool = None
        stream = torch.cuda.Stream()
        for size in reversed(self.sizes):
            # Warm-up outside the graph: compiles the Triton kernels for these shapes and lets
            # cuBLAS pick its workspaces, neither of which may happen during capture.
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                self._run_eager(size)
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, pool=pool):
                self._hidden[size] = self._run_eager(size)
            pool = graph.pool()
            self._graphs[size] = graph
        torch.cuda.synchronize()

    def run(
        self,
        input_ids: Sequence[int],
        positions: Sequence[int],
        slots: Sequence[int],
        context_lens: Sequence[int],
        block_tables: Sequence[Sequence[int]],
    ) -> torch.Tensor | None:
        """Hidden states (B, hidden) of B decodes; None when B is past the ladder or a table
        is wider than the static one (the caller then runs the step eagerly)."""
        n = len(input_ids)
        size = padded_batch_size(n, self.sizes)
        if n == 0 or size is None or any(len(t) > self.max_blocks for t in block_tables):
            return None
        rows, h = self._rows, self._host_np
        h[0:n] = input_ids
        h[rows : rows + n] = positions
        h[2 * rows : 2 * rows + n] = slots
        h[3 * rows : 3 * rows + n] = context_lens
        tables = h[4 * rows :].reshape(rows, self.max_blocks)
        for i, table in enumerate(block_tables):
            tables[i, : len(table)] = table
        self._clear_rows(n, size)
        self._device_buf.copy_(self._host, non_blocking=True)
        if not self.capture:
            return self._run_eager(size)[:n]
        self._graphs[size].replay()
        return self._hidden[size][:n]

    def _clear_rows(self, start: int, stop: int) -> None:
        """Rows start:stop become padding: token 0 at position 0, slot -1, length 0."""
        rows, h = self._rows, self._host_np
        for part in range(4):
            h[part * rows + start : part * rows + stop] = -1 if part == 2 else 0
