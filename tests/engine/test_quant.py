"""Weight-only quantization: packed formats, Triton kernels (interpreted on a CPU) against the
torch reference, QuantLinear, packed GGUF loading and the engine with quantization on."""

from __future__ import annotations

import gguf
import numpy as np
import pytest
import torch
from gguf import quants

from engine import LLM, EngineConfig, SamplingParams
from engine.core import EngineCore
from engine.kernels.quant_formats import (
    QuantizedWeight,
    cat_rows,
    pack_gguf,
    quantize_int8,
)
from engine.kernels.quant_reference import dequantize, dequantize_rows, quant_matmul_reference
from engine.layers.attention import AttentionMetadata, PrefillSeq
from engine.layers.quant_linear import QuantLinear
from engine.loader import load_model
from engine.loader.gguf import load_gguf_packed
from engine.loader.quantized import resolve_quantization
from engine.model_runner import ModelRunner
from engine.quant_eval import evaluate

GGML = gguf.GGMLQuantizationType
# Kernels run on the GPU when there is one, else in Triton's interpreter (tests/conftest.py).
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def gguf_blocks(kind: str, n: int, k: int, seed: int = 0) -> np.ndarray:
    """GGUF bytes of an (n, k) weight: quantized by gguf itself where it can (Q8_0, Q4_1), random
    blocks with sane fp16 super-scales for Q4_K (gguf has no Q4_K quantizer)."""
    rng = np.random.default_rng(seed)
    if kind != "Q4_K":
        return quants.quantize(rng.normal(0.0, 1.0, size=(n, k)).astype(np.float32), GGML[kind])
    raw = rng.integers(0, 256, size=(n, k // 256, 144), dtype=np.uint8)
    scales = rng.uniform(1e-3, 0.1, size=(n, k // 256, 2)).astype(np.float16)
    raw[:, :, 0:4] = scales.view(np.uint8)  # d, dmin
    return raw.reshape(n, -1)


def packed(kind: str, n: int, k: int, seed: int = 0) -> QuantizedWeight:
    if kind == "int8":
        return quantize_int8(torch.randn(n, k, generator=torch.Generator().manual_seed(seed)))
    return pack_gguf(gguf_blocks(kind, n, k, seed), kind, n, k)


# ---- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "k"), [("Q8_0", 96), ("Q4_1", 96), ("Q4_K", 512)])
def test_repacked_blocks_dequantize_to_gguf_values_bit_for_bit(kind, k):
    raw = gguf_blocks(kind, 5, k, seed=3)
    expected = quants.dequantize(raw, GGML[kind])  # (5, k) float32
    got = dequantize(pack_gguf(raw, kind, 5, k)).numpy()
    assert got.dtype == np.float32 and got.shape == (5, k)
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_q4_1_layout_is_documented_nibble_order():
    # One block: scale 1, min 0; byte j holds weight j (low nibble) and weight 16 + j (high).
    block = np.zeros(20, dtype=np.uint8)
    block[0:2] = np.array([1.0], dtype=np.float16).view(np.uint8)
    block[4:20] = (
        np.arange(16, dtype=np.uint8) | (np.uint8(15) - np.arange(16, dtype=np.uint8)) << 4
    )
    w = pack_gguf(block[None], "Q4_1", 1, 32)
    assert w.tensors["qweight"].tolist() == [block[4:20].tolist()]
    assert dequantize(w)[0].tolist() == [float(i) for i in range(16)] + [
        float(15 - i) for i in range(16)
    ]


def test_pack_gguf_refuses_wrong_sizes_and_types():
    raw = gguf_blocks("Q8_0", 2, 64)
    with pytest.raises(ValueError, match="must be 102 bytes of uint8, got 136"):
        pack_gguf(raw, "Q8_0", 3, 32)
    with pytest.raises(ValueError, match="multiple of 32"):
        pack_gguf(raw, "Q8_0", 2, 48)
    with pytest.raises(ValueError, match="Q6_K has no packed kernel"):
        pack_gguf(raw, "Q6_K", 2, 64)


def test_int8_is_symmetric_per_output_channel():
    w = torch.tensor([[1.27, -0.5, 0.011, 0.0], [0.0, 0.0, 0.0, 0.0], [-2.54, 1.0, 0.3, 2.0]])
    q = quantize_int8(w)
    assert q.tensors["scales"].view(-1).tolist() == pytest.approx([0.01, 0.0, 0.02])
    assert q.tensors["qweight"].tolist() == [[127, -50, 1, 0], [0, 0, 0, 0], [-127, 50, 15, 100]]
    assert torch.equal(dequantize(q), q.tensors["qweight"].float() * q.tensors["scales"])
    with pytest.raises(ValueError, match="2-D float"):
        quantize_int8(torch.ones(4, dtype=torch.int32))


def test_quantized_weight_checks_its_tensors():
    w = packed("Q4_1", 3, 64)
    with pytest.raises(ValueError, match=r"qweight must be \(4, 32\)"):
        QuantizedWeight("q4_1", 4, 64, w.tensors)
    with pytest.raises(ValueError, match="unknown quantized format"):
        QuantizedWeight("q5_0", 3, 64, w.tensors)


@pytest.mark.parametrize("kind", ["Q8_0", "Q4_1", "Q4_K", "int8"])
def test_fused_rows_are_exact(kind):
    k = 256
    parts = [packed(kind, n, k, seed) for n, seed in [(8, 1), (4, 2), (4, 3)]]
    fused = cat_rows(parts)
    assert fused.shape == (16, k)
    assert torch.equal(dequantize(fused), torch.cat([dequantize(p) for p in parts]))
    layer = QuantLinear(k, 16, fused.format, bias=True, backend="torch")
    bias = torch.randn(16)
    layer.load(fused, bias)
    x = torch.randn(3, k)
    expected = torch.cat([quant_matmul_reference(x, p) for p in parts], dim=-1) + bias
    assert torch.allclose(layer(x), expected, rtol=0, atol=1e-5)
    rows = torch.tensor([[15, 0], [8, 8]])
    assert torch.equal(layer.embed(rows), dequantize(fused)[rows])
    assert torch.equal(dequantize_rows(fused, rows), dequantize(fused)[rows])


def test_fusing_different_formats_is_refused():
    with pytest.raises(ValueError, match="cannot fuse q8_0"):
        cat_rows([packed("Q4_1", 2, 64), packed("Q8_0", 2, 64)])


def test_quant_linear_refuses_a_mismatched_load():
    layer = QuantLinear(64, 4, "q4_1")
    with pytest.raises(ValueError, match=r"cannot load a q8_0 \(4, 64\)"):
        layer.load(packed("Q8_0", 4, 64))
    with pytest.raises(ValueError, match="bias given: True"):
        layer.load(packed("Q4_1", 4, 64), torch.zeros(4))
    with pytest.raises(ValueError, match="backend must be one of"):
        QuantLinear(64, 4, "q4_1", backend="cuda")


# ---- Triton kernels vs the reference (interpreted on a CPU) ---------------------------------

# (format, K): K a multiple of the format's block; M=1 and 2 run the matrix-vector kernel, 5 the
# matrix-matrix one; N is odd so the last tile of rows is partial.
KERNEL_CASES = [("Q8_0", 96), ("Q4_1", 96), ("Q4_K", 512), ("int8", 40)]


@pytest.mark.parametrize(("kind", "k"), KERNEL_CASES)
@pytest.mark.parametrize("m", [1, 2, 5])
def test_kernel_matches_reference_float32(kind, k, m):
    from engine.kernels.quant_matmul import quant_matmul

    w = packed(kind, 7, k, seed=m)
    x = torch.randn(m, k, generator=torch.Generator().manual_seed(10 + m))
    bias = torch.randn(7) if m != 2 else None
    got = quant_matmul(x.to(DEVICE), w.to(DEVICE), None if bias is None else bias.to(DEVICE)).cpu()
    expected = quant_matmul_reference(x, w, bias)
    assert got.shape == (m, 7) and got.dtype == torch.float32
    scale = expected.abs().max().item()
    assert (got - expected).abs().max().item() <= 1e-5 * max(scale, 1.0)


@pytest.mark.parametrize(("kind", "n"), [("Q4_1", 2113), ("Q8_0", 4229)])
def test_kernel_wide_outputs_use_taller_row_blocks(kind, n):
    # Past 8 * 264 and 16 * 264 rows the matrix-vector kernel takes 8 and 16 rows a program.
    from engine.kernels.quant_matmul import quant_matmul

    k = 64
    w = packed(kind, n, k, seed=n)
    x = torch.randn(1, k, generator=torch.Generator().manual_seed(n))
    expected = quant_matmul_reference(x, w)
    got = quant_matmul(x.to(DEVICE), w.to(DEVICE)).cpu()
    scale = expected.abs().max().item()
    assert (got - expected).abs().max().item() <= 1e-5 * max(scale, 1.0)


@pytest.mark.parametrize("kind", ["Q4_1", "Q8_0"])
@pytest.mark.parametrize("m", [1, 18])
def test_kernel_bfloat16_within_bf16_rounding(kind, m):
    from engine.kernels.quant_matmul import quant_matmul

    w = packed(kind, 9, 64)
    x = torch.randn(2, m, 64, generator=torch.Generator().manual_seed(m)).to(DEVICE, torch.bfloat16)
    got = quant_matmul(x, w.to(DEVICE)).float().cpu()
    assert got.shape == (2, m, 9)
    # Products accumulate in float32. The matrix-matrix kernel (m=18) feeds tl.dot bf16 weights,
    # as a dense bf16 model does (each off by under one unit in the last place, 2**-7 relative),
    # and the output is rounded to bf16 (another unit at most: Triton's interpreter truncates
    # where a GPU rounds to nearest).
    weights = dequantize(w)  # (9, 64) float32
    xf = x.float().cpu()
    expected = xf @ weights.T
    bound = 2**-7 * (xf.abs() @ weights.abs().T) + 2**-7 * expected.abs() + 1e-6
    assert ((got - expected).abs() <= bound).all()


def test_kernel_refuses_bad_input():
    from engine.kernels.quant_matmul import quant_matmul

    w = packed("Q4_1", 3, 64).to(DEVICE)
    with pytest.raises(ValueError, match="x has 32 features"):
        quant_matmul(torch.randn(1, 32, device=DEVICE), w)
    with pytest.raises(ValueError, match="must be float32, bfloat16 or float16"):
        quant_matmul(torch.ones(1, 64, dtype=torch.int64, device=DEVICE), w)
    with pytest.raises(ValueError, match=r"bias must be \(3,\)"):
        quant_matmul(torch.randn(1, 64, device=DEVICE), w, torch.zeros(4, device=DEVICE))
    assert quant_matmul(torch.randn(0, 64, device=DEVICE), w).shape == (0, 3)


def test_quant_linear_triton_backend_matches_torch_backend():
    w = packed("Q4_1", 5, 64)
    layers = {}
    for backend in ("torch", "triton"):
        layers[backend] = QuantLinear(64, 5, "q4_1", backend=backend, device=DEVICE)
        layers[backend].load(w)
    x = torch.randn(3, 64, device=DEVICE)
    assert torch.allclose(layers["triton"](x), layers["torch"](x), rtol=0, atol=1e-4)


# ---- loading -------------------------------------------------------------------------------


def test_packed_gguf_load_equals_dequantized_load(tiny_gguf):
    # Mixed types: q (permuted rows) Q4_1, k Q8_0, v F32, gate/up Q4_1, o Q8_0; the down
    # projection's 48 inputs are no multiple of 32, so it stays F32.
    types = {
        "q_proj": "Q4_1",
        "k_proj": "Q8_0",
        "gate_proj": "Q4_1",
        "up_proj": "Q4_1",
        "o_proj": "Q8_0",
    }
    path, _ = tiny_gguf("llama", tensor_types=types)
    loaded = load_model(str(path))
    packs = load_gguf_packed(str(path), loaded.config)
    assert sorted(packs) == sorted(
        f"model.layers.{i}.{name}.weight"
        for i in range(2)
        for name in (
            "self_attn.q_proj",
            "self_attn.k_proj",
            "self_attn.o_proj",
            "mlp.gate_proj",
            "mlp.up_proj",
        )
    )
    assert packs["model.layers.0.self_attn.q_proj.weight"].format == "q4_1"
    assert packs["model.layers.0.self_attn.k_proj.weight"].format == "q8_0"
    for name, weight in packs.items():
        assert torch.equal(dequantize(weight), loaded.weights[name]), name

    config = EngineConfig(
        model=str(path), device="cpu", dtype="float32", quantization="gguf", num_kv_blocks=8
    )
    runner = ModelRunner(config, loaded.config, loaded.weights, 64)
    layer = runner.model.layers[0]
    # q/k/v mix formats (and v has no packed form): that fused projection stays float.
    assert isinstance(layer.self_attn.qkv_proj, torch.nn.Linear)
    assert (
        isinstance(layer.self_attn.o_proj, QuantLinear) and layer.self_attn.o_proj.format == "q8_0"
    )
    assert (
        isinstance(layer.mlp.gate_up_proj, QuantLinear) and layer.mlp.gate_up_proj.format == "q4_1"
    )
    assert isinstance(layer.mlp.down_proj, torch.nn.Linear)
    assert isinstance(runner.model.embed_tokens, torch.nn.Embedding)
    plain = ModelRunner(
        EngineConfig(model=str(path), device="cpu", dtype="float32", num_kv_blocks=8),
        loaded.config,
        loaded.weights,
        64,
    )
    ids = torch.tensor([5, 9, 200, 7, 1])
    assert torch.equal(prefill_logits(runner, ids), prefill_logits(plain, ids))


def prefill_logits(runner: ModelRunner, ids: torch.Tensor) -> torch.Tensor:
    """Logits (n, V) of one prompt prefilled from empty, slots 0..n-1, on the CPU."""
    n, dev = len(ids), runner.device
    positions = torch.arange(n, device=dev)
    meta = AttentionMetadata(positions, [], [PrefillSeq(0, n, 0, None)])
    with torch.inference_mode():
        hidden = runner.model(ids.to(dev), positions, runner.kv_caches, meta)
        return runner.model.compute_logits(hidden).cpu()


def test_quantization_auto_resolves_per_device_and_gguf_needs_a_gguf(default_model_path, tmp_path):
    cpu, cuda = torch.device("cpu"), torch.device("cuda")
    assert resolve_quantization("auto", "default", cpu) == "none"
    assert resolve_quantization("auto", "default", cuda) == "gguf"
    assert resolve_quantization("auto", default_model_path, cuda) == "gguf"
    assert resolve_quantization("auto", "dummy:llama-tiny", cuda) == "none"
    assert resolve_quantization("int8", "dummy:llama-tiny", cpu) == "int8"
    (tmp_path / "config.json").write_text("{}")
    for spec in ("dummy:llama-tiny", str(tmp_path), str(tmp_path / "config.json")):
        with pytest.raises(ValueError, match="quantization='gguf' keeps a GGUF file's quantized"):
            resolve_quantization("gguf", spec, cpu)


def test_gguf_quantization_on_a_dummy_model_is_a_clear_error():
    loaded = load_model("dummy:llama-tiny")
    config = EngineConfig(
        model="dummy:llama-tiny", device="cpu", quantization="gguf", num_kv_blocks=8
    )
    with pytest.raises(ValueError, match="'dummy:llama-tiny' is not a GGUF file"):
        EngineCore(config, loaded)


@pytest.mark.parametrize("shape", ["llama-tiny", "qwen2-tiny"])
def test_int8_dummy_model_with_kernels_matches_reference_path(shape):
    # Untied head (llama-tiny) and q/k/v biases with a tied packed embedding (qwen2-tiny).
    loaded = load_model(f"dummy:{shape}")
    config = EngineConfig(
        model=f"dummy:{shape}", device=DEVICE, dtype="float32", quantization="int8", num_kv_blocks=8
    )
    runner = ModelRunner(config, loaded.config, loaded.weights, 64)
    quant = [m for m in runner.model.modules() if isinstance(m, QuantLinear)]
    assert len(quant) == 2 * 4 + (1 if shape == "qwen2-tiny" else 2)
    ids = torch.tensor([3, 100, 42, 7, 300, 11, 2, 9, 64, 1, 5, 77, 8, 13, 21, 34, 55, 89])
    for m in quant:
        m.backend = "torch"
    reference = prefill_logits(runner, ids)
    for m in quant:
        m.backend = "triton"
    kernels = prefill_logits(runner, ids)  # 18 rows: the matrix-matrix kernels
    assert torch.allclose(kernels, reference, rtol=0, atol=1e-4)
    plain = ModelRunner(
        EngineConfig(model=f"dummy:{shape}", device=DEVICE, dtype="float32", num_kv_blocks=8),
        loaded.config,
        loaded.weights,
        64,
    )
    # int8 of N(0, 0.02) weights: measured max |dlogit| 6.6e-3 (llama) and 7.6e-3 (qwen2).
    assert (reference - prefill_logits(plain, ids)).abs().max().item() < 2e-2


# ---- the default model through the engine --------------------------------------------------


@pytest.mark.slow
def test_default_model_gguf_gives_the_greedy_tokens_of_none(loaded_model):
    params = SamplingParams(max_tokens=8, temperature=0.0)
    prompts = [[{"role": "user", "content": "What is the capital of France?"}]]
    outs = {}
    for mode in ("none", "gguf"):
        config = EngineConfig(dtype="float32", device="cpu", quantization=mode, num_kv_blocks=64)
        core = EngineCore(config, loaded_model)
        assert core.runner.quantization == mode
        outs[mode] = LLM(core=core).generate(prompts, params)[0].token_ids
    assert len(outs["none"]) == 8
    assert outs["gguf"] == outs["none"]


@pytest.mark.slow
def test_default_model_quality_cost(loaded_model):
    ids = loaded_model.tokenizer.encode(
        "The orchard behind the house had not been pruned for years, and"
    )
    rows = {r.mode: r for r in evaluate(loaded_model, ids, device="cpu", dtype="float32", chunk=8)}
    none, gguf_row, int8 = rows["none"], rows["gguf"], rows["int8"]
    # Same values, same float32 arithmetic on the reference path: identical logits.
    assert gguf_row.max_abs_logit_error == 0.0 and gguf_row.perplexity == none.perplexity
    assert gguf_row.weight_bytes < none.weight_bytes / 5
    # int8 of the dequantized weights, measured on this prompt: max |dlogit| 1.33, mean 0.23,
    # perplexity 91.6 -> 92.8.
    assert 0.0 < int8.max_abs_logit_error < 3.0
    assert int8.mean_abs_logit_error < 0.5
    assert abs(int8.perplexity - none.perplexity) / none.perplexity < 0.05


# ---- the GPU benchmark's parts that run anywhere -------------------------------------------


@pytest.mark.parametrize("fmt", ["q4_1", "q8_0", "q4_k", "int8"])
def test_bench_random_weights_are_valid_and_kernels_agree(fmt):
    from engine.kernels.bench_quant import packed_bytes, random_quantized
    from engine.kernels.quant_matmul import quant_matmul

    w = random_quantized(fmt, 5, 256, DEVICE)
    assert (
        packed_bytes(w)
        == {
            "q4_1": 5 * (128 + 32),
            "q8_0": 5 * (256 + 16),
            "q4_k": 5 * (128 + 4 + 16),
            "int8": 5 * 260,
        }[fmt]
    )
    x = torch.randn(1, 256, device=DEVICE)
    expected = quant_matmul_reference(x, w)
    assert expected.abs().max() > 0
    assert torch.allclose(quant_matmul(x, w), expected, rtol=1e-5, atol=1e-4)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU exit")
def test_bench_quant_exits_2_without_a_gpu(capsys):
    from engine.kernels.bench_quant import main

    assert main([]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err
    assert main(["--formats", "q9"]) == 2
