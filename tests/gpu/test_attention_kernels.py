"""The Triton attention kernels at full size on a GPU: Llama-3.2-1B's attention shape, long
contexts, bf16, against the torch references; no host sync inside a kernel call; the engine
with each attention backend. Skipped without CUDA (the CPU-sized versions run interpreted in
tests/engine/test_kernels_attention.py)."""

from __future__ import annotations

import pytest
import torch

from engine import LLM, EngineConfig, SamplingParams
from engine.core import EngineCore
from engine.kernels.decode_attention import (
    paged_decode_attention,
    paged_decode_attention_reference,
)
from engine.kernels.kv_store import store_kv, store_kv_reference
from engine.kernels.prefill_attention import (
    paged_prefill_attention,
    paged_prefill_attention_reference,
)
from engine.loader import load_model

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

HEADS, KV_HEADS, HEAD_DIM, BLOCK_SIZE = 32, 8, 64, 16  # Llama-3.2-1B
NUM_BLOCKS = 2048
TOLERANCE = {torch.float32: (2e-5, 2e-5), torch.bfloat16: (2e-2, 2e-2)}


def caches(dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator(device="cuda").manual_seed(0)
    shape = (KV_HEADS, NUM_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    return (
        torch.randn(shape, generator=g, device="cuda").to(dtype),
        torch.randn(shape, generator=g, device="cuda").to(dtype),
    )


def shuffled_tables(lens: list[int]) -> torch.Tensor:
    """Distinct shuffled blocks per sequence, padded with block 0: (B, max_blocks) int32."""
    need = [-(-n // BLOCK_SIZE) for n in lens]
    order = torch.randperm(NUM_BLOCKS, generator=torch.Generator().manual_seed(1)).tolist()
    tables, used = [], 0
    for k in need:
        tables.append(order[used : used + k] + [0] * (max(need) - k))
        used += k
    assert used <= NUM_BLOCKS
    return torch.tensor(tables, dtype=torch.int32, device="cuda")


def assert_close(actual: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype) -> None:
    atol, rtol = TOLERANCE[dtype]
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol, rtol=rtol)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("num_splits", [None, 1, 7, 64])
def test_decode_long_contexts(dtype, num_splits):
    k_cache, v_cache = caches(dtype)
    lens = [1, 4096, 8191, 2064, 16, 700]
    tables = shuffled_tables(lens)
    q = torch.randn(len(lens), HEADS, HEAD_DIM, device="cuda").to(dtype)
    context_lens = torch.tensor(lens, dtype=torch.int32, device="cuda")

    out = paged_decode_attention(
        q, k_cache, v_cache, tables, context_lens, HEAD_DIM**-0.5, num_splits=num_splits
    )
    expected = paged_decode_attention_reference(
        q, k_cache, v_cache, tables, context_lens, HEAD_DIM**-0.5
    )

    assert_close(out, expected, dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_prefill_long_prompts_and_cached_prefixes(dtype):
    k_cache, v_cache = caches(dtype)
    # (new tokens, cached tokens): a long fresh prompt, a chunk after a long prefix, one token
    # after a prefix, a chunk after an exact block multiple.
    seqs = [(2048, 0), (300, 4000), (1, 1000), (77, 16)]
    tables = shuffled_tables([n + c for n, c in seqs])
    num_query = [n for n, _ in seqs]
    cu = torch.tensor(
        [0, *torch.tensor(num_query).cumsum(0).tolist()], dtype=torch.int32, device="cuda"
    )
    computed = torch.tensor([c for _, c in seqs], dtype=torch.int32, device="cuda")
    q = torch.randn(sum(num_query), HEADS, HEAD_DIM, device="cuda").to(dtype)

    out = paged_prefill_attention(
        q, k_cache, v_cache, tables, cu, computed, max(num_query), HEAD_DIM**-0.5
    )
    expected = paged_prefill_attention_reference(
        q, k_cache, v_cache, tables, cu, computed, HEAD_DIM**-0.5
    )

    assert_close(out, expected, dtype)


def test_store_kv_with_padding_rows():
    k_cache, v_cache = caches(torch.bfloat16)
    k_ref, v_ref = k_cache.clone(), v_cache.clone()
    slots = torch.randperm(NUM_BLOCKS * BLOCK_SIZE, device="cuda")[:512]
    slots[::7] = -1
    k = torch.randn(512, KV_HEADS, HEAD_DIM, device="cuda").bfloat16()
    v = torch.randn(512, KV_HEADS, HEAD_DIM, device="cuda").bfloat16()

    store_kv(k, v, k_cache, v_cache, slots)
    store_kv_reference(k, v, k_ref, v_ref, slots)

    assert torch.equal(k_cache, k_ref) and torch.equal(v_cache, v_ref)


def test_kernels_do_not_sync_with_the_host():
    k_cache, v_cache = caches(torch.bfloat16)
    lens = [5, 3000, 129]
    tables = shuffled_tables(lens)
    context_lens = torch.tensor(lens, dtype=torch.int32, device="cuda")
    q = torch.randn(3, HEADS, HEAD_DIM, device="cuda").bfloat16()
    k = torch.randn(3, KV_HEADS, HEAD_DIM, device="cuda").bfloat16()
    slots = torch.tensor([7, 100, -1], device="cuda")
    cu = torch.tensor([0, 1, 2, 3], dtype=torch.int32, device="cuda")
    # Compile first: the first launch of a kernel may sync while loading it.
    store_kv(k, k, k_cache, v_cache, slots)
    paged_decode_attention(q, k_cache, v_cache, tables, context_lens, 0.125)
    paged_decode_attention(q, k_cache, v_cache, tables, context_lens, 0.125, num_splits=1)
    paged_prefill_attention(q, k_cache, v_cache, tables, cu, context_lens - 1, 1, 0.125)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        store_kv(k, k, k_cache, v_cache, slots)
        paged_decode_attention(q, k_cache, v_cache, tables, context_lens, 0.125)
        paged_decode_attention(q, k_cache, v_cache, tables, context_lens, 0.125, num_splits=1)
        paged_prefill_attention(q, k_cache, v_cache, tables, cu, context_lens - 1, 1, 0.125)
    finally:
        torch.cuda.set_sync_debug_mode("default")


@pytest.mark.parametrize("shape", ["llama-tiny", "llama-1b"])
def test_engine_backends_agree_on_the_gpu(shape):
    """float32 so that both backends compute the same sums: equal greedy tokens and logprobs,
    with chunked prefill and prefix-cache hits in the run."""
    loaded = load_model(f"dummy:{shape}", dtype=torch.float32)
    g = torch.Generator().manual_seed(7)
    vocab = loaded.config.vocab_size
    shared = torch.randint(3, vocab, (300,), generator=g).tolist()
    prompts = [shared + torch.randint(3, vocab, (n,), generator=g).tolist() for n in (5, 90, 333)]
    params = SamplingParams(max_tokens=8, temperature=0.0, ignore_eos=True, logprobs=0)
    results = {}
    for backend in ("torch", "triton"):
        config = EngineConfig(
            model=f"dummy:{shape}",
            dtype="float32",
            device="cuda",
            num_kv_blocks=256,
            max_num_batched_tokens=256,
            attention_backend=backend,
        )
        llm = LLM(core=EngineCore(config, loaded))
        results[backend] = llm.generate(prompts[:1], params) + llm.generate(prompts[1:], params)
        del llm
        torch.cuda.empty_cache()
    for ours, reference in zip(results["triton"], results["torch"], strict=True):
        assert ours.token_ids == reference.token_ids
        torch.testing.assert_close(
            [t.logprob for t in ours.logprobs],
            [t.logprob for t in reference.logprobs],
            atol=1e-3,
            rtol=1e-3,
        )
    assert [r.num_cached_tokens for r in results["triton"]] == [0, 288, 288]
