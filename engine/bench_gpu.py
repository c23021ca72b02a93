"""GPU suite of the engine benchmark (issue 7): every model of the run against the memory
bandwidth bound and against Hugging Face transformers on the same device, in one process.

    python -m engine.bench --suite gpu --json bench-results/gpu.json

For each model (default: SmolLM2-135M and random weights of Llama-3.2-1B's shape, bf16),
results named "<model>/<row>":
  batch1_itl        batch-1 greedy inter-token latency, Hearth vs transformers `generate` timed
                    by a streamer; ratio = transformers' ITL / Hearth's.
  batch1_bandwidth  the bytes a batch-1 decode step reads (weights as stored + the context's
                    K/V) / Hearth's step time, against the device-to-device copy bandwidth
                    measured in this run; ratio = the fraction of that bound (target 0.6 for 1B).
  throughput_vs_hf  nano-vllm's offline workload (engine/bench_workload.py) in one Hearth
                    `generate`, against transformers `generate` in left-padded static batches;
                    ratio = tokens/s over tokens/s (target 10).
and "<quant model>/gguf_vs_bf16_batch1": Hearth with GGUF Q4_1 weights kept packed vs the same
file dequantized to bf16; ratio = bf16 ITL / packed ITL (target 1). Same JSON shape as the CPU
suite, plus "targets". Every size is a flag, so a CPU test runs the whole suite in seconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from engine.bench import machine_info
from engine.bench_device import BenchDevice, CopyBandwidth
from engine.bench_gpu_sides import (
    bandwidth_side,
    build_llm,
    hearth_latency,
    hearth_throughput_side,
    hf_latency_side,
    hf_throughput_side,
)
from engine.bench_measure import hf_model
from engine.bench_report import Report, Side, error_side
from engine.bench_roofline import stored_weight_bytes
from engine.bench_workload import (
    NANO_VLLM_MAX_LEN,
    NANO_VLLM_MAX_TOKEN_ID,
    NANO_VLLM_MIN_LEN,
    NANO_VLLM_NUM_REQUESTS,
    NANO_VLLM_TEMPERATURE,
    nano_vllm_workload,
    random_prompt,
)
from engine.loader import LoadedModel, load_model
from engine.model_runner import resolve_dtype

DEFAULT_MODELS = "default,dummy:llama-1b"
ROWS = ("batch1_itl", "batch1_bandwidth", "throughput_vs_hf")
QUANT_ROW = "gguf_vs_bf16_batch1"
# Issue 7's targets. The bandwidth target is stated for the 1B shape only.
BANDWIDTH_TARGET = 0.6
BANDWIDTH_TARGET_SPECS = ("dummy:llama-1b",)
THROUGHPUT_TARGET = 10.0
QUANT_TARGET = 1.0


def model_key(spec: str) -> str:
    """Short name of a model spec in result names: "dummy:llama-1b" -> "llama-1b"."""
    if spec.startswith("dummy:"):
        return spec.removeprefix("dummy:")
    return spec if spec == "default" else Path(spec).stem or spec


class ModelBench:
    """The rows of one model: a Hearth engine and a transformers model on the same weights."""

    def __init__(self, args: argparse.Namespace, spec: str, dev: BenchDevice, report: Report):
        self.args, self.spec, self.dev, self.report = args, spec, dev, report
        self.key = model_key(spec)

    def run(self, copy: CopyBandwidth | Exception) -> None:
        rows = [r for r in ROWS if not _skipped(self.args, self.key, r)]
        try:
            loaded = load_model(self.spec, dtype=resolve_dtype(self.args.dtype, self.dev.device))
        except Exception as exc:
            self.report.fail([f"{self.key}/{r}" for r in rows], exc, self._targets())
            return
        self.report.data["model"]["models"][self.key] = {"spec": self.spec, "name": loaded.config.name}
        try:
            self._rows(loaded, rows, copy)
        finally:
            self.dev.release()  # the engine and the transformers model are gone by now

    def _rows(self, loaded: LoadedModel, rows: list[str], copy: CopyBandwidth | Exception) -> None:
        args, dev, key = self.args, self.dev, self.key
        max_token_id = min(args.max_token_id, loaded.config.vocab_size - 1)
        # The packed quantized path loads its own weights; the dequantized one reuses these.
        reuse = loaded if args.quantization == "none" else None
        hearth = _attempt(lambda: build_llm(args, self.spec, args.quantization, reuse))
        baseline = _attempt(lambda: hf_model(loaded, resolve_dtype(args.dtype, dev.device),
                                             dev.device))
        prompt = random_prompt(args.itl_prompt_len, max_token_id, seed=args.seed + 1)
        warm = random_prompt(args.itl_prompt_len, max_token_id, seed=args.seed + 2)
        h_lat = None
        if {"batch1_itl", "batch1_bandwidth"} & set(rows):  # one measurement feeds both rows
            h_lat = _attempt(lambda: hearth_latency(_need(hearth), prompt, warm, args.itl_tokens,
                                                    dev))
        targets = self._targets()
        if "batch1_itl" in rows:
            self.report.row(
                f"{key}/batch1_itl",
                lambda: _need(h_lat).as_dict(),
                lambda: hf_latency_side(_need(baseline), prompt, warm, args.itl_tokens, dev),
                lambda h, b: b["itl_s"] / h["itl_s"],
            )
        if "batch1_bandwidth" in rows:
            self.report.row(
                f"{key}/batch1_bandwidth",
                lambda: bandwidth_side(_need(hearth), _need(h_lat), _need(copy)),
                lambda: {"what": "device-to-device copy"} | _need(copy).as_dict(),
                lambda h, b: h["fraction_of_bound"],
                targets.get(f"{key}/batch1_bandwidth"),
            )
        if "throughput_vs_hf" in rows:
            work = nano_vllm_workload(args.num_requests, args.min_len, args.max_len, args.seed,
                                      max_token_id)
            self.report.row(
                f"{key}/throughput_vs_hf",
                lambda: hearth_throughput_side(_need(hearth), work, args.temperature, dev,
                                               args.seed),
                lambda: hf_throughput_side(_need(baseline), work, args.temperature,
                                           args.hf_batch_size, args.hf_order, dev),
                lambda h, b: h["tok_per_s"] / b["tok_per_s"],
                targets[f"{key}/throughput_vs_hf"],
            )

    def _targets(self) -> dict[str, float]:
        targets = {f"{self.key}/throughput_vs_hf": THROUGHPUT_TARGET}
        if self.spec in BANDWIDTH_TARGET_SPECS:
            targets[f"{self.key}/batch1_bandwidth"] = BANDWIDTH_TARGET
        return targets


def run_quant_row(args: argparse.Namespace, dev: BenchDevice, report: Report,
                  copy: CopyBandwidth | Exception) -> None:
    """Packed GGUF weights vs the same file dequantized to `--dtype`, batch 1, one engine at a
    time on the device."""
    spec = args.quant_model

    def side(quantization: str) -> Side:
        llm = build_llm(args, spec, quantization, None)
        try:
            max_token_id = min(args.max_token_id, llm.core.model_config.vocab_size - 1)
            prompt = random_prompt(args.itl_prompt_len, max_token_id, seed=args.seed + 1)
            warm = random_prompt(args.itl_prompt_len, max_token_id, seed=args.seed + 2)
            lat = hearth_latency(llm, prompt, warm, args.itl_tokens, dev)
            out = {"quantization": quantization} | lat.as_dict()
            if isinstance(copy, CopyBandwidth):
                out |= bandwidth_side(llm, lat, copy)
            else:
                out["weight_bytes"] = stored_weight_bytes(llm.core.runner.model)
            return out
        finally:
            del llm
            dev.release()

    report.row(f"{model_key(spec)}/{QUANT_ROW}", lambda: side("gguf"), lambda: side("none"),
               lambda h, b: b["itl_s"] / h["itl_s"], QUANT_TARGET)


def _attempt(fn):
    try:
        return fn()
    except Exception as exc:  # kept, and re-raised by each row that needs it
        return exc


def _need(value):
    if isinstance(value, Exception):
        raise value
    return value


def _skipped(args: argparse.Namespace, key: str, row: str) -> bool:
    return row in args.skip or f"{key}/{row}" in args.skip


# ------------------------------------------------------------------------------- the run
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m engine.bench --suite gpu",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=DEFAULT_MODELS, help="comma-separated model specs")
    ap.add_argument("--quant-model", default="default",
                    help="GGUF model of the packed-vs-dequantized row ('' skips the row)")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--attention-backend", default="auto", help="auto | torch | triton")
    ap.add_argument("--quantization", default="none", help="weights of the per-model rows")
    ap.add_argument("--threads", type=int, default=None, help="torch threads on a CPU")
    g = ap.add_argument_group("offline workload (nano-vllm's bench.py by default)")
    g.add_argument("--num-requests", type=int, default=NANO_VLLM_NUM_REQUESTS)
    g.add_argument("--min-len", type=int, default=NANO_VLLM_MIN_LEN)
    g.add_argument("--max-len", type=int, default=NANO_VLLM_MAX_LEN)
    g.add_argument("--max-token-id", type=int, default=NANO_VLLM_MAX_TOKEN_ID)
    g.add_argument("--temperature", type=float, default=NANO_VLLM_TEMPERATURE)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--hf-batch-size", type=int, default=64)
    g.add_argument("--hf-order", choices=("output_length", "arrival"), default="output_length")
    g = ap.add_argument_group("batch-1 latency")
    g.add_argument("--itl-prompt-len", type=int, default=512)
    g.add_argument("--itl-tokens", type=int, default=256)
    g = ap.add_argument_group("engine sizes (nano-vllm's defaults)")
    g.add_argument("--max-num-seqs", type=int, default=512)
    g.add_argument("--max-num-batched-tokens", type=int, default=16384)
    g.add_argument("--max-model-len", type=int, default=4096)
    g.add_argument("--kv-cache-gib", type=float, default=None, help="default: 16 on CUDA, 0.25 on CPU")
    g.add_argument("--copy-mib", type=int, default=None, help="default: 1024 on CUDA, 64 on CPU")
    g.add_argument("--copy-repeats", type=int, default=None, help="default: 50 on CUDA, 3 on CPU")
    ap.add_argument("--skip", action="append", default=[], help="a row, or <model>/<row>, to skip")
    ap.add_argument("--json", default=None, help="write the results here (after every result)")
    args = ap.parse_args(argv)
    args.models = [m.strip() for m in args.models.split(",") if m.strip()]
    if not args.models:
        ap.error("--models names no model")
    if args.itl_tokens < 2 or args.itl_prompt_len < 1:
        ap.error(f"--itl-tokens must be >= 2 and --itl-prompt-len >= 1, got {args.itl_tokens}, "
                 f"{args.itl_prompt_len}")
    if args.num_requests < 1 or not 1 <= args.min_len <= args.max_len:
        ap.error(f"need --num-requests >= 1 and 1 <= --min-len <= --max-len, got "
                 f"{args.num_requests}, {args.min_len}, {args.max_len}")
    if args.hf_batch_size < 1:
        ap.error(f"--hf-batch-size must be >= 1, got {args.hf_batch_size}")
    need = max(2 * args.max_len, args.itl_prompt_len + args.itl_tokens)
    if need > args.max_model_len:
        ap.error(f"--max-model-len {args.max_model_len} is below the {need} tokens a request "
                 "of the run can reach")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    dev = BenchDevice(args.device)
    cuda = dev.is_cuda
    if args.kv_cache_gib is None:
        args.kv_cache_gib = 16.0 if cuda else 0.25
    copy_bytes = (args.copy_mib or (1024 if cuda else 64)) * 2**20
    copy = _attempt(lambda: dev.copy_bandwidth(copy_bytes, args.copy_repeats or (50 if cuda else 3)))
    dtype = str(resolve_dtype(args.dtype, dev.device)).removeprefix("torch.")
    copy_info = copy.as_dict() if isinstance(copy, CopyBandwidth) else error_side(copy)
    header: dict = {
        "machine": machine_info() | {"device": dev.describe(), "copy_bandwidth": copy_info},
        "model": {"spec": ",".join(args.models), "name": ",".join(map(model_key, args.models)),
                  "dtype": dtype, "models": {}},
        "suite": "gpu",
        "engine": {k: getattr(args, k) for k in ("attention_backend", "quantization",
                   "max_num_seqs", "max_num_batched_tokens", "max_model_len", "kv_cache_gib")},
        "workload": {"protocol": "nano-vllm bench.py", "num_requests": args.num_requests,
                     "input_len": [args.min_len, args.max_len], "output_len": [args.min_len, args.max_len],
                     "token_ids": [0, args.max_token_id], "seed": args.seed,
                     "temperature": args.temperature, "ignore_eos": True,
                     "itl_prompt_tokens": args.itl_prompt_len, "itl_output_tokens": args.itl_tokens},
    }
    report = Report(header, args.json)
    report.log(f"device {dev.describe()}; copy bandwidth {copy_info}")
    for spec in args.models:
        ModelBench(args, spec, dev, report).run(copy)
    if args.quant_model and not _skipped(args, model_key(args.quant_model), QUANT_ROW):
        run_quant_row(args, dev, report, copy)
    report.write()
    print(f"{dev.describe()['name']} ({dev.device}), copy {copy_info.get('gb_per_s', '-')} GB/s, "
          f"{dtype}, attention {args.attention_backend}, quantization {args.quantization}")
    print(report.table())
    return 0
