"""`python -m app.bench_guardrails`'s measuring parts, on the fake engine (the real model run
is the benchmark itself): paired streams, identical text with and without rails."""

from __future__ import annotations

import asyncio

from app.bench_guardrails import QUESTIONS, bench_grounding, bench_input, bench_output
from app.guard.config import guardrail_settings
from app.settings import GuardrailSettings
from guardrails import GuardrailPipeline
from tests.app.fakes import FakeEngine

REPLY = "A plain answer with nothing to hide. " * 5


def test_bench_pairs_streams_and_reports_latencies(embedder) -> None:
    pipeline = GuardrailPipeline.from_settings(guardrail_settings(GuardrailSettings()),
                                               embed=embedder.embed)
    engine = FakeEngine(reply=lambda prompt: REPLY)
    engine.start()
    out = asyncio.run(bench_output(engine, pipeline, max_tokens=400, repeats=1))
    assert out["num_runs"] == len(QUESTIONS)
    plain, guarded = out["without_rails"], out["with_rails"]
    # The rails change when text goes out, never what (nothing here to redact or block).
    assert plain["mean_chars"] == guarded["mean_chars"] == len(REPLY)
    assert plain["mean_tokens"] == guarded["mean_tokens"] == len(REPLY) + 1
    assert plain["guard_cpu"]["mean_ms"] == 0.0 < guarded["guard_cpu"]["mean_ms"]
    assert set(out["added"]) == {"ttft", "total"}
    inputs = bench_input(pipeline, repeats=1)
    assert inputs["benign"]["num_blocked"] == 0
    assert inputs["attacks"]["num_blocked"] == inputs["attacks"]["num_checks"] == 4
    assert bench_grounding(pipeline, repeats=1)["p50_ms"] > 0
