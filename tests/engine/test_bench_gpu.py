"""The GPU suite of `python -m engine.bench` run end to end on a CPU at tiny sizes, its
workload generator, and the bandwidth-bound arithmetic on hand-computed models."""

from __future__ import annotations

import json

import pytest
import torch

from engine import bench, bench_gpu
from engine.bench_device import BenchDevice, CopyBandwidth
from engine.bench_roofline import (
    BandwidthBound,
    kv_bytes_per_token,
    mean_decode_context,
    stored_weight_bytes,
)
from engine.bench_workload import nano_vllm_workload, random_prompt
from engine.config import EngineConfig
from engine.core import EngineCore
from engine.errors import ModelLoadError
from engine.loader import default_model_path

pytest.importorskip("transformers", reason="transformers is the benchmark's baseline")


@pytest.fixture(autouse=True)
def _keep_torch_threads():
    """The suites set torch's thread count for the whole process: give it back."""
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)

TINY = [
    "--models", "dummy:llama-tiny", "--device", "cpu", "--threads", "1",
    "--num-requests", "4", "--min-len", "8", "--max-len", "32", "--hf-batch-size", "2",
    "--itl-prompt-len", "8", "--itl-tokens", "2", "--max-model-len", "128",
    "--kv-cache-gib", "0.01", "--copy-mib", "4",
]
ROW_KEYS = {"hearth", "baseline", "ratio"}


def _has_default_model() -> bool:
    try:
        default_model_path()
    except ModelLoadError:
        return False
    return True


# ------------------------------------------------------------------------------- the suite
def test_gpu_suite_runs_end_to_end_on_cpu_and_writes_the_protocol_json(tmp_path, capsys):
    quant = "default" if _has_default_model() else ""
    out = tmp_path / "gpu.json"
    assert bench.main(["--suite", "gpu", *TINY, "--quant-model", quant, "--json", str(out)]) == 0
    report = json.loads(out.read_text())

    expected = {"llama-tiny/batch1_itl", "llama-tiny/batch1_bandwidth", "llama-tiny/throughput_vs_hf"}
    if quant:
        expected.add("default/gguf_vs_bf16_batch1")
    assert {"machine", "model", "results", "targets"} <= report.keys()
    assert set(report["results"]) == expected
    for name, r in report["results"].items():
        assert set(r) == ROW_KEYS, name
        assert "error" not in r["hearth"] and "error" not in r["baseline"], (name, r)
        assert isinstance(r["ratio"], float) and r["ratio"] > 0, name
    assert report["model"]["dtype"] == "bfloat16"
    assert report["machine"]["device"]["device"] == "cpu"
    assert report["machine"]["copy_bandwidth"]["bytes_moved"] == 2 * 4 * 2**20 * 3

    # Targets: 10x throughput for every model, 60% of the bound for the 1B shape only.
    targets = {"llama-tiny/throughput_vs_hf": 10.0} | ({"default/gguf_vs_bf16_batch1": 1.0} if quant else {})
    assert {k: v["min_ratio"] for k, v in report["targets"].items()} == targets
    for name, t in report["targets"].items():
        assert t["met"] == (report["results"][name]["ratio"] >= t["min_ratio"])

    # Both sides of the throughput row ran the same workload to its last token.
    work = nano_vllm_workload(4, 8, 32, seed=0, max_token_id=511)
    tput = report["results"]["llama-tiny/throughput_vs_hf"]
    assert tput["hearth"]["output_tokens"] == tput["baseline"]["output_tokens"] == sum(
        w.max_tokens for w in work)
    assert tput["hearth"]["prompt_tokens"] == sum(len(w.prompt_token_ids) for w in work)
    assert tput["baseline"]["num_batches"] == 2 and tput["baseline"]["padding"] == "left"

    # The bandwidth row: llama-tiny's bytes (see test_weight_bytes_...) over Hearth's own ITL.
    bw = report["results"]["llama-tiny/batch1_bandwidth"]["hearth"]
    itl = report["results"]["llama-tiny/batch1_itl"]["hearth"]["itl_s"]
    assert bw["weight_bytes"] == 214_400 and bw["kv_bytes_per_token"] == 256
    assert bw["mean_context_tokens"] == 8 + 2 / 2
    assert bw["kv_bytes"] == 9 * 256
    assert bw["seconds_per_step"] == pytest.approx(itl, rel=1e-4)
    if quant:
        q = report["results"]["default/gguf_vs_bf16_batch1"]
        assert (q["hearth"]["quantization"], q["baseline"]["quantization"]) == ("gguf", "none")
    table = capsys.readouterr().out
    assert "llama-tiny/throughput_vs_hf" in table and ">= 10" in table


def test_a_failing_side_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    def no_transformers(*args, **kwargs):
        raise RuntimeError("transformers is not installed here")

    monkeypatch.setattr(bench_gpu, "hf_model", no_transformers)
    out = tmp_path / "gpu.json"
    argv = [*TINY, "--models", "dummy:no-such-shape,dummy:llama-tiny", "--quant-model", "",
            "--skip", "throughput_vs_hf", "--json", str(out)]
    assert bench_gpu.main(argv) == 0
    results = json.loads(out.read_text())["results"]

    assert set(results) == {"no-such-shape/batch1_itl", "no-such-shape/batch1_bandwidth",
                            "llama-tiny/batch1_itl", "llama-tiny/batch1_bandwidth"}
    for name in ("no-such-shape/batch1_itl", "no-such-shape/batch1_bandwidth"):
        assert results[name]["ratio"] is None
        assert results[name]["hearth"]["error"].startswith("ModelLoadError: unknown dummy shape")
    itl = results["llama-tiny/batch1_itl"]
    assert itl["ratio"] is None and itl["hearth"]["itl_s"] > 0
    assert itl["baseline"] == {"error": "RuntimeError: transformers is not installed here"}
    # The bandwidth row needs no transformers.
    assert results["llama-tiny/batch1_bandwidth"]["ratio"] > 0


@pytest.mark.parametrize(
    "extra",
    [["--max-model-len", "40"], ["--min-len", "33"], ["--itl-tokens", "1"], ["--hf-batch-size", "0"], ["--models", ","]],
)
def test_bad_sizes_are_refused_before_anything_runs(extra, capsys):
    with pytest.raises(SystemExit) as exc:
        bench_gpu.parse_args([*TINY, *extra])
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err


# ------------------------------------------------------------------------------- workload
def test_workload_reproduces_nano_vllm_bench_draw_for_draw():
    work = nano_vllm_workload()  # 256 requests, lengths 100-1024, ids 0-10000, seed 0
    # The totals nano-vllm's README reports for its bench.py.
    assert sum(w.max_tokens for w in work) == 133_966
    assert sum(len(w.prompt_token_ids) for w in work) == 142_827


def test_workload_is_deterministic_and_respects_its_ranges():
    a = nano_vllm_workload(50, 8, 32, seed=3, max_token_id=511)
    b = nano_vllm_workload(50, 8, 32, seed=3, max_token_id=511)
    assert a == b
    assert a != nano_vllm_workload(50, 8, 32, seed=4, max_token_id=511)
    assert all(8 <= len(w.prompt_token_ids) <= 32 and 8 <= w.max_tokens <= 32 for w in a)
    assert all(0 <= t <= 511 for w in a for t in w.prompt_token_ids)
    # Over 50 draws both ends of an inclusive range of 25 values show up.
    lengths = {len(w.prompt_token_ids) for w in a} | {w.max_tokens for w in a}
    assert {8, 32} <= lengths
    assert random_prompt(5, 9, seed=1) == random_prompt(5, 9, seed=1)


@pytest.mark.parametrize("kwargs", [{"num_requests": 0}, {"min_len": 0}, {"min_len": 9, "max_len": 8},
                                    {"max_token_id": -1}])
def test_workload_refuses_bad_ranges(kwargs):
    with pytest.raises(ValueError):
        nano_vllm_workload(**{"num_requests": 2, "min_len": 1, "max_len": 4} | kwargs)


# ------------------------------------------------------------------------------- bandwidth
def _engine(shape: str) -> EngineCore:
    return EngineCore(EngineConfig(model=f"dummy:{shape}", dtype="bfloat16", device="cpu",
                                   kv_cache_memory_bytes=1 << 20))


def test_weight_bytes_of_an_untied_model_count_the_head_and_one_embedding_row():
    # llama-tiny: vocab 512, hidden 64, intermediate 128, 2 layers, 4 heads, 2 KV heads, D 16.
    # Per layer (bf16): qkv 128x64 + o 64x64 + gate_up 256x64 + down 64x128 = 36,864 values.
    # lm_head 512x64 = 32,768 (bf16); norms 2x2x64 + 64 = 320 float32; the untied embedding
    # is read one row (64 values) per sequence.
    expected = (2 * 36_864 + 32_768) * 2 + 320 * 4 + 64 * 2
    assert expected == 214_400
    runner = _engine("llama-tiny").runner
    assert stored_weight_bytes(runner.model) == expected
    assert stored_weight_bytes(runner.model, batch_size=3) == expected + 2 * 64 * 2
    # K and V, 2 layers, 2 KV heads, D 16, bf16: 256 bytes a token, the engine's own figure too.
    assert kv_bytes_per_token(2, 2, 16, 2) == 256
    assert runner.kv_bytes_per_block() // runner.block_size == 256


def test_weight_bytes_of_a_tied_model_count_the_shared_matrix_once():
    # qwen2-tiny: as llama-tiny plus q/k/v biases (128 values a layer), head tied to embedding.
    expected = 512 * 64 * 2 + 2 * (36_864 + 128) * 2 + 320 * 4
    assert expected == 214_784
    assert stored_weight_bytes(_engine("qwen2-tiny").runner.model) == expected


def test_bandwidth_bound_on_a_hand_computed_step():
    # A step reading 214,400 weight bytes and K/V for 100 tokens at 256 bytes each, in 1 ms,
    # on a device copying 1 GB/s: 240,000 bytes -> 0.24 GB/s -> 24% of the bound.
    bound = BandwidthBound(214_400, 100 * 256, seconds_per_step=1e-3, copy_bytes_per_s=1e9)
    assert bound.bytes_per_step == 240_000
    assert bound.achieved_bytes_per_s == pytest.approx(2.4e8)
    assert bound.fraction == pytest.approx(0.24)
    assert bound.bound_seconds_per_step == pytest.approx(2.4e-4)
    assert bound.as_dict()["fraction_of_bound"] == 0.24
    # 9 streamed tokens after a 100-token prompt: the 8 timed steps attend over 101..108.
    assert mean_decode_context(100, 9) == sum(range(101, 109)) / 8 == 104.5
    with pytest.raises(ValueError):
        BandwidthBound(1, 1, seconds_per_step=0.0, copy_bytes_per_s=1.0)
    with pytest.raises(ValueError):
        mean_decode_context(100, 1)


def test_copy_bandwidth_counts_a_read_and_a_write_per_byte():
    copy = CopyBandwidth(num_bytes=1000, repeats=4, seconds=0.5)
    assert copy.bytes_moved == 8000 and copy.bytes_per_s == 16_000
    measured = BenchDevice("cpu").copy_bandwidth(1 << 20, 2)
    assert measured.bytes_moved == 4 << 20 and measured.seconds > 0
    with pytest.raises(ValueError):
        BenchDevice("cpu").copy_bandwidth(0, 1)
    with pytest.raises(ValueError):
        BenchDevice("meta")


# ------------------------------------------------------------------------------- CUDA path
class _FakeEvent:
    def __init__(self, enable_timing: bool = False) -> None:
        assert enable_timing

    def record(self) -> None:
        _FakeCuda.log.append("record")

    def synchronize(self) -> None:
        _FakeCuda.log.append("event.synchronize")

    def elapsed_time(self, end: _FakeEvent) -> float:
        return 250.0  # milliseconds, as CUDA reports


class _FakeCuda:
    log: list[str] = []


def test_cuda_timing_synchronizes_and_converts_event_milliseconds(monkeypatch):
    """The CUDA branch without a GPU: torch.cuda replaced by a recorder."""
    _FakeCuda.log = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "set_device", lambda d: _FakeCuda.log.append(f"set_device {d}"))
    monkeypatch.setattr(torch.cuda, "synchronize", lambda d=None: _FakeCuda.log.append(f"sync {d}"))
    monkeypatch.setattr(torch.cuda, "Event", _FakeEvent)

    dev = BenchDevice("cuda")  # no index: the current device, made explicit
    assert dev.device == torch.device("cuda", 0) and dev.is_cuda
    assert _FakeCuda.log == ["set_device cuda:0"]

    _FakeCuda.log = []
    with dev.wall() as watch:
        _FakeCuda.log.append("work")
    assert _FakeCuda.log == ["sync cuda:0", "work", "sync cuda:0"] and watch.seconds > 0

    _FakeCuda.log = []
    with dev.device_time() as watch:
        _FakeCuda.log.append("work")
    assert _FakeCuda.log == ["record", "work", "record", "event.synchronize"]
    assert watch.seconds == 0.25
