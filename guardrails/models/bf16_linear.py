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
# Set to 1 to run the bf16 path on any CPU: where the CPU has no bf16 instructions its matmuls
# run in float32 on bf16-rounded operands and round their results to bf16 (the same numbers, up
# to the order of the sums). Thresholds for CPUs with bf16 can then be chosen and measured on
# one without (training/thresholds.py). Models that run int8 on a CPU with bf16 keep int8 only
# where this CPU's int8 takes all 8 bits (fbgemm_linear.int8_full_range), else they run bf16.
BF16_ENV = "HEARTH_GUARDRAILS_BF16"


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


def bf16_forced() -> bool:
    """Whether HEARTH_GUARDRAILS_BF16 asks for the bf16 path (emulated without bf16 hardware)."""
    return os.environ.get(BF16_ENV, "") not in ("", "0")


def native_bf16() -> bool:
    """Whether the rails run bf16 matmuls: this CPU multiplies bfloat16 in hardware and oneDNN
    runs it (else bf16 would be converted to float32 inside each matmul, slower than float32)
    and HEARTH_GUARDRAILS_FLOAT32 does not ask for float32; or HEARTH_GUARDRAILS_BF16 asks."""
    if float32_forced():
        return False
    if bf16_forced():
        return True
    try:
        supported = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False
    return supported and cpu_bf16_flags()


def prepack(weight: torch.Tensor) -> torch.Tensor | None:
    """oneDNN's prepacked copy of a (out, in) bf16 weight, or None where torch lacks the ops or
    the CPU lacks bf16 instructions (the callers then emulate bf16 in float32: faster there than
    oneDNN's own conversion)."""
    if not torch.backends.mkldnn.is_available() or not cpu_bf16_flags():
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
        # Without a packed copy, the bf16 weight's exact float32 copy: one copy in memory.
        self.weight = weight.float() if self.packed is None else None
        self.bias = None if linear.bias is None else linear.bias.detach().float().clone()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) -> (..., out), float32 on both sides
        xb = x.to(torch.bfloat16)
        if self.packed is not None:
            y = torch.ops.mkldnn._linear_pointwise(xb, self.packed, None, "none", [], "")
        else:  # bf16 emulated: float32 sums of bf16 operands, rounded to bf16
            assert self.weight is not None  # kept whenever there is no packed copy
            y = F.linear(xb.float(), self.weight).to(torch.bfloat16)
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
