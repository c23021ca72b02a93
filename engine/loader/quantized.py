"""Where packed (weight-only quantized) weights come from, and which quantization a run uses.

"gguf": the GGUF file's own Q8_0/Q4_1/Q4_K blocks, repacked but never requantized, so the
values are exactly those of the dequantized ("none") load. "int8": the float weights the model
was loaded with, quantized per output channel (symmetric) at load. "none": nothing packed.
"""

from __future__ import annotations

import os

import torch

from engine.config import ModelConfig
from engine.errors import ModelLoadError
from engine.kernels.quant_formats import QuantizedWeight, quantize_int8
from engine.loader import default_model_path
from engine.models.llama import packable_weight_names

_GGUF_MAGIC = b"GGUF"


def gguf_path(model_spec: str) -> str | None:
    """The GGUF file a model spec names, or None when it names something else."""
    if model_spec.startswith("dummy:"):
        return None
    try:
        path = default_model_path() if model_spec == "default" else os.path.expanduser(model_spec)
        with open(path, "rb") as f:
            return path if f.read(4) == _GGUF_MAGIC else None
    except (ModelLoadError, OSError):
        return None


def resolve_quantization(requested: str, model_spec: str, device: torch.device) -> str:
    """The one place "auto" is decided: "gguf" on CUDA for a GGUF file, else "none".

    On a CPU "auto" stays "none": there the packed path is the torch reference, which
    dequantizes every weight on every step (exact, but slower than keeping floats).
    """
    if requested == "auto":
        return "gguf" if device.type == "cuda" and gguf_path(model_spec) is not None else "none"
    if requested not in ("none", "gguf", "int8"):
        raise ValueError(f"quantization must be auto, none, gguf or int8; got {requested!r}")
    if requested == "gguf" and gguf_path(model_spec) is None:
        raise ValueError(
            f"quantization='gguf' keeps a GGUF file's quantized tensors, but model {model_spec!r} "
            "is not a GGUF file; use 'int8' to quantize its float weights, or 'none'"
        )
    return requested


def packed_weights(
    quantization: str,
    model_spec: str,
    config: ModelConfig,
    weights: dict[str, torch.Tensor],
    device: torch.device,
) -> dict[str, QuantizedWeight]:
    """Packed weights by Hugging Face name for a resolved quantization ({} for "none").

    int8 quantizes on `device` (fast on a GPU); GGUF blocks are repacked on the CPU and left
    there: loading copies them into the model's buffers.
    """
    if quantization == "none":
        return {}
    if quantization == "int8":
        return {
            name: quantize_int8(weights[name].to(device)) for name in packable_weight_names(config)
        }
    if quantization == "gguf":
        from engine.loader.gguf import load_gguf_packed

        path = gguf_path(model_spec)
        if path is None:
            raise ValueError(f"quantization='gguf' needs a GGUF model file, got {model_spec!r}")
        packed = load_gguf_packed(path, config)
        for name, weight in packed.items():
            loaded = weights.get(name)
            if loaded is None or tuple(loaded.shape) != weight.shape:
                raise ValueError(
                    f"{path}: packed {name} {weight.shape} does not match the loaded model's "
                    f"{None if loaded is None else tuple(loaded.shape)}: the engine's model spec "
                    "and the weights it was given name different models"
                )
        return packed
    raise ValueError(f"quantization must be resolved to none, gguf or int8; got {quantization!r}")
