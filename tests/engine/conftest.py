"""Session fixtures around the default model, and the transformers references for parity tests.

The default GGUF is read once per session (`loaded_model`, float32); `tokenizer` is its tokenizer.
`hf_reference_model` / `hf_reference_tokenizer` are transformers' own GGUF conversions of the same
file: an implementation independent of ours, built once because each costs seconds.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from engine import loader
from engine.errors import ModelLoadError
from engine.loader import LoadedModel
from engine.tokenizer import Tokenizer

# Reference models come from local files only; nothing may be fetched from a model hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")


@pytest.fixture(scope="session")
def default_model_path() -> str:
    try:
        return loader.default_model_path()
    except ModelLoadError as exc:
        pytest.skip(f"the default model package is not installed: {exc}")


@pytest.fixture(scope="session")
def loaded_model(default_model_path: str) -> LoadedModel:
    return loader.load_model(default_model_path, dtype=torch.float32)


@pytest.fixture(scope="session")
def tokenizer(loaded_model: LoadedModel) -> Tokenizer:
    return loaded_model.tokenizer


def _require_transformers() -> Any:
    transformers = pytest.importorskip(
        "transformers", reason="transformers is the reference implementation for parity tests"
    )
    pytest.importorskip("accelerate", reason="transformers needs accelerate to load a GGUF model")
    return transformers


def _dtype_kwargs(transformers: Any) -> dict[str, torch.dtype]:
    # transformers 5 renamed torch_dtype to dtype.
    major = int(transformers.__version__.split(".")[0])
    return {"dtype" if major >= 5 else "torch_dtype": torch.float32}


def load_reference_gguf_model(path: str) -> torch.nn.Module:
    """transformers' own GGUF load (dequantized, Q/K un-permuted) of the file at `path`."""
    import gguf

    transformers = _require_transformers()
    with pytest.MonkeyPatch.context() as patch:
        # transformers rebuilds gguf's tensor-name table once per module (~400 times, seconds
        # in all); the table depends only on its arguments, so memoizing it changes nothing.
        patch.setattr(
            gguf, "get_tensor_name_map", functools.lru_cache(maxsize=None)(gguf.get_tensor_name_map)
        )
        model = transformers.AutoModelForCausalLM.from_pretrained(
            os.path.dirname(path), gguf_file=os.path.basename(path), **_dtype_kwargs(transformers)
        )
    return model.eval()


def load_reference_gguf_tokenizer(path: str) -> Any:
    transformers = _require_transformers()
    return transformers.AutoTokenizer.from_pretrained(
        os.path.dirname(path), gguf_file=os.path.basename(path)
    )


@pytest.fixture(scope="session")
def hf_reference_model(default_model_path: str) -> torch.nn.Module:
    return load_reference_gguf_model(default_model_path)


@pytest.fixture(scope="session")
def hf_reference_tokenizer(default_model_path: str) -> Any:
    return load_reference_gguf_tokenizer(default_model_path)


# ---- tiny GGUF files written on the fly -----------------------------------------------------


def permute_like_llama_cpp(weight: np.ndarray, num_heads: int) -> np.ndarray:
    """The row order llama.cpp's converter gives llama Q/K (interleaved RoPE pairs)."""
    rows = weight.shape[0]
    split = weight.reshape(num_heads, 2, rows // num_heads // 2, *weight.shape[1:])
    return split.swapaxes(1, 2).reshape(weight.shape)


@pytest.fixture(scope="session")
def small_vocab(hf_reference_tokenizer: Any) -> dict[str, list]:
    """The first 2048 tokens of SmolLM2's vocabulary and the merges that stay inside it.

    Taken from transformers' conversion (already loaded) rather than parsing the GGUF again.
    """
    backend = json.loads(hf_reference_tokenizer.backend_tokenizer.to_str())
    by_id = {index: token for token, index in backend["model"]["vocab"].items()}
    tokens = [by_id[i] for i in range(2048)]
    special = {t["id"] for t in backend["added_tokens"] if t["special"]}
    token_types = [3 if i in special else 1 for i in range(2048)]  # llama.cpp CONTROL / NORMAL
    known = set(tokens)
    merges = [
        f"{left} {right}"
        for left, right in backend["model"]["merges"]
        if left in known and right in known and left + right in known
    ]
    return {"tokens": tokens, "token_types": token_types, "merges": merges}


TINY_SHAPE = {"hidden": 32, "inter": 48, "layers": 2, "heads": 4, "kv_heads": 2}


def tiny_hf_weights(architecture: str, vocab_size: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Random float32 weights in transformers' names and layout for the TINY_SHAPE model."""
    rng = np.random.default_rng(seed)
    s = TINY_SHAPE
    head_dim = s["hidden"] // s["heads"]
    q_dim, kv_dim = s["heads"] * head_dim, s["kv_heads"] * head_dim

    def rand(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.1, size=shape).astype(np.float32)

    weights = {
        "model.embed_tokens.weight": rand(vocab_size, s["hidden"]),
        "model.norm.weight": rand(s["hidden"]) + 1.0,
    }
    for i in range(s["layers"]):
        p = f"model.layers.{i}."
        weights |= {
            p + "self_attn.q_proj.weight": rand(q_dim, s["hidden"]),
            p + "self_attn.k_proj.weight": rand(kv_dim, s["hidden"]),
            p + "self_attn.v_proj.weight": rand(kv_dim, s["hidden"]),
            p + "self_attn.o_proj.weight": rand(s["hidden"], q_dim),
            p + "mlp.gate_proj.weight": rand(s["inter"], s["hidden"]),
            p + "mlp.up_proj.weight": rand(s["inter"], s["hidden"]),
            p + "mlp.down_proj.weight": rand(s["hidden"], s["inter"]),
            p + "input_layernorm.weight": rand(s["hidden"]) + 1.0,
            p + "post_attention_layernorm.weight": rand(s["hidden"]) + 1.0,
        }
        if architecture == "qwen2":
            weights |= {
                p + "self_attn.q_proj.bias": rand(q_dim),
                p + "self_attn.k_proj.bias": rand(kv_dim),
                p + "self_attn.v_proj.bias": rand(kv_dim),
            }
    return weights


_TO_GGUF = {
    "model.embed_tokens.weight": "token_embd.weight",
    "model.norm.weight": "output_norm.weight",
    "lm_head.weight": "output.weight",
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
    "input_layernorm": "attn_norm",
    "post_attention_layernorm": "ffn_norm",
}


def _gguf_name(hf_name: str) -> str:
    if hf_name in _TO_GGUF:
        return _TO_GGUF[hf_name]
    _, _, layer, rest = hf_name.split(".", 3)
    module, kind = rest.rsplit(".", 1)
    return f"blk.{layer}.{_TO_GGUF[module]}.{kind}"


def write_tiny_gguf(
    path: Path,
    architecture: str,
    vocab: dict[str, list],
    weights: dict[str, np.ndarray],
    *,
    pre: str = "smollm",
    eos_token_id: int = 2,
    chat_template: str | None = None,
    add_bos: bool = False,
    extra_tensors: dict[str, np.ndarray] | None = None,
    tensor_types: dict[str, str] | None = None,
) -> Path:
    """Write a GGUF the way llama.cpp's converter lays it out (llama Q/K permuted).

    Tensors are float32 unless `tensor_types` maps a name part ("q_proj", "down_proj", ...) to a
    GGML type name ("Q8_0", "F16", ...) to store it in.
    """
    import gguf
    from gguf import quants

    s = TINY_SHAPE
    writer = gguf.GGUFWriter(str(path), architecture)
    writer.add_name(f"tiny-{architecture}")
    writer.add_block_count(s["layers"])
    writer.add_context_length(256)
    writer.add_embedding_length(s["hidden"])
    writer.add_feed_forward_length(s["inter"])
    writer.add_head_count(s["heads"])
    writer.add_head_count_kv(s["kv_heads"])
    writer.add_rope_freq_base(50000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_rope_dimension_count(s["hidden"] // s["heads"])
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(vocab["tokens"])
    writer.add_token_types(vocab["token_types"])
    writer.add_token_merges(vocab["merges"])
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(eos_token_id)
    writer.add_add_bos_token(add_bos)
    if chat_template is not None:
        writer.add_chat_template(chat_template)
    for name, weight in weights.items():
        if architecture == "llama" and ".self_attn.q_proj." in name:
            weight = permute_like_llama_cpp(weight, s["heads"])
        elif architecture == "llama" and ".self_attn.k_proj." in name:
            weight = permute_like_llama_cpp(weight, s["kv_heads"])
        kind = next((t for part, t in (tensor_types or {}).items() if f".{part}." in name), "F32")
        qtype = gguf.GGMLQuantizationType[kind]
        if qtype == gguf.GGMLQuantizationType.F32:
            writer.add_tensor(_gguf_name(name), np.ascontiguousarray(weight))
        else:
            packed = quants.quantize(np.ascontiguousarray(weight), qtype)
            writer.add_tensor(_gguf_name(name), packed, raw_shape=packed.shape, raw_dtype=qtype)
    for name, tensor in (extra_tensors or {}).items():
        writer.add_tensor(name, tensor)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.fixture
def tiny_gguf(
    tmp_path: Path, small_vocab: dict[str, list]
) -> Callable[..., tuple[Path, dict[str, np.ndarray]]]:
    """Factory: tiny_gguf(architecture, **options) -> (path, the weights it holds in HF layout)."""

    def make(
        architecture: str, *, seed: int = 0, untied: bool = False, **options: Any
    ) -> tuple[Path, dict[str, np.ndarray]]:
        weights = tiny_hf_weights(architecture, len(small_vocab["tokens"]), seed)
        if untied:
            vocab_size = len(small_vocab["tokens"])
            rng = np.random.default_rng(seed + 1)
            head = rng.normal(0.0, 0.1, size=(vocab_size, TINY_SHAPE["hidden"]))
            weights["lm_head.weight"] = head.astype(np.float32)
        path = tmp_path / f"tiny-{architecture}-{seed}.gguf"
        return write_tiny_gguf(path, architecture, small_vocab, weights, **options), weights

    return make
