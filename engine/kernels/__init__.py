"""Triton kernels for the GPU path, each with a torch reference function beside it.

Importing a kernel module imports Triton, so only the triton attention backend does it, lazily:
the CPU runtime never needs Triton. On a machine without CUDA the kernels run in Triton's
interpreter (TRITON_INTERPRET=1, read by Triton when a kernel is defined), which is how the
tests compare them with their references on a CPU.
"""

from __future__ import annotations


def interpreter_enabled() -> bool:
    """Whether Triton will run kernels in its CPU interpreter (TRITON_INTERPRET=1)."""
    import triton

    return bool(triton.knobs.runtime.interpret)
