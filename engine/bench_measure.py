"""The measurements both benchmark suites take: streamed latency and offline throughput, of
Hearth and of Hugging Face transformers on the same weights.

Every span is timed through a BenchDevice, so on a GPU it ends only when the device's work
has: the wall clock with a synchronize at each end. Streamed token times are host stamps taken
when a token reaches the host, which already waits for the step that made it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import torch

from engine.bench_device import BenchDevice
from engine.bench_workload import Work
from engine.llm import LLM
from engine.loader import LoadedModel
from engine.outputs import RequestOutput
from engine.sampling_params import SamplingParams


@dataclass(frozen=True, slots=True)
class Latency:
    """Time to the first streamed token and mean gap between the following ones."""

    ttft_s: float
    itl_s: float
    prompt_tokens: int
    output_tokens: int

    def as_dict(self) -> dict:
        return {"ttft_s": round(self.ttft_s, 5), "itl_s": round(self.itl_s, 6),
                "prompt_tokens": self.prompt_tokens, "output_tokens": self.output_tokens}


def _latency(start: float, stamps: list[float], prompt_tokens: int) -> Latency:
    if len(stamps) < 2:
        raise ValueError(f"need at least 2 streamed tokens to time the gaps, got {len(stamps)}")
    itl = (stamps[-1] - stamps[0]) / (len(stamps) - 1)
    return Latency(stamps[0] - start, itl, prompt_tokens, len(stamps))


# ------------------------------------------------------------------------------- hearth
def hearth_stream_latency(llm: LLM, prompt: list[int], max_tokens: int, dev: BenchDevice) -> Latency:
    """Batch-1 greedy decode, EOS ignored; one stamp per streamed token."""
    stamps: list[float] = []

    def tick(_: RequestOutput) -> None:
        stamps.append(time.perf_counter())

    params = SamplingParams(max_tokens=max_tokens, temperature=0.0, ignore_eos=True)
    dev.synchronize()
    start = time.perf_counter()
    llm.generate([prompt], params, on_output=tick)
    return _latency(start, stamps, len(prompt))


def hearth_throughput(
    llm: LLM, work: list[Work], dev: BenchDevice, temperature: float = 0.0
) -> tuple[int, float]:
    """(output tokens, seconds) of one generate call over the whole workload, EOS ignored."""
    params = [
        SamplingParams(max_tokens=w.max_tokens, temperature=temperature, ignore_eos=True)
        for w in work
    ]
    with dev.wall() as watch:
        results = llm.generate([w.prompt_token_ids for w in work], params)
    num = sum(len(r.token_ids) for r in results)
    if num != sum(w.max_tokens for w in work):
        raise RuntimeError(f"Hearth made {num} tokens, the workload asks for "
                           f"{sum(w.max_tokens for w in work)}")
    return num, watch.seconds


# ------------------------------------------------------------------------------- baseline
def hf_model(loaded: LoadedModel, dtype: torch.dtype, device: torch.device | str):
    """The same weights in transformers' own Llama/Qwen2 implementation, built on `device`
    (initialising a 1B model on a CPU first would cost more than the benchmark)."""
    import transformers

    c = loaded.config
    cfg: Any
    cls: Any
    common: dict[str, Any] = dict(
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
    with torch.device(device):
        model = cls(cfg).to(dtype)
    missing, unexpected = model.load_state_dict(loaded.weights, strict=False)
    if unexpected or [m for m in missing if m != "lm_head.weight"]:
        raise RuntimeError(f"weights do not fit transformers: {missing[:3]} {unexpected[:3]}")
    return model.eval()


def _sampling_kwargs(temperature: float) -> dict:
    if temperature == 0.0:
        return {"do_sample": False}
    # top_k=0 turns off transformers' default top-k of 50: the same work as Hearth's sampler.
    return {"do_sample": True, "temperature": temperature, "top_k": 0, "top_p": 1.0}


@dataclass(frozen=True, slots=True)
class HFBatch:
    """A static batch: every row generates the batch's longest output."""

    output_tokens: int  # asked for by the requests (what throughput counts)
    generated_tokens: int  # made, padding rows' extra tokens included
    seconds: float


def hf_generate(
    model, batch: list[Work], dev: BenchDevice, temperature: float = 0.0
) -> HFBatch:
    """One left-padded static batch, EOS ignored."""
    pad = 0
    longest = max(len(w.prompt_token_ids) for w in batch)
    ids = torch.tensor([[pad] * (longest - len(w.prompt_token_ids)) + w.prompt_token_ids for w in batch])
    mask = torch.tensor([[0] * (longest - len(w.prompt_token_ids)) + [1] * len(w.prompt_token_ids) for w in batch])
    new = max(w.max_tokens for w in batch)
    with dev.wall() as watch, torch.inference_mode():
        out = model.generate(
            input_ids=ids.to(dev.device), attention_mask=mask.to(dev.device), max_new_tokens=new,
            min_new_tokens=new, pad_token_id=pad, eos_token_id=None, **_sampling_kwargs(temperature),
        )
    if out.shape[1] != longest + new:
        raise RuntimeError(f"transformers made {out.shape[1] - longest} tokens per row, asked {new}")
    return HFBatch(sum(w.max_tokens for w in batch), new * len(batch), watch.seconds)


def hf_stream_latency(model, prompt: list[int], max_tokens: int, dev: BenchDevice) -> Latency:
    """Batch-1 greedy generate timed by a streamer (transformers hands it each new token on the
    host, after the step that made it)."""
    from transformers.generation.streamers import BaseStreamer

    class Clock(BaseStreamer):
        def __init__(self) -> None:
            self.times: list[float] = []

        def put(self, value) -> None:
            self.times.append(time.perf_counter())

        def end(self) -> None:
            pass

    clock = Clock()
    ids = torch.tensor([prompt], device=dev.device)
    dev.synchronize()
    start = time.perf_counter()
    with torch.inference_mode():
        model.generate(
            input_ids=ids, max_new_tokens=max_tokens, min_new_tokens=max_tokens, do_sample=False,
            streamer=clock, eos_token_id=None, pad_token_id=0,
        )
    return _latency(start, clock.times[1:], len(prompt))  # the first put() is the prompt itself
