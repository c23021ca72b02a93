"""Our paged Llama/Qwen2 model against Hugging Face transformers on the same random weights."""

from __future__ import annotations

import pytest
import torch

from engine.config import ModelConfig
from engine.layers.attention import AttentionMetadata, DecodeGroup, PrefillSeq
from engine.models.llama import LlamaForCausalLM

transformers = pytest.importorskip("transformers", reason="transformers is a test extra")

BLOCK = 4


def tiny(arch: str) -> tuple[ModelConfig, torch.nn.Module]:
    torch.manual_seed(0)
    common = dict(
        vocab_size=97, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
        rms_norm_eps=1e-6, rope_theta=10000.0,
    )
    if arch == "llama":
        hf_cfg = transformers.LlamaConfig(**common, tie_word_embeddings=True, head_dim=16)
        hf = transformers.LlamaForCausalLM(hf_cfg)
    else:
        hf_cfg = transformers.Qwen2Config(**common, tie_word_embeddings=False)
        hf = transformers.Qwen2ForCausalLM(hf_cfg)
    hf = hf.float().eval()
    cfg = ModelConfig(
        architecture=arch, vocab_size=97, hidden_size=64, intermediate_size=96, num_layers=2,
        num_heads=4, num_kv_heads=2, head_dim=16, rope_theta=10000.0, rms_norm_eps=1e-6,
        max_position_embeddings=128, tie_word_embeddings=(arch == "llama"),
        attention_bias=(arch == "qwen2"),
    )
    return cfg, hf


def build_ours(cfg: ModelConfig, hf: torch.nn.Module) -> LlamaForCausalLM:
    model = LlamaForCausalLM(cfg, 128).eval()
    weights = {k: v for k, v in hf.state_dict().items() if "rotary" not in k}
    model.load_hf_weights(weights)
    return model


def caches(cfg: ModelConfig, num_blocks: int = 16) -> list[tuple[torch.Tensor, torch.Tensor]]:
    shape = (cfg.num_kv_heads, num_blocks, BLOCK, cfg.head_dim)
    return [(torch.zeros(shape), torch.zeros(shape)) for _ in range(cfg.num_layers)]


def slots_for(block_ids: list[int], positions: range) -> list[int]:
    return [block_ids[p // BLOCK] * BLOCK + p % BLOCK for p in positions]


@pytest.mark.parametrize("arch", ["llama", "qwen2"])
def test_prefill_then_decode_matches_transformers(arch):
    cfg, hf = tiny(arch)
    ours = build_ours(cfg, hf)
    ids = torch.randint(0, 97, (13,), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ref = hf(ids[None]).logits[0]  # (13, V)
    kv = caches(cfg)
    blocks = [5, 2, 9, 0]  # deliberately scattered
    # Prefill the first 10 tokens in two chunks (7 + 3), then decode tokens 10, 11, 12.
    got = []
    for start, n in [(0, 7), (7, 3)]:
        pos = range(start, start + n)
        table = torch.tensor(blocks) if start else None
        meta = AttentionMetadata(
            torch.tensor(slots_for(blocks, pos)), [], [PrefillSeq(0, n, start, table)]
        )
        with torch.no_grad():
            h = ours(ids[start : start + n], torch.tensor(list(pos)), kv, meta)
            got.append(ours.compute_logits(h))
    for p in range(10, 13):
        mask = (torch.arange(len(blocks) * BLOCK) <= p)[None, None, None, :]
        meta = AttentionMetadata(
            torch.tensor(slots_for(blocks, range(p, p + 1))),
            [DecodeGroup(0, 1, torch.tensor([blocks]), mask)],
            [],
        )
        with torch.no_grad():
            got.append(ours.compute_logits(ours(ids[p : p + 1], torch.tensor([p]), kv, meta)))
    got_all = torch.cat(got)
    torch.testing.assert_close(got_all, ref, rtol=1e-4, atol=1e-4)


def test_batched_decode_with_padding_matches_single_sequences():
    cfg, hf = tiny("llama")
    ours = build_ours(cfg, hf)
    gen = torch.Generator().manual_seed(2)
    seqs = [torch.randint(0, 97, (n,), generator=gen) for n in (5, 11, 8)]
    tables = [[0, 1], [2, 3, 4], [5, 6]]
    kv = caches(cfg)
    # Prefill all three in one step (three prefill sequences in one flat batch).
    flat, pos, slots, prefills, row = [], [], [], [], 0
    for s, t in zip(seqs, tables, strict=True):
        n = len(s) - 1
        flat.append(s[:n])
        pos += list(range(n))
        slots += slots_for(t, range(n))
        prefills.append(PrefillSeq(row, n, 0, None))
        row += n
    meta = AttentionMetadata(torch.tensor(slots), [], prefills)
    with torch.no_grad():
        ours(torch.cat(flat), torch.tensor(pos), kv, meta)
    # Decode the last token of each at once, contexts padded to the longest.
    lens = [len(s) for s in seqs]
    width = max(len(t) for t in tables)
    padded = torch.tensor([t + [0] * (width - len(t)) for t in tables])
    mask = (torch.arange(width * BLOCK)[None] < torch.tensor(lens)[:, None])[None, :, None, :]
    meta = AttentionMetadata(
        torch.tensor([slots_for(t, range(n - 1, n))[0] for t, n in zip(tables, lens, strict=True)]),
        [DecodeGroup(0, 2, padded[:2], mask[:, :2]), DecodeGroup(2, 3, padded[2:], mask[:, 2:])],
        [],
    )
    last = torch.stack([s[-1] for s in seqs])
    with torch.no_grad():
        got = ours.compute_logits(ours(last, torch.tensor([n - 1 for n in lens]), kv, meta))
        ref = torch.stack([hf(s[None]).logits[0, -1] for s in seqs])
    torch.testing.assert_close(got, ref, rtol=1e-4, atol=1e-4)


def test_default_model_logits_match_transformers_gguf_load(loaded_model, hf_reference_model, tokenizer):
    """The real SmolLM2 GGUF: our loader + paged model against transformers' own GGUF load."""
    cfg = loaded_model.config
    ours = LlamaForCausalLM(cfg, 256).eval()
    ours.load_hf_weights(loaded_model.weights)
    ids = torch.tensor(tokenizer.encode_chat([{"role": "user", "content": "Write a haiku about 東京 🌸."}]))
    n = len(ids)
    num_blocks = -(-n // BLOCK)
    shape = (cfg.num_kv_heads, num_blocks, BLOCK, cfg.head_dim)
    kv = [(torch.zeros(shape), torch.zeros(shape)) for _ in range(cfg.num_layers)]
    meta = AttentionMetadata(torch.arange(n), [], [PrefillSeq(0, n, 0, None)])
    with torch.no_grad():
        got = ours.compute_logits(ours(ids, torch.arange(n), kv, meta))
        ref = hf_reference_model(ids[None]).logits[0].float()
    torch.testing.assert_close(got, ref, rtol=1e-4, atol=2e-4)
    assert torch.equal(got.argmax(-1), ref.argmax(-1))
