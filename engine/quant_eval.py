"""python -m engine.quant_eval: the quality cost of weight-only quantization, on a fixed text.

For each quantization mode the same model runs the same ~1,900-token English passage
(engine/data/quant_eval.txt) as chunked prefill through the engine's own ModelRunner, and we
report its perplexity and how far its logits are from the "none" run (weights dequantized to
the run's dtype): max and mean absolute difference, and the share of positions whose top token
agrees. "gguf" keeps the file's own quantized values, so against "none" it measures the packed
path's arithmetic only (exactly 0 with the torch reference on a CPU); "int8" requantizes the
dequantized weights per output channel and measures that rounding on top.

The figures depend on the model, the text and the dtype, not on the device that computes them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from engine.config import EngineConfig
from engine.layers.attention import AttentionMetadata, PrefillSeq
from engine.layers.quant_linear import QuantLinear
from engine.loader import LoadedModel, load_model
from engine.model_runner import ModelRunner, resolve_device, resolve_dtype

TEXT_PATH = Path(__file__).parent / "data" / "quant_eval.txt"
MODES = ("none", "gguf", "int8")


@dataclass(slots=True)
class QuantEvalRow:
    mode: str
    num_tokens: int = 0
    weight_bytes: int = 0
    perplexity: float | None = None
    max_abs_logit_error: float | None = None  # vs the "none" run
    mean_abs_logit_error: float | None = None
    top1_agreement: float | None = None
    error: str | None = None


def weight_bytes(model: torch.nn.Module) -> int:
    """Bytes of the weights a forward pass reads: parameters plus packed buffers."""
    total = sum(p.numel() * p.element_size() for p in model.parameters())
    for module in model.modules():
        if isinstance(module, QuantLinear):
            total += sum(t.numel() * t.element_size() for t in module.packed.tensors.values())
    return total


def _logits(runner: ModelRunner, ids: torch.Tensor, start: int, end: int) -> torch.Tensor:
    """Logits (end - start, V) float32 of tokens start:end, the cache holding tokens < start.

    Slots are the positions themselves (block i holds positions i*bs ..), so the block table
    of a sequence of n tokens is simply blocks 0 .. ceil(n / bs) - 1.
    """
    dev = runner.device
    n = end - start
    num_blocks = -(-end // runner.block_size)
    table = torch.arange(num_blocks, device=dev) if start else None
    positions = torch.arange(start, end, device=dev)
    meta = AttentionMetadata(positions, [], [PrefillSeq(0, n, start, table)])
    hidden = runner.model(ids[start:end].to(dev), positions, runner.kv_caches, meta)
    return runner.model.compute_logits(hidden)


@torch.inference_mode()
def evaluate(
    loaded: LoadedModel,
    token_ids: list[int],
    modes: tuple[str, ...] = MODES,
    *,
    model_spec: str = "default",
    device: str = "auto",
    dtype: str = "auto",
    chunk: int = 256,
) -> list[QuantEvalRow]:
    """One row per mode; "none" always runs first as the reference (added when not asked)."""
    if len(token_ids) < 2:
        raise ValueError(f"need at least 2 tokens to score, got {len(token_ids)}")
    if chunk <= 0:
        raise ValueError(f"chunk must be positive, got {chunk}")
    bad = [m for m in modes if m not in MODES]
    if bad:
        raise ValueError(f"unknown quantization mode(s) {bad}; choose from {', '.join(MODES)}")
    order = ["none", *[m for m in modes if m != "none"]]
    block_size = 16
    num_kv_blocks = -(-len(token_ids) // block_size) + 1
    max_len = len(token_ids) + block_size
    runners: dict[str, ModelRunner] = {}
    rows = {m: QuantEvalRow(m, num_tokens=len(token_ids)) for m in order}
    for mode in order:
        config = EngineConfig(
            model=model_spec,
            device=device,
            dtype=dtype,
            quantization=mode,
            block_size=block_size,
            num_kv_blocks=num_kv_blocks,
        )
        try:
            runners[mode] = ModelRunner(config, loaded.config, loaded.weights, max_len)
        except ValueError as exc:  # a quantization this model or device cannot run
            rows[mode].error = str(exc)
            continue
        rows[mode].weight_bytes = weight_bytes(runners[mode].model)
    if "none" not in runners:
        raise RuntimeError(f"the unquantized reference run failed: {rows['none'].error}")
    ids = torch.tensor(token_ids, dtype=torch.long)
    nll = dict.fromkeys(runners, 0.0)
    max_err = dict.fromkeys(runners, 0.0)
    sum_err = dict.fromkeys(runners, 0.0)
    agree = dict.fromkeys(runners, 0)
    vocab = loaded.config.vocab_size
    for start in range(0, len(token_ids), chunk):
        end = min(start + chunk, len(token_ids))
        targets = ids[start + 1 : end + 1]  # the last token of the text has no target
        ref = None
        for mode, runner in runners.items():
            logits = _logits(runner, ids, start, end).cpu()
            scored = logits[: len(targets)]
            nll[mode] += F.cross_entropy(scored, targets, reduction="sum").item()
            if ref is None:
                ref = logits
            diff = (logits - ref).abs()
            max_err[mode] = max(max_err[mode], diff.max().item())
            sum_err[mode] += diff.double().sum().item()
            agree[mode] += int((logits.argmax(-1) == ref.argmax(-1)).sum().item())
    num_scored = len(token_ids) - 1
    for mode in runners:
        row = rows[mode]
        row.perplexity = math.exp(nll[mode] / num_scored)
        row.max_abs_logit_error = max_err[mode]
        row.mean_abs_logit_error = sum_err[mode] / (len(token_ids) * vocab)
        row.top1_agreement = agree[mode] / len(token_ids)
    return [rows[m] for m in order]


def _table(rows: list[QuantEvalRow], header: str) -> str:
    lines = [
        header,
        f"{'mode':<6} {'weights MB':>10} {'perplexity':>10} {'max |dlogit|':>12} "
        f"{'mean |dlogit|':>13} {'top-1 agree':>11}",
    ]
    for r in rows:
        if r.error is not None:
            lines.append(f"{r.mode:<6} error: {r.error}")
            continue
        lines.append(
            f"{r.mode:<6} {r.weight_bytes / 1e6:>10.1f} {r.perplexity:>10.4f} "
            f"{r.max_abs_logit_error:>12.3e} {r.mean_abs_logit_error:>13.3e} "
            f"{100 * (r.top1_agreement or 0.0):>10.2f}%"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.quant_eval", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--model", default="default", help="model spec (default: SmolLM2 Q4_1 GGUF)"
    )
    parser.add_argument("--device", default="auto")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated, of none,gguf,int8"
    )
    parser.add_argument(
        "--max-tokens", type=int, default=None, help="score only the first N tokens"
    )
    parser.add_argument("--chunk", type=int, default=256, help="prefill chunk size")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    device = resolve_device(args.device)
    loaded = load_model(args.model, dtype=resolve_dtype(args.dtype, device))
    token_ids = loaded.tokenizer.encode(TEXT_PATH.read_text(encoding="utf-8"))
    if args.max_tokens is not None:
        token_ids = token_ids[: args.max_tokens]
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    try:
        rows = evaluate(
            loaded,
            token_ids,
            modes,
            model_spec=args.model,
            device=args.device,
            dtype=args.dtype,
            chunk=args.chunk,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
    else:
        dtype = resolve_dtype(args.dtype, device)
        header = (
            f"{loaded.config.name or args.model} on {device} ({dtype}), {len(token_ids)} tokens"
        )
        print(_table(rows, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
