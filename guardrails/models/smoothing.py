"""SmoothQuant factors for int8 matmuls (fbgemm_linear.py): a file of per-channel activation
maxima, measured once on training texts, and the factors they give with the weights.

A matmul input x (..., in) with weight W (out, in) computes the same product as (x / s) and
(W * s) for any positive per-channel s. With s_j = max|x_j|^alpha / max|W_:,j|^(1 - alpha)
the activation's large channels shrink and the weight's columns grow to meet them, so one
per-tensor activation scale no longer flattens the small channels (Xiao et al., 2023). The
division by s is folded into whatever computes x (models/nanoguard.py, models/llama_encoder.py),
so it costs nothing.

The file (.npz, read with allow_pickle=False) holds `act_max` (layers, in) float32, `alpha` ()
and `card` (JSON: what texts were read, how alpha was chosen). Written by
training/calibrate_nanoguard.py and training/calibrate_judge.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from guardrails.errors import ModelLoadError

DEFAULT_NANOGUARD_SMOOTHING = (
    Path(__file__).resolve().parent.parent / "data" / "nanoguard_smooth.npz"
)


@dataclass(frozen=True)
class SmoothingFile:
    act_max: np.ndarray  # (layers, in): max |activation| per input channel of each layer
    alpha: float
    card: dict

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(
            tmp,
            act_max=self.act_max.astype(np.float32),
            alpha=np.float64(self.alpha),
            card=np.array(json.dumps(self.card, sort_keys=True, default=str)),
        )
        tmp.replace(path)  # never a half-written file

    @classmethod
    def load(cls, path: Path, shape: tuple[int, int] | None = None) -> SmoothingFile:
        """Reads and checks the file against the (layers, in) shape the model needs (None: any
        2-D shape; the model checks it)."""
        if not path.is_file():
            raise ModelLoadError(f"smoothing file {str(path)!r} does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                found = cls(
                    np.asarray(data["act_max"], dtype=np.float32),
                    float(data["alpha"]),
                    json.loads(str(data["card"])),
                )
        except (OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot read smoothing file {str(path)!r}: {exc}") from exc
        if (
            found.act_max.ndim != 2
            or (shape is not None and found.act_max.shape != shape)
            or not np.all(np.isfinite(found.act_max))
            or not np.all(found.act_max > 0)
            or not 0.0 <= found.alpha <= 1.0
        ):
            raise ModelLoadError(
                f"smoothing file {str(path)!r}: act_max {found.act_max.shape} (want {shape or '2-D'}, "
                f"finite and > 0), alpha {found.alpha} (want 0..1)"
            )
        return found


def smoothing_factors(act_max: torch.Tensor, weight: torch.Tensor, alpha: float) -> torch.Tensor:
    """s (in,) for activations with per-channel maxima `act_max` (in,) and weight (out, in)."""
    w_max = weight.abs().amax(dim=0).clamp(min=1e-5)  # (in,)
    return (act_max.clamp(min=1e-5) ** alpha / w_max ** (1.0 - alpha)).clamp(min=1e-4)
