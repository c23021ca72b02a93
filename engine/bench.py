"""Benchmark: Hearth's engine against Hugging Face transformers on the same model, dtype,
threads and workload, in one process and one run.

    python -m engine.bench --json bench-results/engine.json
    python -m engine.bench --suite gpu --json bench-results/gpu.json   (engine/bench_gpu.py)

Writes the PROTOCOL.md JSON: {"machine", "model", "results": {name: {hearth, baseline, ratio}}}
with ratio > 1 meaning Hearth is better. transformers is a bench extra, never a runtime need.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

import torch

from engine.bench_device import BenchDevice
from engine.bench_measure import (
    hearth_stream_latency,
    hearth_throughput,
    hf_generate,
    hf_model,
    hf_stream_latency,
)
from engine.bench_workload import Work
from engine.config import EngineConfig
from engine.core import EngineCore
from engine.llm import LLM
from engine.loader import load_model
from engine.model_runner import resolve_dtype
from engine.sampling_params import SamplingParams

SHARED_WORKLOAD = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "workload.json"


def load_workload(path: str | None, num: int, seed: int, vocab: int) -> tuple[list[Work], str]:
    candidates = [Path(path)] if path else [SHARED_WORKLOAD, Path("shared/bench/workload.json")]
    for p in candidates:
        if p.is_file():
            rows = json.loads(p.read_text())
            return [Work(r["prompt_token_ids"], r["max_tokens"]) for r in rows][:num], str(p)
    rng = random.Random(seed)  # no shared workload: draw one with a fixed seed
    work = [
        Work([rng.randrange(100, vocab) for _ in range(rng.randint(58, 498))], rng.randint(64, 256))
        for _ in range(num)
    ]
    return work, f"random(seed={seed})"


def machine_info() -> dict:
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "cuda": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
    }


def next_turn_ttft(llm: LLM, history: list[int], turn: list[int]) -> float:
    """Run turn 1 (the history), then time the first token of turn 2 = history + answer + turn."""
    first = llm.generate([history], SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True))[0]
    prompt = history + first.token_ids + turn
    t0 = time.perf_counter()
    llm.generate([prompt], SamplingParams(max_tokens=1, temperature=0.0, ignore_eos=True))
    return time.perf_counter() - t0


def result(hearth: dict, baseline: dict, ratio: float) -> dict:
    return {"hearth": hearth, "baseline": baseline, "ratio": round(ratio, 3)}


def main(argv: list[str] | None = None) -> int:
    """`--suite gpu` hands the other arguments to the GPU suite (engine/bench_gpu.py)."""
    pick = argparse.ArgumentParser(add_help=False)
    pick.add_argument("--suite", choices=("cpu", "gpu"), default="cpu")
    chosen, rest = pick.parse_known_args(argv)
    if chosen.suite == "gpu":
        from engine.bench_gpu import main as gpu_main

        return gpu_main(rest)
    return cpu_main(rest)


def cpu_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--suite", choices=("cpu", "gpu"), default="cpu",
                    help="cpu: this suite; gpu: the GPU suite (--suite gpu --help)")
    ap.add_argument("--model", default="default")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workload", default=None, help="JSON list of {prompt_token_ids, max_tokens}")
    ap.add_argument("--num-requests", type=int, default=64)
    ap.add_argument("--static-batch", type=int, default=16)
    ap.add_argument("--history-tokens", type=int, default=1500)
    ap.add_argument("--skip", action="append", default=[], help="skip a result by name")
    ap.add_argument("--json", default=None, help="write the results here")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    dev = BenchDevice(args.device)
    dtype = resolve_dtype(args.dtype, dev.device)
    loaded = load_model(args.model, dtype=dtype)
    config = EngineConfig(
        model=args.model, dtype=args.dtype, device=args.device, num_threads=args.threads,
        max_num_seqs=64, max_num_batched_tokens=512, kv_cache_memory_bytes=1 << 30,
    )
    llm = LLM(core=EngineCore(config, loaded))
    nocache = LLM(core=EngineCore(EngineConfig(**{**_fields(config), "enable_prefix_caching": False}), loaded))
    baseline = hf_model(loaded, dtype, dev.device)
    work, source = load_workload(args.workload, args.num_requests, 0, loaded.config.vocab_size)
    report: dict = {
        "machine": machine_info(),
        "model": {"spec": args.model, "name": loaded.config.name, "dtype": str(dtype).removeprefix("torch.")},
        "workload": {"source": source, "num_requests": len(work),
                     "output_tokens": sum(w.max_tokens for w in work)},
        "results": {},
    }
    results = report["results"]

    def log(name: str) -> None:
        print(f"{name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)

    # Warm both sides once (allocator, kernels) so neither pays start-up in its timing.
    hearth_throughput(llm, work[:2], dev)
    hf_generate(baseline, work[:1], dev)

    num, hearth_s = hearth_throughput(llm, work, dev)
    hearth_tps = num / hearth_s
    if "throughput_vs_static_batch" not in args.skip:
        total, secs = 0, 0.0
        for i in range(0, len(work), args.static_batch):
            batch = hf_generate(baseline, work[i : i + args.static_batch], dev)
            total, secs = total + batch.output_tokens, secs + batch.seconds
        results["throughput_vs_static_batch"] = result(
            {"output_tokens": num, "seconds": round(hearth_s, 2), "tok_per_s": round(hearth_tps, 1)},
            {"output_tokens": total, "seconds": round(secs, 2), "tok_per_s": round(total / secs, 1),
             "batch_size": args.static_batch},
            hearth_tps / (total / secs),
        )
        log("throughput_vs_static_batch")
    if "throughput_vs_sequential" not in args.skip:
        total, secs = 0, 0.0
        for w in work:
            one = hf_generate(baseline, [w], dev)
            total, secs = total + one.output_tokens, secs + one.seconds
        results["throughput_vs_sequential"] = result(
            {"output_tokens": num, "seconds": round(hearth_s, 2), "tok_per_s": round(hearth_tps, 1)},
            {"output_tokens": total, "seconds": round(secs, 2), "tok_per_s": round(total / secs, 1)},
            hearth_tps / (total / secs),
        )
        log("throughput_vs_sequential")
    if "batch1_itl" not in args.skip:
        prompt = work[0].prompt_token_ids[:200]
        h = hearth_stream_latency(llm, prompt, 128, dev)
        b = hf_stream_latency(baseline, prompt, 128, dev)
        results["batch1_itl"] = result(
            {"ttft_s": round(h.ttft_s, 4), "itl_s": round(h.itl_s, 4), "prompt_tokens": len(prompt)},
            {"ttft_s": round(b.ttft_s, 4), "itl_s": round(b.itl_s, 4), "prompt_tokens": len(prompt)},
            b.itl_s / h.itl_s,
        )
        log("batch1_itl")
    if "next_turn_ttft_prefix_cache" not in args.skip:
        rng = random.Random(1)
        history = [rng.randrange(100, loaded.config.vocab_size) for _ in range(args.history_tokens)]
        turn = [rng.randrange(100, loaded.config.vocab_size) for _ in range(24)]
        on = next_turn_ttft(llm, history, turn)
        off = next_turn_ttft(nocache, history, turn)
        results["next_turn_ttft_prefix_cache"] = result(
            {"ttft_s": round(on, 4), "prefix_cache": True, "history_tokens": len(history)},
            {"ttft_s": round(off, 4), "prefix_cache": False, "history_tokens": len(history)},
            off / on,
        )
        log("next_turn_ttft_prefix_cache")

    print_table(report)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def _fields(config: EngineConfig) -> dict:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


def print_table(report: dict) -> None:
    print(f"model {report['model']['spec']} ({report['model']['dtype']}), "
          f"{report['machine']['threads']} threads, workload {report['workload']['source']}")
    print(f"{'result':32} {'hearth':>34} {'baseline':>34} {'ratio':>7}")
    for name, r in report["results"].items():
        h = ", ".join(f"{k}={v}" for k, v in r["hearth"].items() if k in ("tok_per_s", "itl_s", "ttft_s"))
        b = ", ".join(f"{k}={v}" for k, v in r["baseline"].items() if k in ("tok_per_s", "itl_s", "ttft_s"))
        print(f"{name:32} {h:>34} {b:>34} {r['ratio']:>7.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
