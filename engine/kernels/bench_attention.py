"""Micro-benchmark: Triton paged decode attention vs gathering the cache into torch SDPA.

    python -m engine.kernels.bench_attention [--json]

Llama-3.2-1B's attention shape (32 query heads, 8 KV heads, head_dim 64), bf16, block size 16,
block tables shuffled over the cache; batch 1 / 16 / 64 at context 512 and 2048, every sequence
at the full context (the baseline then needs no mask, its best case). The baseline is what a
kernel-less engine does each step: gather each sequence's blocks into a contiguous (B, KVH, L, D)
copy, then one SDPA call. Times are medians of triton.testing.do_bench (ms); "GB/s" is the K/V
bytes the step must read divided by that time. CUDA only: elsewhere it says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F

NUM_HEADS, NUM_KV_HEADS, HEAD_DIM, BLOCK_SIZE = 32, 8, 64, 16
BATCHES = (1, 16, 64)
CONTEXTS = (512, 2048)


@dataclass(slots=True)
class Row:
    batch: int
    context: int
    triton_ms: float
    gather_sdpa_ms: float
    triton_gbps: float
    speedup: float  # gather_sdpa_ms / triton_ms
    max_abs_diff: float


def bench_case(batch: int, context: int, device: torch.device, dtype: torch.dtype) -> Row:
    from triton.testing import do_bench

    from engine.kernels.decode_attention import paged_decode_attention

    blocks_per_seq = context // BLOCK_SIZE
    num_blocks = batch * blocks_per_seq + 1
    g = torch.Generator(device=device).manual_seed(0)
    shape = (NUM_KV_HEADS, num_blocks, BLOCK_SIZE, HEAD_DIM)
    k_cache = torch.randn(shape, generator=g, device=device, dtype=dtype)
    v_cache = torch.randn(shape, generator=g, device=device, dtype=dtype)
    order = torch.randperm(num_blocks - 1, generator=g, device=device) + 1
    tables = order[: batch * blocks_per_seq].view(batch, blocks_per_seq).to(torch.int32)
    lens = torch.full((batch,), context, dtype=torch.int32, device=device)
    q = torch.randn(batch, NUM_HEADS, HEAD_DIM, generator=g, device=device, dtype=dtype)
    scale = HEAD_DIM**-0.5
    out = torch.empty_like(q)

    def triton_step() -> None:
        paged_decode_attention(q, k_cache, v_cache, tables, lens, scale, out=out)

    def gather_sdpa() -> torch.Tensor:
        tables_long = tables.long()
        k = k_cache[:, tables_long].flatten(2, 3).transpose(0, 1)  # (B, KVH, L, D)
        v = v_cache[:, tables_long].flatten(2, 3).transpose(0, 1)
        o = F.scaled_dot_product_attention(q.unsqueeze(2), k, v, scale=scale, enable_gqa=True)
        return o.squeeze(2)  # (B, H, D)

    triton_step()
    diff = (out.float() - gather_sdpa().float()).abs().max().item()
    triton_ms = do_bench(triton_step, return_mode="median")
    baseline_ms = do_bench(gather_sdpa, return_mode="median")
    kv_bytes = 2 * batch * context * NUM_KV_HEADS * HEAD_DIM * k_cache.element_size()
    return Row(
        batch=batch,
        context=context,
        triton_ms=round(triton_ms, 4),
        gather_sdpa_ms=round(baseline_ms, 4),
        triton_gbps=round(kv_bytes / (triton_ms * 1e-3) / 1e9, 1),
        speedup=round(baseline_ms / triton_ms, 2),
        max_abs_diff=diff,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("bench_attention needs a CUDA GPU (none found); nothing measured.", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    rows = [bench_case(b, c, device, torch.bfloat16) for c in CONTEXTS for b in BATCHES]
    name = torch.cuda.get_device_name(device)
    if args.json:
        print(json.dumps({"device": name, "dtype": "bfloat16", "rows": [asdict(r) for r in rows]}))
        return 0
    print(f"paged decode attention, {name}, bf16, H={NUM_HEADS} KVH={NUM_KV_HEADS} D={HEAD_DIM}")
    print(
        f"{'batch':>5} {'context':>7} {'triton ms':>10} {'gather+SDPA ms':>15} {'GB/s':>7} {'x':>6}"
    )
    for r in rows:
        print(
            f"{r.batch:>5} {r.context:>7} {r.triton_ms:>10.4f} {r.gather_sdpa_ms:>15.4f} "
            f"{r.triton_gbps:>7.1f} {r.speedup:>6.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
