"""Micro-benchmark: quantized (dequantize-in-kernel) matmul vs a dense bf16 matmul.

    python -m engine.kernels.bench_quant [--batch 1,16] [--formats q4_1,q8_0,q4_k,int8] [--json]

The matrices of Llama-3.2-1B's shape (fused q/k/v, o, fused gate/up, down, the 128k-row tied
head), random packed weights of each format against a bf16 F.linear of the same (N, K), x in
bf16. Times are medians of triton.testing.do_bench (ms); "GB/s" is the packed weight bytes plus
x and y divided by the kernel's time, what batch-1 decode is bound by; "x" is bf16 time over
quantized time (above 1: the quantized path is faster). "rel err" is the kernel's max abs
difference from the torch reference over the reference's max abs value. CUDA only: elsewhere it
says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F

from engine.kernels.quant_formats import QuantizedWeight, get_format

# Llama-3.2-1B: hidden 2048, 32 heads / 8 KV heads of 64, intermediate 8192, vocab 128256.
MATRICES: dict[str, tuple[int, int]] = {
    "qkv_proj": (2048 + 2 * 512, 2048),
    "o_proj": (2048, 2048),
    "gate_up_proj": (2 * 8192, 2048),
    "down_proj": (2048, 8192),
    "lm_head": (128256, 2048),
}
FORMATS = ("q4_1", "q8_0", "q4_k", "int8")


@dataclass(slots=True)
class Row:
    matrix: str
    n: int
    k: int
    format: str
    batch: int
    quant_ms: float
    bf16_ms: float
    quant_gbps: float
    bf16_gbps: float
    speedup: float
    rel_err: float


def random_quantized(
    fmt: str, n: int, k: int, device: torch.device | str, seed: int = 0
) -> QuantizedWeight:
    """A packed weight of random codes and small scales (weights of order 0.01 to 0.1)."""
    g = torch.Generator(device=device).manual_seed(seed)
    tensors = {}
    for name, (shape, dtype) in get_format(fmt).layout(n, k).items():
        if dtype == torch.int8:
            t = torch.randint(-127, 128, shape, generator=g, device=device, dtype=torch.int8)
        elif dtype == torch.uint8:
            high = 256 if name == "qweight" else 64  # sub-block scales/mins are 6-bit
            t = torch.randint(0, high, shape, generator=g, device=device, dtype=torch.uint8)
        else:
            t = torch.rand(shape, generator=g, device=device) * 0.01
            if name == "mins" and fmt == "q4_1":
                t = -8 * t  # q4_1's min is the block's (usually negative) smallest value
            t = t.to(dtype)
        tensors[name] = t
    return QuantizedWeight(fmt, n, k, tensors)


def packed_bytes(weight: QuantizedWeight) -> int:
    return sum(t.numel() * t.element_size() for t in weight.tensors.values())


def bench_case(matrix: str, fmt: str, batch: int, device: torch.device) -> Row:
    from triton.testing import do_bench

    from engine.kernels.quant_matmul import quant_matmul
    from engine.kernels.quant_reference import quant_matmul_reference

    n, k = MATRICES[matrix]
    weight = random_quantized(fmt, n, k, device)
    dense = torch.randn(n, k, device=device, dtype=torch.bfloat16) * 0.02
    x = torch.randn(batch, k, device=device, dtype=torch.bfloat16)
    got = quant_matmul(x, weight)
    ref = quant_matmul_reference(x.float(), weight)
    rel_err = ((got.float() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
    quant_ms = do_bench(lambda: quant_matmul(x, weight), return_mode="median")
    bf16_ms = do_bench(lambda: F.linear(x, dense), return_mode="median")
    io = 2 * batch * (n + k)  # x in, y out, bf16
    return Row(
        matrix=matrix,
        n=n,
        k=k,
        format=fmt,
        batch=batch,
        quant_ms=round(quant_ms, 4),
        bf16_ms=round(bf16_ms, 4),
        quant_gbps=round((packed_bytes(weight) + io) / (quant_ms * 1e-3) / 1e9, 1),
        bf16_gbps=round((dense.numel() * 2 + io) / (bf16_ms * 1e-3) / 1e9, 1),
        speedup=round(bf16_ms / quant_ms, 2),
        rel_err=rel_err,
    )


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", default="1", help="comma-separated rows of x (default 1)")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--matrices", default=",".join(MATRICES))
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = parser.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]
    matrices = [m for m in args.matrices.split(",") if m]
    bad = [f for f in formats if f not in FORMATS] + [m for m in matrices if m not in MATRICES]
    if bad:
        print(f"unknown format or matrix: {', '.join(bad)}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("bench_quant needs a CUDA GPU (none found); nothing measured.", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    rows = [
        bench_case(m, f, b, device) for b in _ints(args.batch) for m in matrices for f in formats
    ]
    name = torch.cuda.get_device_name(device)
    if args.json:
        print(
            json.dumps({"device": name, "x_dtype": "bfloat16", "rows": [asdict(r) for r in rows]})
        )
        return 0
    print(f"weight-only quantized matmul vs bf16 F.linear, {name}, Llama-3.2-1B matrices")
    print(
        f"{'matrix':<13} {'N':>6} {'K':>5} {'fmt':<5} {'B':>3} {'quant ms':>9} {'bf16 ms':>8} "
        f"{'quant GB/s':>10} {'bf16 GB/s':>9} {'x':>5} {'rel err':>8}"
    )
    for r in rows:
        print(
            f"{r.matrix:<13} {r.n:>6} {r.k:>5} {r.format:<5} {r.batch:>3} {r.quant_ms:>9.4f} "
            f"{r.bf16_ms:>8.4f} {r.quant_gbps:>10.1f} {r.bf16_gbps:>9.1f} {r.speedup:>5.2f} "
            f"{r.rel_err:>8.1e}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
