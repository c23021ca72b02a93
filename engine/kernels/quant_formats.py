"""Packed weight formats for weight-only quantized matmuls, and how weights get into them.

Every format stores a (out_features N, in_features K) weight as a few row-major tensors whose
first dim is the output row, so fusing projections (q/k/v, gate/up) is concatenating rows and
llama.cpp's Q/K row permutation is indexing rows: both exact, whatever the format. GGUF's
interleaved blocks are split into separate tensors at load (a repack, byte for byte exact) so a
kernel reads each kind of data with contiguous, vectorizable loads:

  q8_0  qweight int8  (N, K)      scales fp16 (N, K/32)
        w[n, k] = qweight[n, k] * scales[n, k // 32]
  q4_1  qweight uint8 (N, K/2)    scales fp16 (N, K/32)    mins fp16 (N, K/32)
        block b of a row (32 weights) owns bytes 16b..16b+15; byte 16b+j holds weight 32b+j in
        its low nibble and weight 32b+16+j in its high nibble (GGUF's order within a block).
        w = scales * q + mins
  q4_k  qweight uint8 (N, K/2)    scales fp16 (N, K/256)   mins fp16 (N, K/256)
        sub_scales uint8 (N, K/32)    sub_mins uint8 (N, K/32)    (6-bit values, unpacked)
        group g (64 weights) owns bytes 32g..32g+31; byte 32g+j holds weight 64g+j (low nibble,
        sub-block 2g) and weight 64g+32+j (high nibble, sub-block 2g+1); super-block = 256.
        w = (scales * sub_scales) * q - (mins * sub_mins)
  int8  qweight int8  (N, K)      scales fp32 (N, 1)       symmetric, per output channel
        w = qweight * scales

Torch only (plus numpy for GGUF bytes): the CPU runtime imports this, never Triton.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

Layout = dict[str, tuple[tuple[int, ...], torch.dtype]]


@dataclass(frozen=True, slots=True)
class QuantFormat:
    """A packed format: `block_size` divides in_features; `layout(N, K)` names its tensors."""

    name: str
    block_size: int
    layout: Callable[[int, int], Layout]


def _q8_0(n: int, k: int) -> Layout:
    return {"qweight": ((n, k), torch.int8), "scales": ((n, k // 32), torch.float16)}


def _q4_1(n: int, k: int) -> Layout:
    return {
        "qweight": ((n, k // 2), torch.uint8),
        "scales": ((n, k // 32), torch.float16),
        "mins": ((n, k // 32), torch.float16),
    }


def _q4_k(n: int, k: int) -> Layout:
    return {
        "qweight": ((n, k // 2), torch.uint8),
        "scales": ((n, k // 256), torch.float16),
        "mins": ((n, k // 256), torch.float16),
        "sub_scales": ((n, k // 32), torch.uint8),
        "sub_mins": ((n, k // 32), torch.uint8),
    }


def _int8(n: int, k: int) -> Layout:
    return {"qweight": ((n, k), torch.int8), "scales": ((n, 1), torch.float32)}


FORMATS: dict[str, QuantFormat] = {
    "q8_0": QuantFormat("q8_0", 32, _q8_0),
    "q4_1": QuantFormat("q4_1", 32, _q4_1),
    "q4_k": QuantFormat("q4_k", 256, _q4_k),
    "int8": QuantFormat("int8", 1, _int8),
}

# GGML type name -> our format, for the GGUF types the kernels run packed.
GGUF_FORMATS = {"Q8_0": "q8_0", "Q4_1": "q4_1", "Q4_K": "q4_k"}


def get_format(name: str) -> QuantFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(
            f"unknown quantized format {name!r} (known: {', '.join(FORMATS)})"
        ) from None


def check_shape(fmt: QuantFormat, out_features: int, in_features: int) -> None:
    if out_features <= 0 or in_features <= 0 or in_features % fmt.block_size:
        raise ValueError(
            f"a {fmt.name} weight needs positive sizes and in_features a multiple of "
            f"{fmt.block_size}; got ({out_features}, {in_features})"
        )


@dataclass(frozen=True, slots=True)
class QuantizedWeight:
    """One (out_features, in_features) weight in a packed format; tensors as `layout` says."""

    format: str
    out_features: int
    in_features: int
    tensors: dict[str, torch.Tensor]

    def __post_init__(self) -> None:
        fmt = get_format(self.format)
        check_shape(fmt, self.out_features, self.in_features)
        layout = fmt.layout(self.out_features, self.in_features)
        if self.tensors.keys() != layout.keys():
            raise ValueError(
                f"{self.format} weight needs tensors {sorted(layout)}, got {sorted(self.tensors)}"
            )
        for name, (shape, dtype) in layout.items():
            t = self.tensors[name]
            if tuple(t.shape) != shape or t.dtype != dtype:
                raise ValueError(
                    f"{self.format} {name} must be {shape} {dtype}, got {tuple(t.shape)} {t.dtype}"
                )

    @property
    def shape(self) -> tuple[int, int]:
        return (self.out_features, self.in_features)

    def map_rows(
        self, fn: Callable[[torch.Tensor], torch.Tensor], out_features: int
    ) -> QuantizedWeight:
        """Apply the same row operation (index, permute, move) to every tensor."""
        tensors = {name: fn(t) for name, t in self.tensors.items()}
        return QuantizedWeight(self.format, out_features, self.in_features, tensors)

    def to(self, device: torch.device | str) -> QuantizedWeight:
        return self.map_rows(lambda t: t.to(device), self.out_features)

    def select_rows(self, rows: torch.Tensor) -> QuantizedWeight:
        return self.map_rows(lambda t: t.index_select(0, rows), int(rows.numel()))


def cat_rows(parts: Sequence[QuantizedWeight]) -> QuantizedWeight:
    """Stack weights of one format along the output dim: the packed form of torch.cat(dim=0)."""
    if not parts:
        raise ValueError("cat_rows needs at least one weight")
    first = parts[0]
    for p in parts[1:]:
        if p.format != first.format or p.in_features != first.in_features:
            raise ValueError(
                f"cannot fuse {p.format} (.., {p.in_features}) rows with "
                f"{first.format} (.., {first.in_features}) rows"
            )
    tensors = {name: torch.cat([p.tensors[name] for p in parts], dim=0) for name in first.tensors}
    return QuantizedWeight(
        first.format, sum(p.out_features for p in parts), first.in_features, tensors
    )


# ---- GGUF blocks -> packed tensors ---------------------------------------------------------

_GGUF_BYTES_PER_BLOCK = {"q8_0": 34, "q4_1": 20, "q4_k": 144}


def pack_gguf(
    data: np.ndarray, gguf_type: str, out_features: int, in_features: int
) -> QuantizedWeight:
    """Repack GGUF blocks (uint8, one row of blocks per output row) into our layout, exactly."""
    try:
        fmt = get_format(GGUF_FORMATS[gguf_type])
    except KeyError:
        raise ValueError(
            f"GGUF type {gguf_type} has no packed kernel (have {', '.join(GGUF_FORMATS)})"
        ) from None
    check_shape(fmt, out_features, in_features)
    num_blocks = in_features // fmt.block_size
    per_block = _GGUF_BYTES_PER_BLOCK[fmt.name]
    raw = np.asarray(data)
    if raw.dtype != np.uint8 or raw.size != out_features * num_blocks * per_block:
        raise ValueError(
            f"{gguf_type} data for ({out_features}, {in_features}) must be "
            f"{out_features * num_blocks * per_block} bytes of uint8, got {raw.size} of {raw.dtype}"
        )
    blocks = raw.reshape(out_features, num_blocks, per_block)

    def f16(lo: int) -> torch.Tensor:  # (N, num_blocks) fp16 from bytes lo, lo+1 of each block
        return _tensor(blocks[:, :, lo : lo + 2].copy().view(np.float16)[..., 0])

    def body(lo: int, dtype: type) -> torch.Tensor:  # (N, num_blocks * rest) of the block tails
        return _tensor(blocks[:, :, lo:].copy().view(dtype).reshape(out_features, -1))

    if fmt.name == "q8_0":
        tensors = {"qweight": body(2, np.int8), "scales": f16(0)}
    elif fmt.name == "q4_1":
        tensors = {"qweight": body(4, np.uint8), "scales": f16(0), "mins": f16(2)}
    else:
        sub_scales, sub_mins = _unpack_q4_k_scales(blocks[:, :, 4:16])
        tensors = {
            "qweight": body(16, np.uint8),
            "scales": f16(0),
            "mins": f16(2),
            "sub_scales": _tensor(sub_scales.reshape(out_features, -1)),
            "sub_mins": _tensor(sub_mins.reshape(out_features, -1)),
        }
    return QuantizedWeight(fmt.name, out_features, in_features, tensors)


def _tensor(array: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(array))


def _unpack_q4_k_scales(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """12 bytes per super-block -> 8 six-bit scales and 8 six-bit mins (uint8 each).

    Bytes 0-3 hold scales 0-3 in their low 6 bits, bytes 4-7 mins 0-3; scales/mins 4-7 take
    their low 4 bits from bytes 8-11 (low/high nibble) and their top 2 bits from the top 2 bits
    of bytes 0-3 (scales) and 4-7 (mins).
    """
    a, b, c = packed[..., 0:4], packed[..., 4:8], packed[..., 8:12]
    scales = np.concatenate([a & 0x3F, (c & 0x0F) | ((a >> 2) & 0x30)], axis=-1)
    mins = np.concatenate([b & 0x3F, (c >> 4) | ((b >> 2) & 0x30)], axis=-1)
    return scales.astype(np.uint8), mins.astype(np.uint8)


# ---- float -> int8 weight-only -------------------------------------------------------------


def quantize_int8(weight: torch.Tensor) -> QuantizedWeight:
    """Symmetric per-output-channel int8: scale = max|row| / 127, q = round(w / scale).

    Computed in float32 whatever the input dtype; an all-zero row gets scale 0 and q 0.
    """
    if weight.dim() != 2 or not weight.is_floating_point():
        raise ValueError(
            f"int8 quantization needs a 2-D float weight, got {tuple(weight.shape)} {weight.dtype}"
        )
    w = weight.float()
    scales = w.abs().amax(dim=1, keepdim=True) / 127.0  # (N, 1)
    safe = torch.where(scales > 0, scales, torch.ones_like(scales))
    q = torch.round(w / safe).clamp_(-127, 127).to(torch.int8)
    n, k = weight.shape
    return QuantizedWeight("int8", n, k, {"qweight": q, "scales": scales})
