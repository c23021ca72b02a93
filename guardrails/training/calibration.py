"""What the int8 calibrations share (calibrate_nanoguard.py, calibrate_judge.py): how far a
candidate's scores are from float32's, percentiles of per-row times, and the sweep over alpha."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence


def logit(p: float) -> float:
    p = min(max(p, 1e-7), 1 - 1e-7)
    return math.log(p / (1 - p))


def compare(reference: Sequence[float], scores: Sequence[float], threshold: float) -> dict:
    """Rows whose decision at `threshold` differs, and how far the logit moved (median, max)."""
    flips = [
        i
        for i, (a, b) in enumerate(zip(reference, scores, strict=True))
        if (a >= threshold) != (b >= threshold)
    ]
    moved = sorted(abs(logit(a) - logit(b)) for a, b in zip(reference, scores, strict=True))
    return {
        "flips": len(flips),
        "flipped_rows": flips,
        "logit_change_p50": round(moved[len(moved) // 2], 4),
        "logit_change_max": round(moved[-1], 4),
    }


def percentile(times: Sequence[float], q: float) -> float:
    ordered = sorted(times)
    return round(ordered[min(int(q * len(ordered)), len(ordered) - 1)], 2)


def timings(ms: Sequence[float]) -> dict:
    """{"p50", "p95"} of per-row milliseconds."""
    return {"p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95)}


def fewest_flips(by_alpha: dict[str, dict], alphas: Sequence[float]) -> float:
    """The alpha whose decisions differ from float32's on the fewest rows (ties: the smaller
    median change of the logit); `by_alpha` maps str(alpha) to compare()'s figures."""
    return min(
        alphas, key=lambda a: (by_alpha[str(a)]["flips"], by_alpha[str(a)]["logit_change_p50"])
    )


def sweep_alphas(
    alphas: Sequence[float],
    run: Callable[[float], tuple[Sequence[float], Sequence[float]]],
    reference: Sequence[float],
    threshold: float,
    ms_key: str,
) -> dict[str, dict]:
    """str(alpha) -> compare()'s figures and, under `ms_key`, the timings of `run(alpha)`,
    which returns (scores, per-row ms) of the model smoothed with that alpha; each alpha's
    figures are printed as a JSON line when measured (the sweep takes minutes)."""
    by_alpha: dict[str, dict] = {}
    for alpha in alphas:
        scores, ms = run(alpha)
        figures = compare(reference, scores, threshold)
        figures[ms_key] = timings(ms)
        by_alpha[str(alpha)] = figures
        print(json.dumps({"alpha": alpha, **figures}), flush=True)
    return by_alpha
