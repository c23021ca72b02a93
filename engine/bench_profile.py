"""Where a decode step's time goes: torch.profiler over a streamed generation, per step.

    python -m engine.bench_profile --model dummy:llama-1b --batch 1 --tokens 64 [--json F]

Prints the wall time of a step, the device kernels a step launches and the time they run, the
CUDA-graph launches a step makes (graph replay is working when there is one and few other
launches), and the kernels that cost most. On a CPU there are no device rows: the table lists
the torch operators instead, which still shows what the host spends a step on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass

import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile

from engine.config import EngineConfig
from engine.llm import LLM
from engine.sampling_params import SamplingParams

LAUNCHES = ("cudaLaunchKernel", "cuLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernelEx")
GRAPH_LAUNCHES = ("cudaGraphLaunch", "cuGraphLaunch")


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    calls: int
    total_us: float

    def as_dict(self, steps: int) -> dict:
        return {"name": self.name, "calls_per_step": round(self.calls / steps, 2),
                "us_per_step": round(self.total_us / steps, 2),
                "us_per_call": round(self.total_us / max(self.calls, 1), 2)}


def _device_us(evt) -> float:
    for attr in ("self_device_time_total", "self_cuda_time_total"):
        if hasattr(evt, attr):
            return float(getattr(evt, attr))
    return 0.0


def summarize(events, steps: int, wall_s: float, top: int) -> dict:
    """One step's figures from `prof.key_averages()`: device kernels, launches, top rows."""
    kernels, host = [], []
    launches = graph_launches = 0
    for evt in events:
        if evt.device_type == DeviceType.CUDA:
            kernels.append(Row(evt.key, evt.count, _device_us(evt)))
            continue
        if evt.key in LAUNCHES:
            launches += evt.count
        elif evt.key in GRAPH_LAUNCHES:
            graph_launches += evt.count
        host.append(Row(evt.key, evt.count, float(evt.self_cpu_time_total)))
    rows = kernels or host
    rows.sort(key=lambda r: r.total_us, reverse=True)
    device_us = sum(r.total_us for r in kernels)
    return {
        "steps": steps,
        "wall_us_per_step": round(wall_s / steps * 1e6, 1),
        "kernels_per_step": round(sum(r.calls for r in kernels) / steps, 1),
        "kernel_us_per_step": round(device_us / steps, 1),
        "device_busy_fraction": round(device_us / (wall_s * 1e6), 3) if kernels else None,
        "kernel_launches_per_step": round(launches / steps, 1),
        "graph_launches_per_step": round(graph_launches / steps, 2),
        "rows": "device kernels" if kernels else "host operators (self CPU time)",
        "top": [r.as_dict(steps) for r in rows[:top]],
    }


def run(args: argparse.Namespace) -> dict:
    config = EngineConfig(model=args.model, dtype=args.dtype, device=args.device,
                          max_num_seqs=args.batch, max_model_len=args.max_model_len,
                          attention_backend=args.attention_backend, quantization=args.quantization,
                          cuda_graphs=args.cuda_graphs, layer_kernels=args.layer_kernels,
                          kv_cache_memory_bytes=args.kv_cache_mib << 20,
                          max_num_batched_tokens=max(args.prompt_len * args.batch, 512))
    llm = LLM(config)
    vocab = llm.core.model_config.vocab_size
    cuda = llm.core.runner.device.type == "cuda"

    def prompts(seed: int) -> list[list[int]]:
        g = torch.Generator().manual_seed(seed)
        return torch.randint(0, vocab, (args.batch, args.prompt_len), generator=g).tolist()

    def sync() -> None:
        if cuda:
            torch.cuda.synchronize()

    # Warm-up on other prompts: compilation, graph capture and allocator growth stay out.
    llm.generate(prompts(1), SamplingParams(max_tokens=8, temperature=0.0, ignore_eos=True))
    params = SamplingParams(max_tokens=args.tokens + 1, temperature=0.0, ignore_eos=True)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    prof = profile(activities=activities)
    seen = [0]
    start = [0.0]

    def on_output(_) -> None:
        # The batch's first tokens end the prefill step: profile the decode steps only.
        seen[0] += 1
        if seen[0] == args.batch:
            sync()
            prof.start()
            start[0] = time.perf_counter()

    llm.generate(prompts(2), params, on_output=on_output)
    sync()
    wall = time.perf_counter() - start[0]
    prof.stop()
    steps = seen[0] // args.batch - 1
    if steps != args.tokens:
        raise RuntimeError(f"expected {args.tokens} decode steps, saw {steps}")
    runner = llm.core.runner
    setup = {"model": args.model, "device": str(runner.device),
             "dtype": str(runner.dtype).removeprefix("torch."), "batch": args.batch,
             "prompt_len": args.prompt_len, "graphs": runner.graphs is not None,
             "layer_kernels": runner.layer_kernels}
    return setup | summarize(prof.key_averages(), steps, wall, args.top)


def table(result: dict) -> str:
    lines = [f"{result['model']} on {result['device']} ({result['dtype']}), batch "
             f"{result['batch']}, prompt {result['prompt_len']}, graphs {result['graphs']}, layer "
             f"kernels {result['layer_kernels']}: "
             f"{result['wall_us_per_step']} us a decode step, {result['kernels_per_step']} kernels "
             f"({result['kernel_us_per_step']} us), {result['kernel_launches_per_step']} kernel "
             f"launches and {result['graph_launches_per_step']} graph launches a step",
             f"top {result['rows']}:", f"{'us/step':>9} {'calls/step':>10} {'us/call':>8}  name"]
    for r in result["top"]:
        lines.append(f"{r['us_per_step']:>9} {r['calls_per_step']:>10} {r['us_per_call']:>8}  "
                     f"{r['name'][:100]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench_profile",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="dummy:llama-1b")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--dtype", default="auto")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--prompt-len", type=int, default=512)
    ap.add_argument("--tokens", type=int, default=64, help="decode steps profiled")
    ap.add_argument("--max-model-len", type=int, default=2048)
    ap.add_argument("--kv-cache-mib", type=int, default=1024)
    ap.add_argument("--attention-backend", default="auto")
    ap.add_argument("--quantization", default="none")
    ap.add_argument("--cuda-graphs", default="auto")
    ap.add_argument("--layer-kernels", default="auto", help="auto | torch | triton")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", default=None, help="also write the result here")
    args = ap.parse_args(argv)
    if args.batch < 1 or args.tokens < 1 or args.prompt_len < 1:
        ap.error("--batch, --tokens and --prompt-len must be at least 1")
    if args.prompt_len + args.tokens + 1 > args.max_model_len:
        ap.error(f"--max-model-len {args.max_model_len} is below prompt + tokens + 1")
    result = run(args)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
