"""The embedding function type the model-backed rails take (e.g. `Embedder.embed`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

# texts -> (n, D) float32, rows L2-normalized
EmbedFn = Callable[[list[str]], np.ndarray]
