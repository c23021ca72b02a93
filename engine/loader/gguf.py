"""Load a llama.cpp GGUF file (Llama or Qwen2) into Hugging Face names, dequantized.

`load_gguf_packed` reads the quantized tensors a second way, kept packed for the
dequantize-in-kernel matmuls (quantization="gguf").
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from typing import Any

import gguf
import numpy as np
import torch
from gguf import quants

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.kernels.quant_formats import GGUF_FORMATS, QuantizedWeight, pack_gguf
from engine.loader import LoadedModel, check_weights
from engine.tokenizer import Tokenizer

_MAGIC = b"GGUF"
SUPPORTED_ARCHITECTURES = ("llama", "qwen2")

_GLOBAL_NAMES = {
    "token_embd.weight": "model.embed_tokens.weight",
    "output_norm.weight": "model.norm.weight",
    "output.weight": "lm_head.weight",
}
_LAYER_NAMES = {
    "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}
_LAYER_TENSOR = re.compile(r"blk\.(\d+)\.(\w+)\.(weight|bias)")

_TOKENIZER_CACHE: weakref.WeakValueDictionary[tuple[str, int, int], Tokenizer] = (
    weakref.WeakValueDictionary()
)
_TOKENIZER_CACHE_LOCK = threading.Lock()


def load_gguf(path: str, dtype: torch.dtype = torch.float32) -> LoadedModel:
    reader = open_gguf(path)
    architecture = _value(reader, "general.architecture")
    if architecture not in SUPPORTED_ARCHITECTURES:
        raise ModelLoadError(
            f"{path}: unsupported GGUF architecture {architecture!r} "
            f"(supported: {', '.join(SUPPORTED_ARCHITECTURES)})"
        )
    tokenizer = gguf_tokenizer(path, reader)
    names = {tensor.name for tensor in reader.tensors}
    config = _config(reader, architecture, path, tokenizer, names)
    weights = _weights(reader, config, dtype, path)
    check_weights(weights, config, path)
    return LoadedModel(config=config, weights=weights, tokenizer=tokenizer)


def gguf_tokenizer(path: str, reader: gguf.GGUFReader | None = None) -> Tokenizer:
    """The tokenizer of a GGUF file, shared while any loaded model still uses it.

    Parsing the metadata of a 49k-token vocabulary takes seconds; engines, benchmarks and dummy
    models of the same vocabulary in one process reuse the (immutable, thread-safe) result.
    Entries are weak, so nothing is kept alive for the cache's sake.
    """
    try:
        stat = os.stat(path)
    except OSError as exc:
        raise ModelLoadError(f"cannot read model file {path!r}: {exc}") from exc
    key = (os.path.realpath(path), stat.st_mtime_ns, stat.st_size)
    with _TOKENIZER_CACHE_LOCK:
        cached = _TOKENIZER_CACHE.get(key)
    if cached is not None:
        return cached
    tokenizer = Tokenizer.from_gguf(reader if reader is not None else open_gguf(path))
    with _TOKENIZER_CACHE_LOCK:
        return _TOKENIZER_CACHE.setdefault(key, tokenizer)


def open_gguf(path: str) -> gguf.GGUFReader:
    """A GGUFReader over `path`; anything that is not a readable GGUF -> ModelLoadError."""
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise ModelLoadError(f"cannot read model file {path!r}: {exc}") from exc
    if magic != _MAGIC:
        raise ModelLoadError(f"{path!r} is not a GGUF file (starts with {magic!r})")
    try:
        return gguf.GGUFReader(path)
    except Exception as exc:  # the reader raises whatever numpy/struct hit on a bad file
        raise ModelLoadError(f"{path!r} is a damaged GGUF file: {exc}") from exc


def _value(reader: gguf.GGUFReader, key: str, default: Any = None) -> Any:
    field = reader.fields.get(key)
    return default if field is None else field.contents()


def _required(reader: gguf.GGUFReader, key: str, path: str) -> Any:
    value = _value(reader, key)
    if value is None:
        raise ModelLoadError(f"{path}: GGUF metadata has no {key!r}")
    return value


def _config(
    reader: gguf.GGUFReader, arch: str, path: str, tokenizer: Tokenizer, names: set[str]
) -> ModelConfig:
    hidden = int(_required(reader, f"{arch}.embedding_length", path))
    num_heads = int(_required(reader, f"{arch}.attention.head_count", path))
    head_dim = int(_value(reader, f"{arch}.attention.key_length", hidden // num_heads))
    rope_dim = int(_value(reader, f"{arch}.rope.dimension_count", head_dim))
    if rope_dim != head_dim:
        raise ModelLoadError(
            f"{path}: partial rotary embedding (rope dims {rope_dim} of head_dim {head_dim}) "
            "is not supported"
        )
    scaling = _value(reader, f"{arch}.rope.scaling.type", "none")
    if scaling != "none":
        raise ModelLoadError(f"{path}: RoPE scaling {scaling!r} is not supported")
    vocab_size = tokenizer.vocab_size
    embed_rows = next(
        (int(t.shape[-1]) for t in reader.tensors if t.name == "token_embd.weight"), vocab_size
    )
    if embed_rows != vocab_size:
        raise ModelLoadError(
            f"{path}: token list has {vocab_size} tokens but the embedding has {embed_rows} rows"
        )
    return ModelConfig(
        architecture=arch,
        vocab_size=vocab_size,
        hidden_size=hidden,
        intermediate_size=int(_required(reader, f"{arch}.feed_forward_length", path)),
        num_layers=int(_required(reader, f"{arch}.block_count", path)),
        num_heads=num_heads,
        num_kv_heads=int(_value(reader, f"{arch}.attention.head_count_kv", num_heads)),
        head_dim=head_dim,
        rope_theta=float(_value(reader, f"{arch}.rope.freq_base", 10000.0)),
        rms_norm_eps=float(_required(reader, f"{arch}.attention.layer_norm_rms_epsilon", path)),
        max_position_embeddings=int(_required(reader, f"{arch}.context_length", path)),
        tie_word_embeddings="output.weight" not in names,
        attention_bias="blk.0.attn_q.bias" in names,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_ids=tokenizer.eos_token_ids,
        name=os.path.splitext(os.path.basename(path))[0],
    )


def _hf_name(gguf_name: str, path: str) -> str:
    if gguf_name in _GLOBAL_NAMES:
        return _GLOBAL_NAMES[gguf_name]
    match = _LAYER_TENSOR.fullmatch(gguf_name)
    if match is None or match.group(2) not in _LAYER_NAMES:
        # e.g. rope_freqs.weight (Llama 3 RoPE scaling) would change the model's math.
        raise ModelLoadError(f"{path}: unsupported GGUF tensor {gguf_name!r}")
    layer, part, kind = match.groups()
    return f"model.layers.{layer}.{_LAYER_NAMES[part]}.{kind}"


def _weights(
    reader: gguf.GGUFReader, config: ModelConfig, dtype: torch.dtype, path: str
) -> dict[str, torch.Tensor]:
    weights: dict[str, torch.Tensor] = {}
    for tensor in reader.tensors:
        name = _hf_name(tensor.name, path)
        try:
            # A plain ndarray view: the quant routines slice a lot, and memmap slices are slow.
            array = quants.dequantize(np.asarray(tensor.data), tensor.tensor_type)
        except NotImplementedError as exc:
            raise ModelLoadError(
                f"{path}: tensor {tensor.name} has unsupported type {tensor.tensor_type.name}"
            ) from exc
        # GGUF lists dims fastest-first; numpy's (and transformers') order is the reverse.
        shape = tuple(int(d) for d in reversed(tensor.shape))
        array = np.asarray(array, dtype=np.float32).reshape(shape)
        if not array.flags.writeable:  # unquantized tensors are views of the read-only mmap
            array = array.copy()
        weight = torch.from_numpy(array)
        if config.architecture == "llama" and ".self_attn.q_proj." in name:
            weight = unpermute_rope(weight, config.num_heads)
        elif config.architecture == "llama" and ".self_attn.k_proj." in name:
            weight = unpermute_rope(weight, config.num_kv_heads)
        weights[name] = weight.to(dtype).contiguous()
    return weights


def load_gguf_packed(path: str, config: ModelConfig) -> dict[str, QuantizedWeight]:
    """The file's 2-D tensors of a type with a packed kernel (Q8_0, Q4_1, Q4_K), still packed.

    Hugging Face names, llama Q/K rows un-permuted (a row permutation: exact on packed rows).
    Tensors of other types (F32 norms, F16, Q6_K, ...) are left out: they load dequantized.
    """
    reader = open_gguf(path)
    packed: dict[str, QuantizedWeight] = {}
    for tensor in reader.tensors:
        kind = tensor.tensor_type.name
        if kind not in GGUF_FORMATS or len(tensor.shape) != 2:
            continue
        name = _hf_name(tensor.name, path)
        out_features, in_features = (int(d) for d in reversed(tensor.shape))
        try:
            weight = pack_gguf(np.asarray(tensor.data), kind, out_features, in_features)
        except ValueError as exc:
            raise ModelLoadError(f"{path}: tensor {tensor.name}: {exc}") from exc
        heads = None
        if config.architecture == "llama" and ".self_attn.q_proj." in name:
            heads = config.num_heads
        elif config.architecture == "llama" and ".self_attn.k_proj." in name:
            heads = config.num_kv_heads
        if heads is not None:
            weight = weight.map_rows(
                lambda t, h=heads: unpermute_rope(t, h).contiguous(), out_features
            )
        packed[name] = weight
    return packed


def unpermute_rope(weight: torch.Tensor, num_heads: int) -> torch.Tensor:
    """Undo llama.cpp's row order for Q/K so that half-split (rotate_half) RoPE applies.

    llama.cpp interleaves each head's rows as (x0, x_{d/2}, x1, x_{d/2+1}, ...) for its
    pairwise RoPE; transformers keeps the first half of the head, then the second half.
    """
    rows = weight.shape[0]
    head_dim = rows // num_heads
    rest = weight.shape[1:]
    # (rows, *rest) -> (num_heads, head_dim/2, 2, *rest) -> (num_heads, 2, head_dim/2, *rest)
    paired = weight.reshape(num_heads, head_dim // 2, 2, *rest).transpose(1, 2)
    return paired.reshape(rows, *rest)
