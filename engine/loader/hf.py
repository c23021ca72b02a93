"""Load a Hugging Face model folder (Llama / Qwen2, safetensors, tokenizer.json)."""

from __future__ import annotations

import json
import os
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.loader import LoadedModel, check_weights
from engine.tokenizer import Tokenizer

_ARCHITECTURES = {"LlamaForCausalLM": "llama", "Qwen2ForCausalLM": "qwen2"}
_INDEX_FILE = "model.safetensors.index.json"
# Buffers some older checkpoints saved; recomputed from rope_theta, never needed.
_IGNORED_SUFFIXES = (".rotary_emb.inv_freq",)


def load_hf_folder(folder: str, dtype: torch.dtype = torch.float32) -> LoadedModel:
    raw = _read_config(folder)
    architecture = _architecture(raw, folder)
    tokenizer = Tokenizer.from_hf_folder(
        folder, architecture=architecture, vocab_size=_int(raw, "vocab_size", folder)
    )
    config = _config(raw, architecture, folder, tokenizer)
    weights = _load_weights(folder, dtype)
    for name in [n for n in weights if n.endswith(_IGNORED_SUFFIXES)]:
        del weights[name]
    if config.tie_word_embeddings:
        # Some tied checkpoints still store a copy of the head; the contract omits it.
        weights.pop("lm_head.weight", None)
    check_weights(weights, config, folder)
    return LoadedModel(config=config, weights=weights, tokenizer=tokenizer)


def _read_config(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, "config.json")
    if not os.path.isfile(path):
        raise ModelLoadError(f"{folder!r} is not a model folder (no config.json)")
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"cannot read {path!r}: {exc}") from exc
    if not isinstance(raw, dict):
        raise ModelLoadError(f"{path!r} does not hold a JSON object")
    return raw


def _architecture(raw: dict[str, Any], folder: str) -> str:
    names = raw.get("architectures") or []
    name = names[0] if isinstance(names, list) and names else None
    if name not in _ARCHITECTURES:
        raise ModelLoadError(
            f"{folder}: unsupported architecture {name!r} "
            f"(supported: {', '.join(sorted(_ARCHITECTURES))})"
        )
    return _ARCHITECTURES[name]


def _int(raw: dict[str, Any], key: str, folder: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ModelLoadError(f"{folder}: config.json {key!r} must be a positive int, got {value!r}")
    return value


def _rope_theta(raw: dict[str, Any], folder: str) -> float:
    # transformers 5 nests RoPE settings in rope_parameters; older configs use top-level keys.
    params = raw.get("rope_parameters") or {}
    scaling = raw.get("rope_scaling") or {}
    for settings in (params, scaling):
        kind = settings.get("rope_type", settings.get("type", "default"))
        if kind != "default":
            raise ModelLoadError(f"{folder}: RoPE scaling {kind!r} is not supported")
    theta = params.get("rope_theta", raw.get("rope_theta", 10000.0))
    if not isinstance(theta, int | float) or theta <= 0:
        raise ModelLoadError(f"{folder}: invalid rope_theta {theta!r}")
    return float(theta)


def _config(
    raw: dict[str, Any], architecture: str, folder: str, tokenizer: Tokenizer
) -> ModelConfig:
    if architecture == "llama" and (raw.get("attention_bias") or raw.get("mlp_bias")):
        raise ModelLoadError(f"{folder}: Llama with attention_bias/mlp_bias is not supported")
    if architecture == "qwen2" and raw.get("use_sliding_window"):
        raise ModelLoadError(f"{folder}: Qwen2 sliding-window attention is not supported")
    hidden = _int(raw, "hidden_size", folder)
    num_heads = _int(raw, "num_attention_heads", folder)
    head_dim = raw.get("head_dim") or hidden // num_heads
    return ModelConfig(
        architecture=architecture,
        vocab_size=_int(raw, "vocab_size", folder),
        hidden_size=hidden,
        intermediate_size=_int(raw, "intermediate_size", folder),
        num_layers=_int(raw, "num_hidden_layers", folder),
        num_heads=num_heads,
        num_kv_heads=int(raw.get("num_key_value_heads") or num_heads),
        head_dim=int(head_dim),
        rope_theta=_rope_theta(raw, folder),
        rms_norm_eps=float(raw.get("rms_norm_eps", 1e-6)),
        max_position_embeddings=int(raw.get("max_position_embeddings", 2048)),
        # transformers' Llama and Qwen2 configs both default to an untied head.
        tie_word_embeddings=bool(raw.get("tie_word_embeddings", False)),
        attention_bias=architecture == "qwen2",
        bos_token_id=tokenizer.bos_token_id,
        eos_token_ids=tokenizer.eos_token_ids,
        name=os.path.basename(os.path.normpath(folder)),
    )


def _weight_files(folder: str) -> list[str]:
    index = os.path.join(folder, _INDEX_FILE)
    if os.path.isfile(index):
        try:
            with open(index, encoding="utf-8") as f:
                weight_map = json.load(f)["weight_map"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelLoadError(f"cannot read {index!r}: {exc}") from exc
        return [os.path.join(folder, name) for name in sorted(set(weight_map.values()))]
    files = sorted(n for n in os.listdir(folder) if n.endswith(".safetensors"))
    if not files:
        raise ModelLoadError(f"{folder}: no *.safetensors weights (other formats unsupported)")
    return [os.path.join(folder, name) for name in files]


def _load_weights(folder: str, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    weights: dict[str, torch.Tensor] = {}
    for path in _weight_files(folder):
        try:
            shard = load_file(path, device="cpu")
        except (OSError, SafetensorError) as exc:
            raise ModelLoadError(f"cannot read weights {path!r}: {exc}") from exc
        for name, tensor in shard.items():
            weights[name] = tensor.to(dtype).contiguous()
    return weights
