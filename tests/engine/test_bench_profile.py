"""engine/bench_profile.py: per-step figures from the profiler's averages, and a real run on
the CPU."""

from __future__ import annotations

import json
from types import SimpleNamespace

from torch.autograd import DeviceType

from engine import bench_profile


def event(key, count, device_us=0.0, cpu_us=0.0, cuda=False):
    return SimpleNamespace(key=key, count=count, self_device_time_total=device_us,
                           self_cpu_time_total=cpu_us,
                           device_type=DeviceType.CUDA if cuda else DeviceType.CPU)


def test_summarize_counts_device_kernels_and_launches_per_step():
    events = [
        event("gemv", 40, device_us=400.0, cuda=True),
        event("rms_norm", 80, device_us=160.0, cuda=True),
        event("cudaGraphLaunch", 10, cpu_us=50.0),
        event("cudaLaunchKernel", 20, cpu_us=60.0),
        event("aten::mm", 5, cpu_us=10.0),
    ]
    s = bench_profile.summarize(events, steps=10, wall_s=0.002, top=1)
    assert s["kernels_per_step"] == 12.0
    assert s["kernel_us_per_step"] == 56.0
    assert s["wall_us_per_step"] == 200.0
    assert s["device_busy_fraction"] == 0.28
    assert s["graph_launches_per_step"] == 1.0
    assert s["kernel_launches_per_step"] == 2.0
    assert s["rows"] == "device kernels"
    assert s["top"] == [{"name": "gemv", "calls_per_step": 4.0, "us_per_step": 40.0,
                         "us_per_call": 10.0}]


def test_summarize_without_device_rows_lists_host_operators():
    events = [event("aten::mm", 6, cpu_us=30.0), event("aten::add", 3, cpu_us=60.0)]
    s = bench_profile.summarize(events, steps=3, wall_s=0.001, top=5)
    assert s["kernels_per_step"] == 0.0 and s["device_busy_fraction"] is None
    assert s["rows"] == "host operators (self CPU time)"
    assert [r["name"] for r in s["top"]] == ["aten::add", "aten::mm"]


def test_profiles_decode_steps_of_a_real_engine_on_the_cpu(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert bench_profile.main(["--model", "dummy:llama-tiny", "--prompt-len", "16",
                               "--tokens", "4", "--max-model-len", "64", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["steps"] == 4 and result["batch"] == 1 and result["device"] == "cpu"
    assert result["rows"] == "host operators (self CPU time)"
    assert result["wall_us_per_step"] > 0
    # The tiny llama's decode step runs its matmuls: they are among the host operators.
    assert any(r["name"] in ("aten::mm", "aten::addmm", "aten::linear") for r in result["top"])
    assert "us a decode step" in capsys.readouterr().out
