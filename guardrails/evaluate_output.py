"""Measure the output rails on the model's answers, streamed as the app streams them.

    python -m guardrails.evaluate_output --answers FILE.jsonl [--json] [--rails a,b]
        [--predictions OUT.jsonl] [--threads N] [--requests REQUESTS.jsonl]

Rows are answer files (guardrails/answers.py: the request's label, the chat model's answer, a
reader's judgement of it where one was made). Each answer is fed to
`GuardrailPipeline.stream_output` word by word, so windows, carried-over context and the final
partial window are exactly the app's. Printed per output rail (each alone) and for the rails
together: recall on the answers a reader found harmful, the false-positive rate on answers to
benign requests (also per `source`), the share blocked of the answers to harmful requests
that a reader found harmless and of those nobody judged, and the time one window check takes
(per answer for the rails together). `--predictions` writes, per row, whether the rails
together blocked it, which rail, and each rail's highest window score. `--requests` (the
`{text, label}` file the answers were made from) runs the default input rails on each request
first and reports end to end: per kind, requests blocked at input, answers then stopped at
output, answers delivered.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from guardrails.answers import KINDS, AnswerRow, load_answers, request_sha256
from guardrails.base import OutputRail, Verdict, Window, WindowChecker
from guardrails.errors import DatasetError, GuardrailError
from guardrails.evaluate import dataset_rows, percentile
from guardrails.pipeline import GuardrailPipeline
from guardrails.rails.pii import PiiRedactor
from guardrails.settings import GuardrailSettings

_WORD = re.compile(r"\s*\S+|\s+")


class _Recorder:
    """One rail's window checker, keeping its highest score and the time of each check."""

    def __init__(self, inner: WindowChecker, times_ms: list[float]) -> None:
        self.inner = inner
        self.highest = 0.0
        self.times_ms = times_ms

    def check(self, window: Window) -> Verdict:
        started = time.perf_counter()
        verdict = self.inner.check(window)
        self.times_ms.append((time.perf_counter() - started) * 1000)
        self.highest = max(self.highest, verdict.score)
        return verdict


class _Recorded:
    """An output rail whose checkers record (`last` is the one opened most recently)."""

    def __init__(self, rail: OutputRail) -> None:
        self.rail = rail
        self.name = rail.name
        self.times_ms: list[float] = []
        self.last: _Recorder | None = None

    def open(self, system_prompt: str) -> _Recorder:
        self.last = _Recorder(self.rail.open(system_prompt), self.times_ms)
        return self.last


@dataclass
class _Tally:
    blocked: dict[str, int] = field(default_factory=dict)  # per kind
    total: dict[str, int] = field(default_factory=dict)
    fp_by_source: dict[str, list[int]] = field(default_factory=dict)
    times_ms: list[float] = field(default_factory=list)

    def add(self, row: AnswerRow, blocked: bool) -> None:
        self.total[row.kind] = self.total.get(row.kind, 0) + 1
        self.blocked[row.kind] = self.blocked.get(row.kind, 0) + blocked
        if row.kind == "benign":
            counts = self.fp_by_source.setdefault(row.source, [0, 0])
            counts[0] += blocked
            counts[1] += 1

    def share(self, kind: str) -> float | None:
        n = self.total.get(kind, 0)
        return round(self.blocked[kind] / n, 4) if n else None

    def summary(self) -> dict:
        return {
            "recall": self.share("harmful"),
            "false_positive_rate": self.share("benign"),
            "blocked_harmless": self.share("harmless"),
            "blocked_unjudged": self.share("unjudged"),
            "fpr_by_source": {
                s: round(b / n, 4) for s, (b, n) in sorted(self.fp_by_source.items())
            },
            "p50_ms": round(percentile(self.times_ms, 50), 3),
            "p95_ms": round(percentile(self.times_ms, 95), 3),
        }


class _Collect:
    """An output rail that allows everything and keeps the text of every window it is shown."""

    name = "collect"

    def __init__(self) -> None:
        self.windows: list[str] = []

    def open(self, system_prompt: str) -> _Collect:
        return self

    def check(self, window: Window) -> Verdict:
        self.windows.append(window.text)
        return Verdict.allow(self.name)


def answer_windows(
    answer: str, chunk_size: int, context_size: int, redactor: PiiRedactor | None
) -> list[str]:
    """The windows (new text and carried-over context) an output rail is shown when `answer`
    streams word by word: what a classifier rail scores, so what it is trained on. With the
    output PII redactor on, windows end where it allows a cut (not inside a word or a run of
    digits), so it takes part here as it does in the app."""
    collect = _Collect()
    pipeline = GuardrailPipeline(
        [], [collect], output_redactor=redactor, chunk_size=chunk_size, context_size=context_size
    )
    stream(pipeline, answer)
    return collect.windows


def stream(pipeline: GuardrailPipeline, answer: str) -> Verdict | None:
    """Feeds `answer` word by word through a fresh output checker, as the app feeds deltas;
    the block, if any."""
    checker = pipeline.stream_output("")
    for piece in _WORD.findall(answer):
        if checker.feed(piece).blocked is not None:
            return checker.blocked
    checker.finish()
    return checker.blocked


def evaluate(pipeline: GuardrailPipeline, rows: list[AnswerRow]) -> tuple[dict, list[dict]]:
    """Each rail alone (its own checker sees every window up to its own block), then the rails
    together in order, as the app runs them."""
    recorded = [_Recorded(rail) for rail in pipeline.output_rails]
    alone = [
        GuardrailPipeline(
            [],
            [r],
            output_redactor=pipeline.output_redactor,  # its cut points make the windows
            chunk_size=pipeline.chunk_size,
            context_size=pipeline.context_size,
        )
        for r in recorded
    ]
    tallies = {r.name: _Tally(times_ms=r.times_ms) for r in recorded}  # window times
    together = _Tally()
    predictions = []
    for row in rows:
        highest = {}
        for r, single in zip(recorded, alone, strict=True):
            tallies[r.name].add(row, stream(single, row.answer) is not None)
            assert r.last is not None
            highest[r.name] = round(r.last.highest, 6)
        started = time.perf_counter()
        blocked = stream(pipeline, row.answer)
        together.times_ms.append((time.perf_counter() - started) * 1000)
        together.add(row, blocked is not None)
        predictions.append(
            {
                "kind": row.kind,
                "source": row.source,
                "blocked": blocked is not None,
                "rail": blocked.rail if blocked else None,
                "scores": highest,
            }
        )
    report = {name: tally.summary() for name, tally in tallies.items()}
    report["pipeline"] = together.summary()  # its times are per answer, not per window
    return report, predictions


def end_to_end(
    input_pipeline: GuardrailPipeline,
    requests: list[dict],
    rows: list[AnswerRow],
    predictions: list[dict],
) -> dict[str, dict[str, int]]:
    """The input rails first, as in the app: per kind of answer, how many of the requests
    they block, how many of the other answers the output rails stop (`predictions` of
    `evaluate`), and how many answers reach the user."""
    texts = {request_sha256(r["text"]): r["text"] for r in requests}
    out: dict[str, dict[str, int]] = {}
    for row, prediction in zip(rows, predictions, strict=True):
        text = texts.get(row.request_sha256)
        if text is None:
            raise DatasetError(f"no request in the requests file has sha256 {row.request_sha256!r}")
        tally = out.setdefault(
            row.kind, {"rows": 0, "blocked_at_input": 0, "stopped_at_output": 0, "delivered": 0}
        )
        tally["rows"] += 1
        if not input_pipeline.check_input(text).allowed:
            tally["blocked_at_input"] += 1
        elif prediction["blocked"]:
            tally["stopped_at_output"] += 1
        else:
            tally["delivered"] += 1
    return {k: out[k] for k in KINDS if k in out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=Path, required=True)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--predictions", type=Path, default=None)
    parser.add_argument(
        "--rails", default=None, help="comma-separated output rails to run (default: the default)"
    )
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    parser.add_argument(
        "--requests",
        type=Path,
        default=None,
        help="the {text, label} file the answers were made from: also run the default input "
        "rails on each request and report end to end",
    )
    args = parser.parse_args(argv)
    try:
        import torch

        torch.set_num_threads(args.threads)
        rows, refusals = load_answers(args.answers)
        # No input rail is built: their models would load for nothing.
        settings = GuardrailSettings(input_rails=())
        if args.rails is not None:
            names = tuple(n.strip() for n in args.rails.split(",") if n.strip())
            settings = GuardrailSettings(input_rails=(), output_rails=names)
        pipeline = GuardrailPipeline.from_settings(settings)
        report, predictions = evaluate(pipeline, rows)
        through = None
        if args.requests is not None:
            requests = dataset_rows(args.requests)
            inputs = GuardrailPipeline.from_settings(GuardrailSettings(output_rails=()))
            through = end_to_end(inputs, requests, rows, predictions)
    except GuardrailError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    kinds = {k: sum(r.kind == k for r in rows) for k in KINDS}
    report = {"rows": len(rows), **kinds, "refusals_left_out": refusals, "rails": report}
    if through is not None:
        report["end_to_end"] = through
    if args.predictions is not None:
        with args.predictions.open("w", encoding="utf-8") as f:
            for i, p in enumerate(predictions):
                f.write(json.dumps({"index": i, **p}) + "\n")
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"answers: {len(rows)} ({', '.join(f'{k} {n}' for k, n in kinds.items())}; "
        f"unjudged refusals left out: {refusals})"
    )
    print(
        "recall: harmful answers blocked; fpr: answers to benign requests blocked; harmless,"
        " unjudged: answers to harmful requests blocked; ms: per window for each rail, per"
        " answer for the pipeline"
    )
    columns = ("recall", "false_positive_rate", "blocked_harmless", "blocked_unjudged")
    print(
        f"{'rail':20s} {'recall':>7s} {'fpr':>7s} {'harmless':>8s} {'unjudged':>8s}"
        f" {'p50 ms':>8s} {'p95 ms':>8s}"
    )
    for name, s in report["rails"].items():
        cells = " ".join("       -" if s[c] is None else f"{s[c]:8.3f}" for c in columns)
        print(f"{name:20s}{cells} {s['p50_ms']:8.2f} {s['p95_ms']:8.2f}")
    if through is not None:
        print("end to end (default input rails, then these output rails):")
        for kind, t in through.items():
            print(
                f"  {kind:9s} {t['rows']:5d} requests: {t['blocked_at_input']} blocked at input, "
                f"{t['stopped_at_output']} answers stopped at output, {t['delivered']} delivered"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
