"""The per-layer Triton kernels (residual add + RMSNorm, rotary, SiLU x up) against their
torch references, interpreted on a CPU; the model with either set of layer ops.

Inputs are fresh random values each test, never zeros; outputs are poisoned first where the
kernel writes into a buffer it allocates (torch.empty), so an unwritten element shows as a
mismatch. Shapes are small but odd: hidden sizes and head counts that are not powers of two.
"""

from __future__ import annotations

import pytest
import torch

from engine import LLM, EngineConfig, SamplingParams
from engine.kernels.layer_ops import (
    add_rms_norm,
    add_rms_norm_reference,
    rotary,
    rotary_reference,
    silu_and_mul,
    silu_and_mul_reference,
)
from engine.layers.ops import TorchLayerOps, TritonLayerOps, layer_ops
from engine.layers.rotary import RotaryEmbedding
from engine.model_runner import resolve_layer_kernels

TOL = {torch.float32: dict(rtol=1e-5, atol=1e-5), torch.bfloat16: dict(rtol=1.6e-2, atol=1.6e-2)}
DTYPES = [torch.float32, torch.bfloat16]


def rand(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hidden", [96, 576])
@pytest.mark.parametrize("with_residual", [True, False])
def test_add_rms_norm_matches_reference(dtype, hidden, with_residual):
    x = rand(5, hidden, dtype=dtype, seed=1)
    residual = rand(5, hidden, dtype=dtype, seed=2) if with_residual else None
    weight = rand(hidden, seed=3).abs() + 0.5
    out, summed = add_rms_norm(x, residual, weight, 1e-5)
    ref_out, ref_sum = add_rms_norm_reference(x, residual, weight, 1e-5)
    assert out.dtype == dtype and summed.dtype == dtype
    # Both add in float32 and round once; Triton's interpreter may round bf16 differently from
    # the GPU (one ulp here), so equality is asserted at full size on a GPU (tests/gpu).
    torch.testing.assert_close(summed, ref_sum, **TOL[dtype])
    torch.testing.assert_close(out, ref_out, **TOL[dtype])
    if not with_residual:
        assert summed is x


def test_add_rms_norm_reads_row_strided_views():
    base = rand(4, 2 * 64, seed=4)
    x, residual = base[:, :64], rand(4, 64, seed=5)  # x's rows are 128 apart
    weight = torch.ones(64)
    out, summed = add_rms_norm(x, residual, weight, 1e-6)
    ref_out, ref_sum = add_rms_norm_reference(x, residual, weight, 1e-6)
    torch.testing.assert_close(out, ref_out, **TOL[torch.float32])
    torch.testing.assert_close(summed, ref_sum, rtol=0, atol=0)


def test_add_rms_norm_rejects_mismatched_inputs():
    with pytest.raises(ValueError, match="residual"):
        add_rms_norm(rand(3, 8), rand(3, 8, dtype=torch.bfloat16), torch.ones(8), 1e-6)
    with pytest.raises(ValueError, match=r"\(T, 8\)"):
        add_rms_norm(rand(3, 9), None, torch.ones(8), 1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("heads,kv_heads,head_dim", [(9, 3, 64), (4, 4, 16), (6, 2, 24)])
def test_rotary_matches_reference_on_views_of_a_fused_qkv(dtype, heads, kv_heads, head_dim):
    T = 7
    table = RotaryEmbedding(head_dim, 64, 10000.0)
    qkv = rand(T, (heads + 2 * kv_heads) * head_dim, dtype=dtype, seed=6)
    q, k, _ = qkv.split([heads * head_dim, kv_heads * head_dim, kv_heads * head_dim], dim=-1)
    q, k = q.view(T, heads, head_dim), k.view(T, kv_heads, head_dim)
    positions = torch.tensor([0, 5, 63, 1, 17, 2, 40])
    q_out, k_out = rotary(q, k, table.cos, table.sin, positions)
    q_ref, k_ref = rotary_reference(q, k, table.cos, table.sin, positions)
    assert q_out.is_contiguous() and q_out.shape == q.shape and k_out.shape == k.shape
    torch.testing.assert_close(q_out, q_ref, **TOL[dtype])
    torch.testing.assert_close(k_out, k_ref, **TOL[dtype])
    # Position 0 is the identity rotation.
    torch.testing.assert_close(q_out[0], q[0], rtol=0, atol=0)


def test_rotary_rejects_bad_shapes():
    table = RotaryEmbedding(16, 8, 10000.0)
    q, k = rand(3, 2, 16), rand(3, 1, 16)
    with pytest.raises(ValueError, match="positions"):
        rotary(q, k, table.cos, table.sin, torch.tensor([0, 1]))
    with pytest.raises(ValueError, match="tables"):
        rotary(q, k, table.cos[:, :4].contiguous(), table.sin[:, :4].contiguous(),
               torch.tensor([0, 1, 2]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("inter", [40, 1536, 2500])
def test_silu_and_mul_matches_reference(dtype, inter):
    x = rand(3, 2 * inter, dtype=dtype, seed=7) * 4
    out = silu_and_mul(x)
    # Against float32 arithmetic: the kernel rounds once, torch's bf16 path twice.
    expected = silu_and_mul_reference(x.float()).to(dtype)
    assert out.shape == (3, inter)
    torch.testing.assert_close(out, expected, **TOL[dtype])


def test_empty_batches_launch_nothing():
    assert add_rms_norm(rand(0, 8), rand(0, 8), torch.ones(8), 1e-6)[0].shape == (0, 8)
    assert silu_and_mul(rand(0, 8)).shape == (0, 4)
    table = RotaryEmbedding(8, 4, 10000.0)
    q, k = rotary(rand(0, 2, 8), rand(0, 1, 8), table.cos, table.sin, torch.zeros(0, dtype=torch.long))
    assert q.shape == (0, 2, 8) and k.shape == (0, 1, 8)


def test_layer_ops_choice():
    assert isinstance(layer_ops("torch"), TorchLayerOps)
    assert isinstance(layer_ops("triton"), TritonLayerOps)
    with pytest.raises(ValueError, match="torch or triton"):
        layer_ops("cuda")
    cpu = torch.device("cpu")
    assert resolve_layer_kernels("auto", "torch", cpu) == "torch"
    assert resolve_layer_kernels("auto", "triton", cpu) == "torch"  # interpreted: on request
    assert resolve_layer_kernels("torch", "triton", cpu) == "torch"
    # The tests run the interpreter, so "triton" is allowed on this CPU.
    assert resolve_layer_kernels("triton", "torch", cpu) == "triton"
    with pytest.raises(ValueError, match="layer_kernels"):
        EngineConfig(layer_kernels="fast")


def test_engine_greedy_tokens_agree_with_either_layer_ops():
    # float32 both ways; the tiny model's greedy choices are far from ties over these steps.
    prompts = [[5, 17, 99, 3, 250, 7, 1, 42], [300, 301, 302]]
    params = SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True)
    outs = {}
    for kernels in ("torch", "triton"):
        llm = LLM(EngineConfig(model="dummy:llama-tiny", dtype="float32", layer_kernels=kernels))
        assert llm.core.runner.layer_kernels == kernels
        assert llm.core.runner.model.ops.name == kernels
        outs[kernels] = [r.token_ids for r in llm.generate(prompts, params)]
    assert outs["torch"] == outs["triton"]
    assert [len(o) for o in outs["triton"]] == [16, 16]
