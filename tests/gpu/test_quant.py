"""Quantized matmul kernels and the quantized engine at full size on a GPU: Llama-3.2-1B's
matrices, batch 1 to long prefills, bf16 and fp32, against the torch reference; no host sync;
faster than bf16 at batch 1; the default model's packed GGUF path against its dequantized one.
Skipped without CUDA (the small versions run interpreted in tests/engine/test_quant.py)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from engine import LLM, EngineConfig, SamplingParams
from engine.core import EngineCore
from engine.kernels.bench_quant import MATRICES, random_quantized
from engine.kernels.quant_reference import dequantize
from engine.loader import load_model
from engine.quant_eval import TEXT_PATH, evaluate

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

FORMATS = ("q4_1", "q8_0", "q4_k", "int8")


def check_against_reference(fmt: str, n: int, k: int, m: int, dtype: torch.dtype) -> None:
    from engine.kernels.quant_matmul import quant_matmul

    weight = random_quantized(fmt, n, k, "cuda", seed=m)
    x = torch.randn(m, k, device="cuda", generator=torch.Generator("cuda").manual_seed(m)).to(dtype)
    got = quant_matmul(x, weight).float()
    w = dequantize(weight)  # (N, K) float32
    if dtype != torch.float32 and m > 4:
        w = w.to(dtype).float()  # the matrix-matrix kernel feeds tl.dot weights in x's dtype
    expected = (x.double() @ w.double().T).float()  # exact products, whatever TF32 settings
    # The kernel accumulates in float32 (error ~1e-5 of sum |x w| at these K) and rounds the
    # output to x's dtype (to nearest: 2**-8 relative for bf16, 2**-11 for fp16).
    rel = 2**-8 if dtype == torch.bfloat16 else 2**-11 if dtype == torch.float16 else 0.0
    bound = rel * expected.abs() + 1e-5 * (x.float().abs() @ w.abs().T) + 1e-4
    assert ((got - expected).abs() <= bound).all(), (fmt, n, k, m, dtype)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("matrix", list(MATRICES))
@pytest.mark.parametrize("m", [1, 4, 16])
def test_decode_batches_match_reference(fmt, matrix, m):
    n, k = MATRICES[matrix]
    check_against_reference(fmt, n, k, m, torch.bfloat16)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("m", [1, 300, 2048])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.float16])
def test_long_prefills_and_dtypes_match_reference(fmt, m, dtype):
    n, k = MATRICES["down_proj"]
    check_against_reference(fmt, n, k, m, dtype)


def test_kernels_do_not_sync_with_the_host():
    from engine.kernels.quant_matmul import quant_matmul

    weights = {fmt: random_quantized(fmt, 3072, 2048, "cuda") for fmt in FORMATS}
    xs = [torch.randn(m, 2048, device="cuda", dtype=torch.bfloat16) for m in (1, 64)]
    for fmt in FORMATS:  # compile outside the checked region
        for x in xs:
            quant_matmul(x, weights[fmt])
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        for fmt in FORMATS:
            for x in xs:
                quant_matmul(x, weights[fmt])
    finally:
        torch.cuda.set_sync_debug_mode("default")


@pytest.mark.parametrize("fmt", ["q4_1", "q8_0", "q4_k", "int8"])
@pytest.mark.parametrize("matrix", ["gate_up_proj", "down_proj", "lm_head"])
def test_quantized_faster_than_bf16_at_batch_1(fmt, matrix):
    # The target: at batch 1 the step is weight-bandwidth bound, and every format reads
    # at most ~half the bytes of bf16 (int8/q8_0 ~0.53x, q4 ~0.28-0.31x).
    from triton.testing import do_bench

    from engine.kernels.quant_matmul import quant_matmul

    n, k = MATRICES[matrix]
    weight = random_quantized(fmt, n, k, "cuda")
    dense = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    quant_ms = do_bench(lambda: quant_matmul(x, weight), return_mode="median")
    bf16_ms = do_bench(lambda: F.linear(x, dense), return_mode="median")
    assert quant_ms < bf16_ms, f"{fmt} {matrix}: {quant_ms:.4f} ms vs bf16 {bf16_ms:.4f} ms"


@pytest.fixture(scope="module")
def default_loaded():
    return load_model("default", dtype=torch.float32)


def test_default_model_gguf_kernels_match_dequantized_float32(default_loaded):
    # Same weight values both ways; float32 activations, IEEE fp32 dots in the kernels.
    ids = default_loaded.tokenizer.encode(TEXT_PATH.read_text(encoding="utf-8"))[:512]
    rows = {
        r.mode: r
        for r in evaluate(default_loaded, ids, ("none", "gguf"), device="cuda", dtype="float32")
    }
    assert rows["gguf"].error is None
    assert rows["gguf"].max_abs_logit_error < 1e-2
    assert rows["gguf"].top1_agreement > 0.995
    assert abs(rows["gguf"].perplexity / rows["none"].perplexity - 1) < 1e-4


def test_default_model_quantization_quality_in_bf16(default_loaded):
    ids = default_loaded.tokenizer.encode(TEXT_PATH.read_text(encoding="utf-8"))
    rows = {r.mode: r for r in evaluate(default_loaded, ids, device="cuda", dtype="bfloat16")}
    none = rows["none"].perplexity
    # gguf keeps float32 weights in registers where "none" rounds them to bf16: no worse.
    assert rows["gguf"].perplexity < none * 1.01
    assert rows["int8"].perplexity < none * 1.03
    assert rows["gguf"].weight_bytes < rows["none"].weight_bytes / 2.5


def test_default_model_engine_gguf_auto_on_cuda_greedy(default_loaded):
    prompts = [[{"role": "user", "content": "What is the capital of France?"}]]
    params = SamplingParams(max_tokens=16, temperature=0.0)
    outs = {}
    for mode in ("auto", "none"):
        core = EngineCore(EngineConfig(dtype="float32", quantization=mode), default_loaded)
        assert core.runner.quantization == ("gguf" if mode == "auto" else "none")
        outs[mode] = LLM(core=core).generate(prompts, params)[0].token_ids
    # Same weights, fp32 both ways: greedy tokens agree (summation order aside).
    assert outs["auto"] == outs["none"]


def test_dummy_1b_int8_engine_runs_and_stays_close():
    loaded = load_model("dummy:llama-1b", dtype=torch.bfloat16)
    ids = list(range(1000, 1000 + 256))
    rows = {
        r.mode: r
        for r in evaluate(
            loaded,
            ids,
            ("none", "int8"),
            model_spec="dummy:llama-1b",
            device="cuda",
            dtype="bfloat16",
            chunk=128,
        )
    }
    assert rows["int8"].error is None
    assert rows["int8"].weight_bytes < rows["none"].weight_bytes * 0.55
    # Random N(0, 0.02) weights amplify rounding through 16 layers: measured in float32 on a CPU
    # (64 tokens) mean |dlogit| 0.054, max 0.39; bf16 adds its own noise to both sides.
    assert rows["int8"].mean_abs_logit_error < 0.15
