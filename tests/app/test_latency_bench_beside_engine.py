"""`python -m app.bench_guardrails`'s input-rails-beside-the-engine part, on the fake engine:
in each block every benign message is checked, whole passes until the block's time is up, by
one way of running the checks (or none: the engine alone) while answers stream; the engine's
speed is counted per kind of block; the background streams are stopped (aborted) at the
end."""

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
                                                num_streams=2, block_s=0.2))
    assert out["num_streams"] == 2 and out["block_s"] == 0.2
    for mode in ("rails_thread", "default_pool"):
        row = out[mode]
        # whole passes over the messages, at least one per block
        assert row["num_checks"] % len(BENIGN_INPUTS) == 0
        assert row["num_checks"] >= 2 * len(BENIGN_INPUTS)
        assert 0 < row["p50_ms"] <= row["p95_ms"]
    # the streams were generating in every kind of block, and were cut off at the end
    for mode in ("engine_alone", "rails_thread", "default_pool"):
        assert out[mode]["engine_tokens_per_s"] > 0, mode
    assert engine.aborted and all(rid.startswith("bg-") for rid in engine.aborted)
