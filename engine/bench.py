"""Benchmark: Hearth's engine against Hugging Face transformers on the same model, dtype,
threads and workload, in one process and one run.

    python -m engine.bench --json bench-results/engine.json

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
from dataclasses import dataclass
from pathlib import Path

import torch

from engine.config import EngineConfig
from engine.core import EngineCore
from engine.llm import LLM
from engine.loader import LoadedModel, load_model
from engine.model_runner import resolve_dtype
from engine.outputs import RequestOutput
from engine.sampling_params import SamplingParams

SHARED_WORKLOAD = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "workload.json"


@dataclass(slots=True)
class Work:
    prompt_token_ids: list[int]
    max_tokens: int


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


# ------------------------------------------------------------------------------- baseline
def hf_model(loaded: LoadedModel, dtype: torch.dtype, device: str):
    """The same weights in transformers' own Llama/Qwen2 implementation."""
    import transformers

    c = loaded.config
    common = dict(
        vocab_size=c.vocab_size, hidden_size=c.hidden_size, intermediate_size=c.intermediate_size,
        num_hidden_layers=c.num_layers, num_attention_heads=c.num_heads,
        num_key_value_heads=c.num_kv_heads, max_position_embeddings=c.max_position_embeddings,
        rms_norm_eps=c.rms_norm_eps, rope_theta=c.rope_theta,
        tie_word_embeddings=c.tie_word_embeddings,
    )
    if c.architecture == "qwen2":
        cfg = transformers.Qwen2Config(**common)
        cls = transformers.Qwen2ForCausalLM
    else:
        cfg = transformers.LlamaConfig(**common, head_dim=c.head_dim)
        cls = transformers.LlamaForCausalLM
    model = cls(cfg).to(dtype)
    missing, unexpected = model.load_state_dict(loaded.weights, strict=False)
    if unexpected or [m for m in missing if m != "lm_head.weight"]:
        raise RuntimeError(f"weights do not fit transformers: {missing[:3]} {unexpected[:3]}")
    return model.to(device).eval()


def hf_generate(model, batch: list[Work], device: str) -> tuple[int, float]:
    """Static batch: left-padded, generates max(max_tokens) for all, EOS ignored."""
    pad = 0
    longest = max(len(w.prompt_token_ids) for w in batch)
    ids = torch.tensor([[pad] * (longest - len(w.prompt_token_ids)) + w.prompt_token_ids for w in batch])
    mask = torch.tensor([[0] * (longest - len(w.prompt_token_ids)) + [1] * len(w.prompt_token_ids) for w in batch])
    new = max(w.max_tokens for w in batch)
    t0 = time.perf_counter()
    with torch.inference_mode():
        out = model.generate(
            input_ids=ids.to(device), attention_mask=mask.to(device), max_new_tokens=new,
            min_new_tokens=new, do_sample=False, pad_token_id=pad, eos_token_id=None,
        )
    elapsed = time.perf_counter() - t0
    assert out.shape[1] == longest + new
    return sum(w.max_tokens for w in batch), elapsed


def hf_stream_latency(model, prompt: list[int], max_tokens: int, device: str) -> tuple[float, float]:
    """(TTFT, mean inter-token latency) of transformers generate, timed by a streamer."""
    from transformers.generation.streamers import BaseStreamer

    class Clock(BaseStreamer):
        def __init__(self) -> None:
            self.times: list[float] = []

        def put(self, value) -> None:
            self.times.append(time.perf_counter())

        def end(self) -> None:
            pass

    clock = Clock()
    t0 = time.perf_counter()
    with torch.inference_mode():
        model.generate(
            input_ids=torch.tensor([prompt], device=device), max_new_tokens=max_tokens,
            min_new_tokens=max_tokens, do_sample=False, streamer=clock, eos_token_id=None,
            pad_token_id=0,
        )
    stamps = clock.times[1:]  # the first put() is the prompt itself
    return stamps[0] - t0, (stamps[-1] - stamps[0]) / (len(stamps) - 1)


# ------------------------------------------------------------------------------- hearth
def hearth_throughput(llm: LLM, work: list[Work]) -> tuple[int, float]:
    params = [SamplingParams(max_tokens=w.max_tokens, temperature=0.0, ignore_eos=True) for w in work]
    t0 = time.perf_counter()
    results = llm.generate([w.prompt_token_ids for w in work], params)
    elapsed = time.perf_counter() - t0
    num = sum(len(r.token_ids) for r in results)
    assert num == sum(w.max_tokens for w in work)
    return num, elapsed


def hearth_stream_latency(llm: LLM, prompt: list[int], max_tokens: int) -> tuple[float, float]:
    stamps: list[float] = []

    def tick(_: RequestOutput) -> None:
        stamps.append(time.perf_counter())

    t0 = time.perf_counter()
    llm.generate(
        [prompt], SamplingParams(max_tokens=max_tokens, temperature=0.0, ignore_eos=True),
        on_output=tick,
    )
    return stamps[0] - t0, (stamps[-1] - stamps[0]) / (len(stamps) - 1)


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
    ap = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n")[0])
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
    dtype = resolve_dtype(args.dtype, torch.device(args.device))
    loaded = load_model(args.model, dtype=dtype)
    config = EngineConfig(
        model=args.model, dtype=args.dtype, device=args.device, num_threads=args.threads,
        max_num_seqs=64, max_num_batched_tokens=512, kv_cache_memory_bytes=1 << 30,
    )
    llm = LLM(core=EngineCore(config, loaded))
    nocache = LLM(core=EngineCore(EngineConfig(**{**_fields(config), "enable_prefix_caching": False}), loaded))
    baseline = hf_model(loaded, dtype, args.device)
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
    hearth_throughput(llm, work[:2])
    hf_generate(baseline, work[:1], args.device)

    num, hearth_s = hearth_throughput(llm, work)
    hearth_tps = num / hearth_s
    if "throughput_vs_static_batch" not in args.skip:
        total, secs = 0, 0.0
        for i in range(0, len(work), args.static_batch):
            n, s = hf_generate(baseline, work[i : i + args.static_batch], args.device)
            total, secs = total + n, secs + s
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
            n, s = hf_generate(baseline, [w], args.device)
            total, secs = total + n, secs + s
        results["throughput_vs_sequential"] = result(
            {"output_tokens": num, "seconds": round(hearth_s, 2), "tok_per_s": round(hearth_tps, 1)},
            {"output_tokens": total, "seconds": round(secs, 2), "tok_per_s": round(total / secs, 1)},
            hearth_tps / (total / secs),
        )
        log("throughput_vs_sequential")
    if "batch1_itl" not in args.skip:
        prompt = work[0].prompt_token_ids[:200]
        h_ttft, h_itl = hearth_stream_latency(llm, prompt, 128)
        b_ttft, b_itl = hf_stream_latency(baseline, prompt, 128, args.device)
        results["batch1_itl"] = result(
            {"ttft_s": round(h_ttft, 4), "itl_s": round(h_itl, 4), "prompt_tokens": len(prompt)},
            {"ttft_s": round(b_ttft, 4), "itl_s": round(b_itl, 4), "prompt_tokens": len(prompt)},
            b_itl / h_itl,
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
