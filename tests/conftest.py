"""Settings for the whole test session, applied before any test module is imported."""

from __future__ import annotations

import os

import torch

# Without a GPU, Triton kernels (engine/kernels) run in Triton's interpreter. Triton reads the
# variable when a kernel is defined, so it must be set before engine.kernels is imported.
if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
