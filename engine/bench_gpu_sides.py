"""One side of each GPU-suite result, measured with its warm-up: Hearth's or transformers'.

Each warm-up runs different prompts from the timed run (no prefix-cache hit is carried into
the timing) and pays, outside the timing, the first-use costs: kernel compilation, graph
capture, allocator growth.
"""

from __future__ import annotations

import argparse

from engine.bench_device import BenchDevice, CopyBandwidth
from engine.bench_measure import (
    Latency,
    hearth_stream_latency,
    hearth_throughput,
    hf_generate,
    hf_stream_latency,
)
from engine.bench_report import Side
from engine.bench_roofline import BandwidthBound, mean_decode_context, stored_weight_bytes
from engine.bench_workload import Work, nano_vllm_workload
from engine.config import EngineConfig
from engine.core import EngineCore
from engine.llm import LLM
from engine.loader import LoadedModel

WARMUP_TOKENS = 8
WARMUP_REQUESTS = 16


def build_llm(args: argparse.Namespace, spec: str, quantization: str,
              loaded: LoadedModel | None) -> LLM:
    """A Hearth engine with the run's settings; `loaded` weights are reused when given."""
    config = EngineConfig(
        model=spec, dtype=args.dtype, device=args.device, quantization=quantization,
        attention_backend=args.attention_backend, max_num_seqs=args.max_num_seqs,
        max_num_batched_tokens=args.max_num_batched_tokens, max_model_len=args.max_model_len,
        kv_cache_memory_bytes=int(args.kv_cache_gib * 2**30), num_threads=args.threads,
    )
    return LLM(core=EngineCore(config, loaded))


def hearth_latency(llm: LLM, prompt: list[int], warm: list[int], num_tokens: int,
                   dev: BenchDevice) -> Latency:
    hearth_stream_latency(llm, warm, min(WARMUP_TOKENS, num_tokens), dev)
    return hearth_stream_latency(llm, prompt, num_tokens, dev)


def bandwidth_side(llm: LLM, lat: Latency, copy: CopyBandwidth) -> Side:
    """Bytes a batch-1 step of this engine reads, over its measured step time."""
    runner = llm.core.runner
    context = mean_decode_context(lat.prompt_tokens, lat.output_tokens)
    kv_per_token = runner.kv_bytes_per_block() // runner.block_size
    bound = BandwidthBound(stored_weight_bytes(runner.model), round(context * kv_per_token),
                           lat.itl_s, copy.bytes_per_s)
    return bound.as_dict() | {"mean_context_tokens": context, "kv_bytes_per_token": kv_per_token}


def hf_latency_side(model, prompt: list[int], warm: list[int], num_tokens: int,
                    dev: BenchDevice) -> Side:
    hf_stream_latency(model, warm, min(WARMUP_TOKENS, num_tokens), dev)
    lat = hf_stream_latency(model, prompt, num_tokens, dev)
    return {"impl": "transformers generate + streamer"} | lat.as_dict()


def hearth_throughput_side(llm: LLM, work: list[Work], temperature: float,
                           dev: BenchDevice, seed: int) -> Side:
    """One `generate` over the whole workload, as nano-vllm times it."""
    lengths = [len(w.prompt_token_ids) for w in work]
    warm = nano_vllm_workload(min(WARMUP_REQUESTS, len(work)), min(lengths), max(lengths),
                              seed=seed + 1000, max_token_id=max(max(w.prompt_token_ids) for w in work))
    hearth_throughput(llm, [Work(w.prompt_token_ids, WARMUP_TOKENS) for w in warm], dev, temperature)
    num, seconds = hearth_throughput(llm, work, dev, temperature)
    return {"output_tokens": num, "prompt_tokens": sum(lengths), "seconds": seconds,
            "tok_per_s": num / seconds, "temperature": temperature,
            "max_num_seqs": llm.core.config.max_num_seqs,
            "max_num_batched_tokens": llm.core.config.max_num_batched_tokens}


def hf_throughput_side(model, work: list[Work], temperature: float, batch_size: int,
                       order: str, dev: BenchDevice) -> Side:
    """Static left-padded batches of `batch_size`. "output_length" order groups requests of
    similar output length (longest first), which wastes the fewest padded steps a static batch
    can; "arrival" keeps the workload's order."""
    if order not in ("output_length", "arrival"):
        raise ValueError(f"order must be 'output_length' or 'arrival', got {order!r}")
    queue = list(work)
    if order == "output_length":
        queue.sort(key=lambda w: w.max_tokens, reverse=True)
    hf_generate(model, [Work(queue[-1].prompt_token_ids, WARMUP_TOKENS)], dev, temperature)
    batches = [queue[i : i + batch_size] for i in range(0, len(queue), batch_size)]
    runs = [hf_generate(model, b, dev, temperature) for b in batches]
    num = sum(r.output_tokens for r in runs)
    seconds = sum(r.seconds for r in runs)
    return {"output_tokens": num, "generated_tokens": sum(r.generated_tokens for r in runs),
            "seconds": seconds, "tok_per_s": num / seconds, "batch_size": batch_size,
            "num_batches": len(batches), "order": order, "padding": "left",
            "temperature": temperature}
