"""engine/bench_detok.py: incremental detokenization against one decode at the end."""

from __future__ import annotations

from engine import bench_detok
from engine.loader import load_model


def test_both_ways_give_the_same_text_and_are_timed():
    tokenizer = load_model("dummy:llama-tiny").tokenizer
    outputs = [[5, 17, 99, 3, 250, 7], [300, 301, 302, 303]]
    r = bench_detok.measure(tokenizer, outputs)
    assert r["tokens"] == 10 and r["same_text"] == 1.0
    assert r["incremental_us_per_token"] > 0 and r["at_end_us_per_token"] > 0


def test_command_prints_the_figures(capsys):
    assert bench_detok.main(["--model", "dummy:llama-tiny", "--requests", "2", "--tokens", "8"]) == 0
    assert "16 tokens: incremental" in capsys.readouterr().out
