"""The per-layer Triton kernels at full size on a GPU (Llama-3.2-1B's and SmolLM2's widths,
batch 1 to 256), the rounded residual sum exactly torch's, no host sync inside them, and the
engine with either set of layer ops. Skipped without CUDA (interpreted versions:
tests/engine/test_kernels_layer_ops.py)."""

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
from engine.layers.rotary import RotaryEmbedding

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

TOL = {torch.float32: dict(rtol=1e-5, atol=1e-5), torch.bfloat16: dict(rtol=1.6e-2, atol=1.6e-2)}


def rand(*shape, dtype=torch.bfloat16):
    return torch.randn(*shape, device="cuda").to(dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("rows,hidden", [(1, 2048), (256, 2048), (3, 576), (4096, 576)])
def test_add_rms_norm_full_size(dtype, rows, hidden):
    x, residual = rand(rows, hidden, dtype=dtype), rand(rows, hidden, dtype=dtype)
    weight = torch.rand(hidden, device="cuda") + 0.5
    out, summed = add_rms_norm(x, residual, weight, 1e-5)
    ref_out, ref_sum = add_rms_norm_reference(x, residual, weight, 1e-5)
    assert torch.equal(summed, ref_sum)  # one float32 add, rounded to nearest, both ways
    torch.testing.assert_close(out, ref_out, **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("heads,kv_heads,head_dim", [(32, 8, 64), (9, 3, 64)])
@pytest.mark.parametrize("tokens", [1, 256, 2048])
def test_rotary_full_size(dtype, heads, kv_heads, head_dim, tokens):
    table = RotaryEmbedding(head_dim, 8192, 500000.0).cuda()
    qkv = rand(tokens, (heads + 2 * kv_heads) * head_dim, dtype=dtype)
    q, k, _ = qkv.split([heads * head_dim, kv_heads * head_dim, kv_heads * head_dim], dim=-1)
    q, k = q.view(tokens, heads, head_dim), k.view(tokens, kv_heads, head_dim)
    positions = torch.randint(0, 8192, (tokens,), device="cuda")
    got = rotary(q, k, table.cos, table.sin, positions)
    want = rotary_reference(q, k, table.cos, table.sin, positions)
    for g, w in zip(got, want, strict=True):
        torch.testing.assert_close(g, w, **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("rows,inter", [(1, 8192), (256, 8192), (7, 1536)])
def test_silu_and_mul_full_size(dtype, rows, inter):
    x = rand(rows, 2 * inter, dtype=dtype) * 4
    torch.testing.assert_close(silu_and_mul(x), silu_and_mul_reference(x.float()).to(dtype),
                               **TOL[dtype])


def test_layer_kernels_do_not_sync_with_the_host():
    table = RotaryEmbedding(64, 4096, 500000.0).cuda()
    x, residual, weight = rand(16, 2048), rand(16, 2048), torch.ones(2048, device="cuda")
    q, k = rand(16, 32, 64), rand(16, 8, 64)
    positions = torch.arange(16, device="cuda")
    gate_up = rand(16, 2 * 8192)

    def run():
        add_rms_norm(x, residual, weight, 1e-5)
        rotary(q, k, table.cos, table.sin, positions)
        silu_and_mul(gate_up)

    run()  # compile outside the checked region
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        run()
    finally:
        torch.cuda.set_sync_debug_mode("default")


def test_engine_layer_kernels_agree_on_the_gpu():
    # float32 both ways (bf16 greedy choices of random weights sit too close to ties).
    prompts = [list(range(100, 164)), list(range(500, 517))]
    params = SamplingParams(max_tokens=24, temperature=0.0, ignore_eos=True)
    outs = {}
    for kernels in ("torch", "triton"):
        llm = LLM(EngineConfig(model="dummy:llama-1b", dtype="float32", layer_kernels=kernels,
                               kv_cache_memory_bytes=1 << 30, max_model_len=512))
        assert llm.core.runner.layer_kernels == kernels
        outs[kernels] = [r.token_ids for r in llm.generate(prompts, params)]
        del llm
        torch.cuda.empty_cache()
    assert outs["triton"] == outs["torch"]
