"""A logistic-regression head over sentence embeddings, stored as a small .npz file.

The file holds `weight` (D,), `bias` (), `threshold` () and `card` (a JSON string saying what
the head was trained on, with which seed and what it scored on its validation split).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.errors import ModelLoadError


@dataclass(frozen=True)
class LogisticHead:
    weight: np.ndarray  # (D,) float32
    bias: float
    threshold: float
    card: dict

    def score(self, embeddings: np.ndarray) -> np.ndarray:
        """(n, D) unit vectors -> (n,) probabilities of the positive class."""
        if embeddings.ndim != 2 or embeddings.shape[1] != self.weight.shape[0]:
            raise ValueError(
                f"embeddings of shape {embeddings.shape} do not fit a head of dim "
                f"{self.weight.shape[0]}"
            )
        z = embeddings.astype(np.float32) @ self.weight + self.bias  # (n,)
        return 1.0 / (1.0 + np.exp(-z))

    def save(
        self,
        path: Path,
        weight_dtype: type = np.float32,
        compress: bool = False,
        extra: dict[str, float] | None = None,
        arrays: dict[str, np.ndarray] | None = None,
    ) -> None:
        """Bias and threshold are kept in float64: a threshold is chosen just above a
        validation score, and rounding it to float32 can put it back below. `extra`: more
        float64 scalars by name, `arrays`: more arrays by name, as given (a model built on the
        head reads them)."""
        scalars = {k: np.float64(v) for k, v in (extra or {}).items()}
        scalars |= dict(arrays or {})
        (np.savez_compressed if compress else np.savez)(
            path,
            weight=self.weight.astype(weight_dtype),
            bias=np.float64(self.bias),
            threshold=np.float64(self.threshold),
            card=np.array(json.dumps(self.card, sort_keys=True)),
            **scalars,
        )

    @classmethod
    def load(cls, path: Path) -> LogisticHead:
        if not path.is_file():
            raise ModelLoadError(f"classifier head {str(path)!r} does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                weight = np.asarray(data["weight"], dtype=np.float32)
                bias = float(data["bias"])
                threshold = float(data["threshold"])
                card = json.loads(str(data["card"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot read classifier head {str(path)!r}: {exc}") from exc
        if weight.ndim != 1:
            raise ModelLoadError(f"classifier head {str(path)!r} has weight shape {weight.shape}")
        return cls(weight, bias, threshold, card)
