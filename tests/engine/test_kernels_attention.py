"""Triton attention kernels against their torch references (interpreted on a CPU), the triton
backend's dispatch, and the whole engine on a tiny model with either backend.

Shapes are tiny: TRITON_INTERPRET=1 runs every program in Python. Block tables are shuffled
(blocks of a sequence are not contiguous in the cache) and context lengths ragged, including 1
and exact multiples of the block size.
"""

from __future__ import annotations

import dataclasses

import pytest
import torch

from engine import LLM, EngineConfig, SamplingParams
from engine.core import EngineCore
from engine.kernels.decode_attention import (
    choose_num_splits,
    paged_decode_attention,
    paged_decode_attention_reference,
    split_plan,
)
from engine.kernels.kv_store import store_kv, store_kv_reference
from engine.kernels.prefill_attention import (
    paged_prefill_attention,
    paged_prefill_attention_reference,
)
from engine.layers.attention import (
    AttentionMetadata,
    DecodeGroup,
    KernelBatch,
    PrefillSeq,
    paged_attention,
)
from engine.loader import load_model
from engine.model_runner import resolve_attention_backend

HEAD_DIM = 16
BLOCK_SIZE = 16
NUM_BLOCKS = 24
# (atol, rtol) against float32 references: bf16 rounds K/V-weighted sums and the output.
TOLERANCE = {torch.float32: (1e-5, 1e-5), torch.bfloat16: (2e-2, 2e-2)}


def make_caches(kvh: int, dtype: torch.dtype, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    shape = (kvh, NUM_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    return torch.randn(shape, generator=g).to(dtype), torch.randn(shape, generator=g).to(dtype)


def shuffled_tables(num_seqs: int, width: int, seed: int = 1) -> torch.Tensor:
    """Distinct, non-contiguous blocks per sequence: (num_seqs, width) int32."""
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(NUM_BLOCKS, generator=g)[: num_seqs * width]
    return order.view(num_seqs, width).to(torch.int32)


def assert_close(actual: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype) -> None:
    atol, rtol = TOLERANCE[dtype]
    assert actual.dtype == expected.dtype
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol, rtol=rtol)


# ---- KV store -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_store_kv_writes_slots_and_skips_padding_rows(dtype):
    kvh, num_tokens = 3, 6
    g = torch.Generator().manual_seed(0)
    # k and v as the model makes them: strided views into one fused qkv row.
    qkv = torch.randn(num_tokens, 4 * kvh * HEAD_DIM, generator=g).to(dtype)
    k = qkv[:, : kvh * HEAD_DIM].view(num_tokens, kvh, HEAD_DIM)
    v = qkv[:, 2 * kvh * HEAD_DIM : 3 * kvh * HEAD_DIM].view(num_tokens, kvh, HEAD_DIM)
    slots = torch.tensor(
        [5, -1, 16, 100, -1, 383]
    )  # block 0, padding, block 1 start, ..., last slot
    shape = (kvh, NUM_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    k_cache, v_cache = torch.zeros(shape, dtype=dtype), torch.zeros(shape, dtype=dtype)
    k_ref, v_ref = k_cache.clone(), v_cache.clone()

    store_kv(k, v, k_cache, v_cache, slots)
    store_kv_reference(k, v, k_ref, v_ref, slots)

    assert torch.equal(k_cache, k_ref) and torch.equal(v_cache, v_ref)
    assert torch.equal(k_cache[:, 100 // BLOCK_SIZE, 100 % BLOCK_SIZE], k[3])
    assert torch.equal(v_cache[:, 23, 15], v[5])
    # Exactly the four real rows were written; padding rows touched nothing.
    written = k_cache.view(kvh, -1, HEAD_DIM).abs().sum(dim=(0, 2)).nonzero().flatten()
    assert written.tolist() == [5, 16, 100, 383]


def test_store_kv_rejects_mismatched_shapes():
    k_cache, v_cache = make_caches(2, torch.float32)
    k = torch.randn(4, 2, HEAD_DIM)
    with pytest.raises(ValueError, match="slot_mapping must have shape"):
        store_kv(k, k, k_cache, v_cache, torch.arange(3))
    with pytest.raises(ValueError, match=r"k must be \(rows, 2, 16\)"):
        store_kv(torch.randn(4, 3, HEAD_DIM), k, k_cache, v_cache, torch.arange(4))
    with pytest.raises(ValueError, match="K and V caches differ"):
        store_kv(k, k, k_cache, v_cache[:1], torch.arange(4))


# ---- decode -----------------------------------------------------------------------------------

# Context lengths: a single token, exact block multiples, ragged, the full table.
CONTEXT_LENS = [1, 16, 37, 80, 32, 5]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("group", [1, 3])
@pytest.mark.parametrize("num_splits", [1, 2, 3, 5])
def test_decode_matches_reference(dtype, group, num_splits):
    kvh = 2
    k_cache, v_cache = make_caches(kvh, dtype)
    batch = len(CONTEXT_LENS)
    tables = shuffled_tables(batch, 4)
    # The longest sequence owns a fifth block; the others pad their tables with block 0.
    tables = torch.cat([tables, torch.zeros(batch, 1, dtype=torch.int32)], dim=1)
    tables[3, 4] = 23
    lens = torch.tensor(CONTEXT_LENS, dtype=torch.int32)
    q = torch.randn(batch, kvh * group, HEAD_DIM, generator=torch.Generator().manual_seed(2)).to(
        dtype
    )

    out = paged_decode_attention(
        q, k_cache, v_cache, tables, lens, 0.3, num_splits=num_splits, block_n=16
    )
    expected = paged_decode_attention_reference(q, k_cache, v_cache, tables, lens, 0.3)

    assert_close(out, expected, dtype)


def test_decode_split_plan_covers_the_table_without_empty_splits():
    # (max_blocks, asked splits, block_size, block_n) -> (blocks per split, splits)
    assert split_plan(5, 1, 16, 16) == (5, 1)
    assert split_plan(5, 2, 16, 16) == (3, 2)
    assert split_plan(5, 3, 16, 16) == (2, 3)
    assert split_plan(5, 9, 16, 16) == (1, 5)
    assert split_plan(8, 3, 4, 16) == (4, 2)  # whole 16-token tiles of 4-token blocks
    assert split_plan(128, 16, 16, 64) == (8, 16)
    with pytest.raises(ValueError, match="num_splits must be positive, got 0"):
        split_plan(5, 0, 16, 16)


def test_decode_splits_chosen_to_fill_the_gpu():
    # H100: 132 SMs. One sequence, 8 KV heads, 2048 tokens: 16 splits of 128 tokens.
    assert choose_num_splits(1, 8, 128, 16, 132) == 16
    # Short context: one split per 128 tokens at most.
    assert choose_num_splits(1, 8, 8, 16, 132) == 1
    # A big batch fills the GPU alone.
    assert choose_num_splits(64, 8, 128, 16, 132) == 1
    assert choose_num_splits(16, 8, 128, 16, 132) == 3


def test_decode_padding_row_with_empty_context_gives_zeros():
    k_cache, v_cache = make_caches(1, torch.float32)
    q = torch.randn(2, 2, HEAD_DIM)
    tables = shuffled_tables(2, 2)
    lens = torch.tensor([20, 0], dtype=torch.int32)
    for splits in (1, 2):
        out = paged_decode_attention(
            q, k_cache, v_cache, tables, lens, 0.25, num_splits=splits, block_n=16
        )
        assert torch.equal(out[1], torch.zeros(2, HEAD_DIM))
        expected = paged_decode_attention_reference(q, k_cache, v_cache, tables, lens, 0.25)
        assert_close(out, expected, torch.float32)


def test_decode_rejects_bad_input():
    k_cache, v_cache = make_caches(2, torch.float32)
    q = torch.randn(2, 4, HEAD_DIM)
    tables = shuffled_tables(2, 2)
    lens = torch.tensor([3, 4], dtype=torch.int32)
    with pytest.raises(ValueError, match=r"query heads \(3\) must be a multiple of KV heads \(2\)"):
        paged_decode_attention(torch.randn(2, 3, HEAD_DIM), k_cache, v_cache, tables, lens, 1.0)
    with pytest.raises(ValueError, match=r"context_lens must have shape \(2,\)"):
        paged_decode_attention(q, k_cache, v_cache, tables, lens[:1], 1.0)
    with pytest.raises(ValueError, match="block_tables must be int32 or int64"):
        paged_decode_attention(q, k_cache, v_cache, tables.float(), lens, 1.0)


# ---- prefill ----------------------------------------------------------------------------------

# (new tokens, tokens already cached): a fresh prompt, a single new token after a prefix, a chunk
# after a prefix that ends mid-block, a chunk after an exact block multiple, a multi-tile prompt.
PREFILLS = [(5, 0), (1, 7), (20, 4), (3, 16), (40, 0)]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("group", [1, 3])
def test_prefill_matches_reference_for_several_sequences_in_one_launch(dtype, group):
    kvh = 2
    k_cache, v_cache = make_caches(kvh, dtype)
    tables = shuffled_tables(len(PREFILLS), 3)
    num_query = [n for n, _ in PREFILLS]
    cu = torch.tensor([0, *torch.tensor(num_query).cumsum(0).tolist()], dtype=torch.int32)
    computed = torch.tensor([c for _, c in PREFILLS], dtype=torch.int32)
    g = torch.Generator().manual_seed(3)
    q = torch.randn(sum(num_query), kvh * group, HEAD_DIM, generator=g).to(dtype)

    out = paged_prefill_attention(
        q, k_cache, v_cache, tables, cu, computed, max(num_query), 0.3, block_m=16, block_n=16
    )
    expected = paged_prefill_attention_reference(q, k_cache, v_cache, tables, cu, computed, 0.3)

    assert_close(out, expected, dtype)


def test_prefill_without_prefix_equals_causal_sdpa_on_the_chunk():
    """Independent of the reference: store a prompt with the kernel, attend with the kernel,
    compare with torch's causal SDPA over the contiguous K/V."""
    kvh, heads, n = 2, 6, 29
    g = torch.Generator().manual_seed(4)
    q, k, v = (torch.randn(n, h, HEAD_DIM, generator=g) for h in (heads, kvh, kvh))
    k_cache = torch.zeros(kvh, NUM_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    v_cache = torch.zeros_like(k_cache)
    table = torch.tensor([[9, 2]], dtype=torch.int32)
    slots = torch.tensor(
        [int(table[0, p // BLOCK_SIZE]) * BLOCK_SIZE + p % BLOCK_SIZE for p in range(n)]
    )
    store_kv(k, v, k_cache, v_cache, slots)

    out = paged_prefill_attention(
        q, k_cache, v_cache, table, torch.tensor([0, n], dtype=torch.int32),
        torch.tensor([0], dtype=torch.int32), n, 0.25, block_m=16, block_n=16,
    )  # fmt: skip
    expected = torch.nn.functional.scaled_dot_product_attention(
        q.transpose(0, 1),
        k.transpose(0, 1),
        v.transpose(0, 1),
        is_causal=True,
        scale=0.25,
        enable_gqa=True,
    ).transpose(0, 1)

    assert_close(out, expected, torch.float32)


def test_prefill_rejects_bad_input():
    k_cache, v_cache = make_caches(2, torch.float32)
    q = torch.randn(5, 4, HEAD_DIM)
    tables = shuffled_tables(1, 2)
    computed = torch.tensor([0], dtype=torch.int32)
    with pytest.raises(ValueError, match=r"cu_query_starts must have shape \(2,\)"):
        paged_prefill_attention(q, k_cache, v_cache, tables, torch.tensor([0]), computed, 5, 1.0)
    with pytest.raises(ValueError, match="block_m must be a power of two >= 16, got 24"):
        paged_prefill_attention(
            q, k_cache, v_cache, tables, torch.tensor([0, 5]), computed, 5, 1.0, block_m=24
        )


# ---- dispatch: the triton backend against the torch path --------------------------------------


def test_triton_backend_matches_torch_path_on_a_mixed_step():
    """Two decodes and two prefills (one fresh, one after a cached prefix) in one step, through
    `paged_attention` with each metadata; the caches must end identical too."""
    kvh, heads = 2, 6
    k_cache, v_cache = make_caches(kvh, torch.float32, seed=5)
    # (new tokens, cached tokens, blocks); rows: the decodes, then the prefills.
    seqs = [(1, 20, [7, 3]), (1, 16, [11, 0]), (9, 0, [5]), (12, 18, [8, 14, 2])]
    slots, decode_groups, prefills = [], [], []
    row = 0
    for n, cached, blocks in seqs:
        positions = range(cached, cached + n)
        slots += [blocks[p // BLOCK_SIZE] * BLOCK_SIZE + p % BLOCK_SIZE for p in positions]
        if n > 1:
            table = torch.tensor(blocks) if cached else None
            prefills.append(PrefillSeq(row, n, cached, table))
        row += n
    decode_tables = torch.tensor([[7, 3], [11, 0]])
    span = torch.arange(2 * BLOCK_SIZE)
    mask = (span[None, :] < torch.tensor([21, 17])[:, None])[None, :, None, :]
    decode_groups.append(DecodeGroup(0, 2, decode_tables, mask))
    torch_meta = AttentionMetadata(torch.tensor(slots), decode_groups, prefills)
    kernel_meta = AttentionMetadata(
        torch.tensor(slots),
        [],
        [],
        KernelBatch(
            num_decodes=2,
            decode_block_tables=decode_tables.int(),
            decode_context_lens=torch.tensor([21, 17], dtype=torch.int32),
            prefill_block_tables=torch.tensor([[5, 0, 0], [8, 14, 2]], dtype=torch.int32),
            prefill_cu_query_starts=torch.tensor([0, 9, 21], dtype=torch.int32),
            prefill_num_computed=torch.tensor([0, 18], dtype=torch.int32),
            prefill_max_query_len=12,
        ),
    )
    g = torch.Generator().manual_seed(6)
    q, k, v = (torch.randn(row, h, HEAD_DIM, generator=g) for h in (heads, kvh, kvh))
    caches_torch = (k_cache.clone(), v_cache.clone())

    out_kernel = paged_attention(q, k, v, k_cache, v_cache, kernel_meta, 0.25)
    out_torch = paged_attention(q, k, v, *caches_torch, torch_meta, 0.25)

    assert torch.equal(k_cache, caches_torch[0]) and torch.equal(v_cache, caches_torch[1])
    assert_close(out_kernel, out_torch, torch.float32)


def test_attention_backend_resolution_and_errors(monkeypatch):
    cpu, cuda = torch.device("cpu"), torch.device("cuda", 0)
    assert resolve_attention_backend("auto", cpu) == "torch"
    assert resolve_attention_backend("auto", cuda) == "triton"
    assert resolve_attention_backend("torch", cuda) == "torch"
    assert resolve_attention_backend("triton", cpu) == "triton"  # interpreted, as in these tests
    with pytest.raises(
        ValueError, match="attention_backend must be auto, torch or triton; got 'cuda'"
    ):
        resolve_attention_backend("cuda", cpu)
    with pytest.raises(ValueError, match="attention_backend must be one of auto, torch, triton"):
        EngineConfig(attention_backend="flash")
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    with pytest.raises(
        ValueError, match=r"attention_backend='triton' needs a CUDA device, got cpu"
    ):
        resolve_attention_backend("triton", cpu)
    with pytest.raises(ValueError, match="needs a CUDA device"):
        EngineCore(EngineConfig(model="dummy:llama-tiny", device="cpu", attention_backend="triton"))


# ---- end to end -------------------------------------------------------------------------------


def test_engine_greedy_tokens_equal_with_triton_and_torch_backends():
    """The tiny dummy model through LLM with each backend: a prompt longer than the step's
    token budget (chunked prefill), then two prompts sharing its first blocks (prefix-cache
    hits, prefill after a cached prefix) decoding side by side with ragged contexts."""
    loaded = load_model("dummy:llama-tiny", dtype=torch.float32)
    g = torch.Generator().manual_seed(7)
    shared = torch.randint(3, 500, (40,), generator=g).tolist()
    first = [shared + torch.randint(3, 500, (9,), generator=g).tolist()]
    then = [shared + torch.randint(3, 500, (n,), generator=g).tolist() for n in (3, 20)]
    params = SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True, logprobs=0)

    results = {}
    for backend in ("torch", "triton"):
        config = EngineConfig(
            model="dummy:llama-tiny",
            dtype="float32",
            device="cpu",
            num_kv_blocks=32,
            max_num_batched_tokens=24,
            attention_backend=backend,
        )
        llm = LLM(core=EngineCore(config, dataclasses.replace(loaded)))
        assert llm.core.runner.attention_backend == backend
        results[backend] = llm.generate(first, params) + llm.generate(then, params)

    for ours, reference in zip(results["triton"], results["torch"], strict=True):
        assert ours.token_ids == reference.token_ids
        assert len(ours.token_ids) == 6
        # Random small weights make greedy tokens insensitive to attention; the chosen tokens'
        # logprobs are not.
        torch.testing.assert_close(
            [t.logprob for t in ours.logprobs], [t.logprob for t in reference.logprobs],
            atol=1e-5, rtol=1e-5,
        )  # fmt: skip
    # The second round found the shared 40 tokens' two full blocks in the prefix cache.
    assert [r.num_cached_tokens for r in results["triton"]] == [0, 32, 32]
