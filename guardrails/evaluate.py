"""Measure the input rails on a labelled dataset (PROTOCOL.md's command-line contract).

    python -m guardrails.evaluate --dataset FILE.jsonl [--json] [--predictions OUT.jsonl]
                                  [--rails a,b,c] [--threads N] [--also-order c,a,b]

Rows are `{text, label, ...}` with label 1 = should be blocked (extra fields ignored). Every
enabled rail runs on every row so each gets its own precision / recall / F1 / false-positive
rate / latency; the "pipeline" figures are those of `check_input`, which runs the rails in
order, skips a gated rail whose gate is not met, and stops at the first block (its latency is
the sum of the rails it ran). The rails' MiniLM is built as the app builds it
(guardrails/models/rail_embedder.py: bf16 linear layers on a CPU with native bf16).

`--also-order` names the same rails in another order and adds that pipeline's figures
("also_order"), computed from the same per-rail measurements, with how many rows it decides as
the listed order does: two orders compare without one machine's drift between two runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from guardrails.base import Action, Verdict
from guardrails.embedding import EmbedFn
from guardrails.errors import DatasetError, GuardrailError, InvalidSettingError
from guardrails.jsonl import jsonl_objects, write_jsonl
from guardrails.pipeline import GuardrailPipeline, resolve_backend
from guardrails.settings import GuardrailSettings


@dataclass
class _Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, blocked: bool, label: int, latency_ms: float) -> None:
        if blocked:
            self.tp += label
            self.fp += 1 - label
        else:
            self.fn += label
            self.tn += 1 - label
        self.latencies_ms.append(latency_ms)

    def summary(self) -> dict[str, float | int]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        fpr = self.fp / (self.fp + self.tn) if self.fp + self.tn else 0.0
        return {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "false_positive_rate": round(fpr, 4),
            "latency_p50_ms": round(percentile(self.latencies_ms, 50), 3),
            "latency_p95_ms": round(percentile(self.latencies_ms, 95), 3),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
        }


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil(n * q / 100)
    return ordered[int(rank) - 1]


def dataset_rows(path: Path) -> list[dict]:
    """The file's rows, each checked to hold a string `text` and a `label` of 0 or 1 (a
    boolean label is taken as 0 or 1); other fields are kept."""
    rows: list[dict] = []
    for number, row in jsonl_objects(path):
        if not isinstance(row.get("text"), str):
            raise DatasetError(f"{path}:{number}: a row needs a string 'text': {row!r:.80}")
        label = row.get("label")
        if isinstance(label, bool):
            label = int(label)
        if label not in (0, 1):
            raise DatasetError(f"{path}:{number}: label must be 0 or 1, got {label!r}")
        rows.append({**row, "label": label})
    if not rows:
        raise DatasetError(f"dataset {str(path)!r} has no rows")
    return rows


def rewrite_dataset(source: Path, out: Path, change: Callable[[str], str]) -> int:
    """Writes a copy of the evaluation file `source` to `out` with `change` applied to each
    text (labels and other fields kept), for the commands that make probes of our files
    (training/typos.py, training/padding.py). Exit status: 0, or 2 with the error on stderr
    and no file written."""
    try:
        rows = dataset_rows(source)
    except DatasetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        write_jsonl(out, [{**r, "text": change(r["text"])} for r in rows])
    except OSError as exc:
        print(f"error: cannot write {str(out)!r}: {exc}", file=sys.stderr)
        return 2
    print(f"{len(rows)} rows -> {out}")
    return 0


def load_dataset(path: Path) -> list[tuple[str, int]]:
    return [(row["text"], row["label"]) for row in dataset_rows(path)]


class _RailEmbed:
    """The rails' embedding function, loading MiniLM on first use (rail sets without an
    embedding rail load no model)."""

    def __init__(self) -> None:
        self._embed: EmbedFn | None = None

    def __call__(self, texts: list[str]) -> np.ndarray:
        if self._embed is None:
            from guardrails.models.rail_embedder import rail_embedder
            from retrieval.embedder import Embedder

            self._embed = rail_embedder(Embedder.load()).embed
        return self._embed(texts)


def _as_pipeline(
    pipeline: GuardrailPipeline, order: list[str], measured: dict[str, tuple[Verdict, float]]
) -> tuple[Verdict | None, float, float]:
    """What `check_input` would have done with the rails in `order`, from each rail's verdict
    and milliseconds on one row: (the blocking verdict or None, the milliseconds of the rails
    it ran, the highest score among them)."""
    ran: list[Verdict] = []
    total_ms = best_score = 0.0
    for name in order:
        verdict, ms = measured[name]
        if not pipeline.should_run(name, ran):
            continue
        ran.append(verdict)
        total_ms += ms
        best_score = max(best_score, verdict.score)
        if verdict.action is Action.BLOCK:
            return verdict, total_ms, best_score
    return None, total_ms, best_score


def evaluate(
    rows: list[tuple[str, int]],
    settings: GuardrailSettings,
    predictions: Path | None = None,
    also_order: tuple[str, ...] | None = None,
) -> dict:
    pipeline = GuardrailPipeline.from_settings(settings, embed=_RailEmbed())
    rails = pipeline.input_rails
    order = [rail.name for rail in rails]
    if also_order is not None:
        if sorted(also_order) != sorted(order):
            raise InvalidSettingError(
                f"--also-order must name the rails {', '.join(order)} once each, got "
                f"{', '.join(also_order)}"
            )
        for name, (source, _) in pipeline.gates.items():
            if also_order.index(name) < also_order.index(source):
                # A pipeline built in that order would not gate it; this one would never run it.
                raise InvalidSettingError(f"--also-order puts {name} before {source}, its gate")
    for rail in rails:  # first calls pay for lazy set-up; keep them out of the latencies
        rail.check("warm-up text for the guardrails")
    tallies = {rail.name: _Tally() for rail in rails}
    overall, other = _Tally(), _Tally()
    same_decisions = 0
    out = predictions.open("w", encoding="utf-8") if predictions is not None else None
    try:
        for index, (text, label) in enumerate(rows):
            measured: dict[str, tuple[Verdict, float]] = {}
            for rail in rails:
                t0 = time.perf_counter()
                verdict = rail.check(text)
                ms = (time.perf_counter() - t0) * 1000
                tallies[rail.name].add(verdict.action is Action.BLOCK, label, ms)
                measured[rail.name] = (verdict, ms)
            blocked_by, total_ms, best_score = _as_pipeline(pipeline, order, measured)
            overall.add(blocked_by is not None, label, total_ms)
            if also_order is not None:
                alt, alt_ms, _ = _as_pipeline(pipeline, list(also_order), measured)
                other.add(alt is not None, label, alt_ms)
                same_decisions += (alt is None) == (blocked_by is None)
            if out is not None:
                record = {
                    "index": index,
                    "blocked": blocked_by is not None,
                    "rail": blocked_by.rail if blocked_by is not None else None,
                    "score": round(blocked_by.score if blocked_by else best_score, 6),
                    "latency_ms": round(total_ms, 3),
                }
                out.write(json.dumps(record) + "\n")
    finally:
        if out is not None:
            out.close()
    result = {
        "num_rows": len(rows),
        "num_positive": sum(label for _, label in rows),
        "rails": order,
        # what each model rail's matmuls ran in on this CPU (bf16, fp16-weights, int8, float32)
        "matmuls": {name: pipeline.matmuls[name] for name in order if name in pipeline.matmuls},
        **overall.summary(),
        "checks": {name: tally.summary() for name, tally in tallies.items()},
    }
    if also_order is not None:
        result["also_order"] = {
            "rails": list(also_order),
            **other.summary(),
            "same_decisions": same_decisions,
        }
    return result


def _print_table(result: dict) -> None:
    print(f"rows: {result['num_rows']} (positive: {result['num_positive']})")
    if "classifier_backend" in result:
        print(f"classifier backend: {result['classifier_backend']}")
    if result.get("matmuls"):
        print("matmuls: " + ", ".join(f"{k} {v}" for k, v in result["matmuls"].items()))
    header = f"{'check':<22}{'prec':>7}{'recall':>8}{'f1':>7}{'fpr':>7}{'p50 ms':>9}{'p95 ms':>9}"
    print(header)
    entries = [*result["checks"].items(), ("pipeline", result)]
    if "also_order" in result:
        entries.append(("pipeline, also_order", result["also_order"]))
    for name, s in entries:
        print(
            f"{name:<22}{s['precision']:>7.3f}{s['recall']:>8.3f}{s['f1']:>7.3f}"
            f"{s['false_positive_rate']:>7.3f}"
            f"{s['latency_p50_ms']:>9.2f}{s['latency_p95_ms']:>9.2f}"
        )
    if "also_order" in result:
        also = result["also_order"]
        print(f"also_order: {', '.join(also['rails'])}; same decision on "
              f"{also['same_decisions']} of {result['num_rows']} rows")


def _names(csv: str) -> tuple[str, ...]:
    """Rail names from a comma-separated argument."""
    return tuple(n.strip() for n in csv.split(",") if n.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m guardrails.evaluate", description=__doc__)
    parser.add_argument("--dataset", type=Path, required=True)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--predictions", type=Path, default=None)
    parser.add_argument("--rails", default=None, help="comma-separated input rails to run")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    parser.add_argument(
        "--also-order",
        default=None,
        help="the same rails in another order, comma-separated: its pipeline figures too, from "
        "the same measurements",
    )
    parser.add_argument(
        "--classifier-backend",
        default=None,
        help="what the classifier heads read: auto, tuned, tuned_l3 or frozen (default: the "
        "settings' default, auto)",
    )
    args = parser.parse_args(argv)
    try:
        settings = GuardrailSettings()
        if args.rails is not None:
            settings = dataclasses.replace(settings, input_rails=_names(args.rails))
        if args.classifier_backend is not None:
            settings = dataclasses.replace(settings, classifier_backend=args.classifier_backend)
        rows = load_dataset(args.dataset)
        if args.threads < 1:
            raise InvalidSettingError(f"--threads must be >= 1, got {args.threads}")
        import torch

        torch.set_num_threads(args.threads)
        also = None if args.also_order is None else _names(args.also_order)
        result = evaluate(rows, settings, args.predictions, also)
    except (GuardrailError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result["dataset"] = str(args.dataset)
    result["classifier_backend"] = resolve_backend(settings.classifier_backend)
    if args.json:
        print(json.dumps(result))
    else:
        _print_table(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
