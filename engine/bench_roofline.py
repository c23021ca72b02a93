"""The memory-bandwidth bound of a decode step: how many bytes one step must read, and what
fraction of the device's copy bandwidth a measured step time reaches.

A batch-1 decode step reads every weight once (as stored: packed bytes for quantized weights)
plus the K and V of every context token in every layer; its compute is negligible next to
that. So bytes / step time is the bandwidth the step achieved, and dividing by the bandwidth of
a plain device-to-device copy gives the fraction of the reachable bound. Plain arithmetic, no
torch: `stored_weight_bytes` walks a module duck-typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Modules whose tables a decode step reads one row per position of (rotary cos/sin).
_ROW_LOOKUP_MODULES = ("RotaryEmbedding",)


def kv_bytes_per_token(num_layers: int, num_kv_heads: int, head_dim: int, elem_size: int) -> int:
    """K and V of one token in every layer."""
    return 2 * num_layers * num_kv_heads * head_dim * elem_size


def mean_decode_context(prompt_len: int, num_tokens: int) -> float:
    """Mean context length of the decode steps between the first and the last of `num_tokens`
    streamed tokens: step k (k = 1 .. n-1) feeds token k-1 at position P+k-1 and attends over
    P+k tokens, so the mean is P + n/2."""
    if prompt_len < 1 or num_tokens < 2:
        raise ValueError(
            f"need a prompt and at least 2 tokens, got prompt_len={prompt_len}, "
            f"num_tokens={num_tokens}"
        )
    return prompt_len + num_tokens / 2


def stored_weight_bytes(model: Any, batch_size: int = 1) -> int:
    """Bytes of weights one decode step of `batch_size` sequences reads, as stored.

    Every parameter and buffer counts once (a tied embedding/head is one tensor), except
    row-lookup tables: rotary tables are left out, and an input embedding that is not also the
    head (the model has a separate `lm_head`) counts only the `batch_size` rows looked up.
    """
    seen: set[tuple[int, int]] = set()
    total = 0
    untied_embedding = getattr(model, "lm_head", None) is not None
    for name, module in model.named_modules():
        if type(module).__name__ in _ROW_LOOKUP_MODULES:
            continue
        tensors = list(module.parameters(recurse=False)) + list(module.buffers(recurse=False))
        for t in tensors:
            key = (t.data_ptr(), t.nbytes)
            if key in seen:
                continue
            seen.add(key)
            if untied_embedding and name == "embed_tokens" and t.dim() == 2:
                total += batch_size * t.shape[1] * t.element_size()
            else:
                total += t.nbytes
    return total


@dataclass(frozen=True, slots=True)
class BandwidthBound:
    """One decode step's bytes against its measured time and the copy bandwidth."""

    weight_bytes: int
    kv_bytes: int
    seconds_per_step: float
    copy_bytes_per_s: float

    def __post_init__(self) -> None:
        if self.seconds_per_step <= 0 or self.copy_bytes_per_s <= 0:
            raise ValueError(
                f"step time and copy bandwidth must be positive, got {self.seconds_per_step}, "
                f"{self.copy_bytes_per_s}"
            )

    @property
    def bytes_per_step(self) -> int:
        return self.weight_bytes + self.kv_bytes

    @property
    def achieved_bytes_per_s(self) -> float:
        return self.bytes_per_step / self.seconds_per_step

    @property
    def fraction(self) -> float:
        return self.achieved_bytes_per_s / self.copy_bytes_per_s

    @property
    def bound_seconds_per_step(self) -> float:
        """The step time if the step ran at the copy bandwidth."""
        return self.bytes_per_step / self.copy_bytes_per_s

    def as_dict(self) -> dict:
        return {
            "weight_bytes": self.weight_bytes,
            "kv_bytes": self.kv_bytes,
            "bytes_per_step": self.bytes_per_step,
            "seconds_per_step": round(self.seconds_per_step, 6),
            "gb_per_s": round(self.achieved_bytes_per_s / 1e9, 3),
            "bound_seconds_per_step": round(self.bound_seconds_per_step, 6),
            "fraction_of_bound": round(self.fraction, 4),
        }
