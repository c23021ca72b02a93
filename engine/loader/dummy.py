"""Random weights of a named model shape, for benchmarks and tests without a checkpoint."""

from __future__ import annotations

import dataclasses
import os
import zlib
from concurrent.futures import ThreadPoolExecutor

import torch

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.loader import LoadedModel, default_model_path, expected_weight_shapes
from engine.tokenizer import Tokenizer

DUMMY_SEED = 0
DUMMY_STD = 0.02
_DEFAULT_VOCAB_SIZE = 49152  # SmolLM2's: dummy models of that vocab get its real tokenizer

DUMMY_SHAPES: dict[str, ModelConfig] = {
    # Llama-3.2-1B (its llama3 RoPE scaling left out: it does not change the cost of a step).
    "llama-1b": ModelConfig(
        architecture="llama",
        vocab_size=128256,
        hidden_size=2048,
        intermediate_size=8192,
        num_layers=16,
        num_heads=32,
        num_kv_heads=8,
        head_dim=64,
        rope_theta=500000.0,
        rms_norm_eps=1e-5,
        max_position_embeddings=131072,
        tie_word_embeddings=True,
    ),
    # The default model's shape (SmolLM2-135M).
    "smollm2-135m": ModelConfig(
        architecture="llama",
        vocab_size=_DEFAULT_VOCAB_SIZE,
        hidden_size=576,
        intermediate_size=1536,
        num_layers=30,
        num_heads=9,
        num_kv_heads=3,
        head_dim=64,
        rope_theta=100000.0,
        rms_norm_eps=1e-5,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
    ),
    # Qwen2.5-0.5B: exercises q/k/v biases and a 7:1 grouped-query ratio.
    "qwen2.5-0.5b": ModelConfig(
        architecture="qwen2",
        vocab_size=151936,
        hidden_size=896,
        intermediate_size=4864,
        num_layers=24,
        num_heads=14,
        num_kv_heads=2,
        head_dim=64,
        rope_theta=1000000.0,
        rms_norm_eps=1e-6,
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        attention_bias=True,
    ),
    # Tiny shapes for fast unit tests of the model runner (untied head to cover lm_head).
    "llama-tiny": ModelConfig(
        architecture="llama",
        vocab_size=512,
        hidden_size=64,
        intermediate_size=128,
        num_layers=2,
        num_heads=4,
        num_kv_heads=2,
        head_dim=16,
        max_position_embeddings=2048,
        tie_word_embeddings=False,
    ),
    "qwen2-tiny": ModelConfig(
        architecture="qwen2",
        vocab_size=512,
        hidden_size=64,
        intermediate_size=128,
        num_layers=2,
        num_heads=4,
        num_kv_heads=2,
        head_dim=16,
        rms_norm_eps=1e-6,
        max_position_embeddings=2048,
        tie_word_embeddings=True,
        attention_bias=True,
    ),
}


def dummy_config(shape: str) -> ModelConfig:
    """The config of a named dummy shape (stop tokens filled in by load_dummy)."""
    if shape not in DUMMY_SHAPES:
        raise ModelLoadError(
            f"unknown dummy shape {shape!r} (known: {', '.join(sorted(DUMMY_SHAPES))})"
        )
    return dataclasses.replace(DUMMY_SHAPES[shape], name=f"dummy:{shape}")


def load_dummy(shape: str, dtype: torch.dtype = torch.float32) -> LoadedModel:
    config = dummy_config(shape)
    tokenizer = _dummy_tokenizer(config.vocab_size)
    config = dataclasses.replace(
        config, bos_token_id=tokenizer.bos_token_id, eos_token_ids=tokenizer.eos_token_ids
    )
    return LoadedModel(config=config, weights=dummy_weights(config, dtype), tokenizer=tokenizer)


def dummy_weights(config: ModelConfig, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """Normal(0, 0.02) matrices and biases, norms = 1; the same values on every call.

    Each tensor has its own generator seeded from its name, so tensors can be filled in
    parallel threads (torch releases the GIL) and still come out deterministic.
    """
    shapes = expected_weight_shapes(config)
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        tensors = pool.map(lambda item: _dummy_tensor(*item, dtype), shapes.items())
        return dict(zip(shapes, tensors, strict=True))


def _dummy_tensor(name: str, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    if name.endswith("norm.weight"):
        return torch.ones(shape, dtype=dtype)
    generator = torch.Generator().manual_seed(DUMMY_SEED ^ zlib.crc32(name.encode()))
    # Sampling in float16 is the fastest on CPU and exact enough for N(0, 0.02) weights.
    values = torch.empty(shape, dtype=torch.float16).normal_(0.0, DUMMY_STD, generator=generator)
    return values.to(dtype)


def _dummy_tokenizer(vocab_size: int) -> Tokenizer:
    if vocab_size == _DEFAULT_VOCAB_SIZE:
        # Imported here: the gguf package is only needed for this one shape.
        from engine.loader.gguf import gguf_tokenizer

        return gguf_tokenizer(default_model_path())
    return Tokenizer.byte_level(vocab_size)
