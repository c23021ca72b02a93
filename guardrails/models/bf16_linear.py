"""Linear layers with bfloat16 weights for the rails' small models on a CPU (a module swap).

Why: at the few dozen tokens of a chat message the rails' matmuls are bound by reading weights
from memory, so halving their bytes halves the time; on CPUs that multiply bf16 natively
(AVX512-BF16, AMX) long inputs also run about 2x faster. The weight is prepacked once into
oneDNN's blocked layout where torch offers that op; otherwise oneDNN repacks it on every call,
which at 20 tokens costs about a third of the time. Activations stay float32 between layers:
only the matmul's inputs are rounded to bf16, and the bias is added in float32.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

# Set to 1 to run the rails' models in float32 even on a CPU with native bf16 (and without
# fbgemm's int8 and float16 weights on one without it, fbgemm_linear.py): to measure the
# float32 path, or to rule the reduced precisions out.
FLOAT32_ENV = "HEARTH_GUARDRAILS_FLOAT32"


def float32_forced() -> bool:
    """Whether HEARTH_GUARDRAILS_FLOAT32 asks for float32 (neither bf16 nor int8 matmuls)."""
    return os.environ.get(FLOAT32_ENV, "") not in ("", "0")


# /proc/cpuinfo flags that mean bf16 dot products in hardware: AVX512-BF16 or AMX on x86,
# the BF16 extension on Arm ("Features" there).
BF16_CPU_FLAGS = frozenset({"avx512_bf16", "amx_bf16", "bf16"})


def cpu_bf16_flags(cpuinfo: str | None = None) -> bool:
    """Whether the first CPU of /proc/cpuinfo (or the text given) names a bf16 dot-product
    instruction set. oneDNN also reports bf16 as supported on an AVX-512 CPU without one
    (Intel Ice Lake, Cascade Lake) and then converts to float32 inside each matmul: on a 2-core
    Ice Lake the two MiniLM heads took p50 / p95 18.6 / 31.8 ms a dev-set message that way,
    8.7 / 10.8 with float16 weights (README, "Two paths, by CPU")."""
    if cpuinfo is None:
        cpuinfo = _proc_cpuinfo()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return bool(BF16_CPU_FLAGS & set(value.split()))
    return False


@functools.cache
def _proc_cpuinfo() -> str:
    """/proc/cpuinfo, read once a process (each rail's model asks at load; on a large server
    the file runs to hundreds of kilobytes); empty where there is none."""
    try:
        return Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace")
    except OSError:
        return ""


def native_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware and oneDNN runs it (else bf16 would be
    converted to float32 inside each matmul, slower than float32), and HEARTH_GUARDRAILS_FLOAT32
    does not ask for float32."""
    if float32_forced():
        return False
    try:
        supported = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False
    return supported and cpu_bf16_flags()


def prepack(weight: torch.Tensor) -> torch.Tensor | None:
    """oneDNN's prepacked copy of a (out, in) bf16 weight, or None where torch lacks the ops."""
    if not torch.backends.mkldnn.is_available():
        return None
    try:
        packed = torch.ops.mkldnn._reorder_linear_weight(weight, None)
        probe = torch.zeros(1, weight.shape[1], dtype=torch.bfloat16)
        torch.ops.mkldnn._linear_pointwise(probe, packed, None, "none", [], "")
    except (AttributeError, RuntimeError):
        return None
    return packed


class Bf16Linear(nn.Module):
    """y = x @ W.T + b with W held in bf16 (prepacked when possible): float32 in, float32 out.

    Inference only: the weight is a copy, frozen at construction, and never trained.
    """

    def __init__(self, linear: nn.Linear, pack: bool = True) -> None:
        super().__init__()
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        weight = linear.weight.detach().to(torch.bfloat16).contiguous()  # (out, in)
        self.packed = prepack(weight) if pack else None
        # The plain copy is kept only when the packed one is not there: one copy in memory.
        self.weight = weight if self.packed is None else None
        self.bias = None if linear.bias is None else linear.bias.detach().float().clone()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) -> (..., out), float32 on both sides
        xb = x.to(torch.bfloat16)
        if self.packed is not None:
            y = torch.ops.mkldnn._linear_pointwise(xb, self.packed, None, "none", [], "")
        else:
            assert self.weight is not None  # kept whenever there is no packed copy
            y = F.linear(xb, self.weight)
        y = y.float()
        return y if self.bias is None else y + self.bias

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}, packed={self.packed is not None}"
        )


def swap_linears(module: nn.Module, pack: bool = True) -> int:
    """Replaces every nn.Linear inside `module` by a Bf16Linear copy, in place; returns how many.
    Call it after the weights are loaded: state_dict loading does not reach the packed copies."""
    swapped = 0
    for parent in list(module.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear):
                setattr(parent, name, Bf16Linear(child, pack))
                swapped += 1
    return swapped
