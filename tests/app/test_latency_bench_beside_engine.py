"""`python -m app.bench_guardrails`'s input-rails-beside-the-engine part, on the fake engine:
every benign message is checked once per way of running the checks while answers stream, and
the background streams are stopped (aborted) at the end."""

from __future__ import annotations

import asyncio

from app.bench_guardrails import BENIGN_INPUTS, bench_input_beside_engine
from guardrails import GuardrailPipeline, GuardrailSettings
from tests.app.fakes import FakeEngine


def test_checks_alternate_while_answers_stream() -> None:
    rules_only = GuardrailSettings(input_rails=("deny_list", "injection_rules", "harmful"))
    pipeline = GuardrailPipeline.from_settings(rules_only)
    engine = FakeEngine(reply=lambda prompt: "A long and harmless answer. " * 40,
                        token_delay=0.0005)
    engine.start()
    out = asyncio.run(bench_input_beside_engine(engine, pipeline, max_tokens=2000, repeats=2,
                                                num_streams=2))
    assert out["num_streams"] == 2
    for mode in ("rails_thread", "default_pool"):
        row = out[mode]
        assert row["num_checks"] == 2 * len(BENIGN_INPUTS)
        assert 0 < row["p50_ms"] <= row["p95_ms"]
    # the streams were generating while the checks ran, and were cut off at the end
    assert out["rails_thread"]["engine_tokens_per_s"] + out["default_pool"][
        "engine_tokens_per_s"] > 0
    assert engine.aborted and all(rid.startswith("bg-") for rid in engine.aborted)
