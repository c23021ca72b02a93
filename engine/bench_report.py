"""The benchmark report as it fills in: results, targets, errors, written after every result.

A result is PROTOCOL.md's {"hearth", "baseline", "ratio"} (ratio > 1 = Hearth better). Each
side is measured on its own: when one side fails (an engine setting not implemented yet, an
out-of-memory), that side holds {"error": "..."}, the ratio is null and the run goes on. The
JSON is rewritten after every result, so a run cut short still leaves what it measured.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Side = dict[str, Any]


def error_side(exc: BaseException) -> Side:
    return {"error": f"{type(exc).__name__}: {exc}"[:500]}


def tidy(value: Any) -> Any:
    """Floats to 6 significant digits, recursively: measured noise is not worth more."""
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: tidy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [tidy(v) for v in value]
    return value


class Report:
    """The run's JSON document; `row` measures one result and records it."""

    def __init__(self, header: dict, json_path: str | None) -> None:
        self.data: dict = {**header, "results": {}, "targets": {}}
        self.json_path = Path(json_path) if json_path else None
        self.started = time.perf_counter()

    @property
    def results(self) -> dict:
        return self.data["results"]

    def row(
        self,
        name: str,
        hearth: Callable[[], Side],
        baseline: Callable[[], Side],
        ratio: Callable[[Side, Side], float],
        min_ratio: float | None = None,
    ) -> None:
        h, b = _measure(hearth), _measure(baseline)
        r = None if "error" in h or "error" in b else ratio(h, b)
        self.results[name] = {"hearth": h, "baseline": b, "ratio": r}
        if min_ratio is not None:
            self.data["targets"][name] = {"min_ratio": min_ratio, "met": r is not None and r >= min_ratio}
        self.log(f"{name}: {json.dumps(tidy(self.results[name]))}")
        self.write()

    def fail(self, names: list[str], exc: BaseException, targets: dict[str, float]) -> None:
        """Record results that could not be measured at all (the model did not load)."""
        for name in names:
            self.row(name, lambda: error_side(exc), lambda: error_side(exc), lambda h, b: 0.0,
                     targets.get(name))

    def log(self, message: str) -> None:
        print(f"[{time.perf_counter() - self.started:8.1f}s] {message}", file=sys.stderr, flush=True)

    def write(self) -> None:
        if self.json_path is None:
            return
        self.json_path.parent.mkdir(parents=True, exist_ok=True)
        self.json_path.write_text(json.dumps(tidy(self.data), indent=2) + "\n")

    def table(self) -> str:
        lines = [f"{'result':34} {'hearth':>44} {'baseline':>44} {'ratio':>7}  target"]
        for name, r in self.results.items():
            ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}"
            target = self.data["targets"].get(name)
            mark = ""
            if target is not None:
                mark = f">= {target['min_ratio']:g} {'met' if target['met'] else 'MISSED'}"
            lines.append(f"{name:34} {_summary(r['hearth']):>44} {_summary(r['baseline']):>44} "
                         f"{ratio:>7}  {mark}")
        return "\n".join(lines)


_SUMMARY = {
    "itl_s": lambda v: f"itl {v * 1e3:.3g} ms",
    "tok_per_s": lambda v: f"{v:.4g} tok/s",
    "gb_per_s": lambda v: f"{v:.4g} GB/s",
    "fraction_of_bound": lambda v: f"{v:.1%} of bound",
}


def _summary(side: Side) -> str:
    if "error" in side:
        return side["error"][:44]
    return ", ".join(show(side[k]) for k, show in _SUMMARY.items() if k in side)[:44]


def _measure(fn: Callable[[], Side]) -> Side:
    try:
        return fn()
    except Exception as exc:  # a failed side is a recorded result, not the end of the run
        return error_side(exc)
