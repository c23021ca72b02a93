"""The CPU suite of `python -m engine.bench` keeps PROTOCOL.md's result names and JSON shape
(a tiny model and a two-request workload, so it runs in seconds)."""

from __future__ import annotations

import json

import pytest
import torch

from engine import bench

pytest.importorskip("transformers", reason="transformers is the benchmark's baseline")


@pytest.fixture(autouse=True)
def _keep_torch_threads():
    """The suites set torch's thread count for the whole process: give it back."""
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def test_cpu_suite_writes_the_protocol_names_and_shape(tmp_path):
    workload = tmp_path / "workload.json"
    workload.write_text(json.dumps([
        {"prompt_token_ids": list(range(1, 40)), "max_tokens": 6},
        {"prompt_token_ids": list(range(5, 30)), "max_tokens": 4},
    ]))
    out = tmp_path / "engine.json"
    argv = ["--model", "dummy:llama-tiny", "--threads", "1", "--workload", str(workload),
            "--static-batch", "2", "--history-tokens", "20", "--json", str(out)]
    assert bench.main(argv) == 0
    report = json.loads(out.read_text())

    assert list(report) == ["machine", "model", "workload", "results"]
    assert report["model"] == {"spec": "dummy:llama-tiny", "name": "dummy:llama-tiny",
                               "dtype": "bfloat16"}
    assert report["workload"] == {"source": str(workload), "num_requests": 2, "output_tokens": 10}
    assert list(report["results"]) == ["throughput_vs_static_batch", "throughput_vs_sequential",
                                       "batch1_itl", "next_turn_ttft_prefix_cache"]
    for name, r in report["results"].items():
        assert list(r) == ["hearth", "baseline", "ratio"], name
        assert r["ratio"] > 0, name
    static = report["results"]["throughput_vs_static_batch"]
    assert static["hearth"]["output_tokens"] == static["baseline"]["output_tokens"] == 10
    assert static["baseline"]["batch_size"] == 2
    assert report["results"]["batch1_itl"]["hearth"]["prompt_tokens"] == 39
