"""QuantLinear: a linear layer whose weight stays packed (weight-only quantization)."""

from __future__ import annotations

import torch
from torch import nn

from engine.kernels.quant_formats import QuantizedWeight, check_shape, get_format
from engine.kernels.quant_reference import dequantize_rows, quant_matmul_reference

BACKENDS = ("auto", "torch", "triton")


class QuantLinear(nn.Module):
    """y = x @ W^T (+ bias) with W in a packed format (engine/kernels/quant_formats.py).

    The packed tensors are buffers named as the format's layout ("qweight", "scales", ...), so
    the module can be built on the meta device, materialized with `to_empty` and filled by
    `load`. `backend`: "auto" runs the Triton kernel when x is on CUDA and the torch reference
    (dequantize, then matmul: exact, but it rebuilds the float weight every call) elsewhere;
    "triton" forces the kernel (on a CPU only under TRITON_INTERPRET=1, for tests); "torch"
    forces the reference. `out_dtype` is the dtype of rows taken by `embed`.
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        fmt: str,
        *,
        bias: bool = False,
        backend: str = "auto",
        out_dtype: torch.dtype = torch.float32,
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__()
        if backend not in BACKENDS:
            raise ValueError(
                f"QuantLinear backend must be one of {', '.join(BACKENDS)}; got {backend!r}"
            )
        quant_format = get_format(fmt)
        check_shape(quant_format, out_features, in_features)
        self.in_features = in_features
        self.out_features = out_features
        self.format = fmt
        self.backend = backend
        self.out_dtype = out_dtype
        self._names = tuple(quant_format.layout(out_features, in_features))
        self._packed: QuantizedWeight | None = None
        for name, (shape, dtype) in quant_format.layout(out_features, in_features).items():
            self.register_buffer(name, torch.zeros(shape, dtype=dtype, device=device))
        self.bias = (
            nn.Parameter(torch.zeros(out_features, device=device), requires_grad=False)
            if bias
            else None
        )

    @property
    def packed(self) -> QuantizedWeight:
        """The buffers as a QuantizedWeight, rebuilt (and re-checked) only after `to`,
        `to_empty` or the like replaced them: forward runs per layer per step."""
        tensors = {name: getattr(self, name) for name in self._names}
        cached = self._packed
        if cached is None or any(cached.tensors[n] is not t for n, t in tensors.items()):
            cached = QuantizedWeight(self.format, self.out_features, self.in_features, tensors)
            self._packed = cached
        return cached

    @torch.no_grad()
    def load(self, weight: QuantizedWeight, bias: torch.Tensor | None = None) -> None:
        """Copy a packed weight (any device) into the buffers; format and shape must match."""
        if weight.format != self.format or weight.shape != (self.out_features, self.in_features):
            raise ValueError(
                f"cannot load a {weight.format} {weight.shape} weight into a {self.format} "
                f"({self.out_features}, {self.in_features}) QuantLinear"
            )
        if (bias is None) != (self.bias is None):
            raise ValueError(
                f"bias given: {bias is not None}, layer has a bias: {self.bias is not None}"
            )
        for name in self._names:
            getattr(self, name).copy_(weight.tensors[name])
        if bias is not None and self.bias is not None:
            self.bias.copy_(bias)

    def _use_triton(self, x: torch.Tensor) -> bool:
        if self.backend == "torch":
            return False
        if self.backend == "auto":
            return x.is_cuda
        if not x.is_cuda:
            from engine.kernels import interpreter_enabled

            if not interpreter_enabled():
                raise ValueError(
                    "QuantLinear backend 'triton' on a CPU needs TRITON_INTERPRET=1 (tests only); "
                    "use 'auto' or 'torch'"
                )
        return True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in_features) -> (..., out_features), in x's dtype
        if self._use_triton(x):
            from engine.kernels.quant_matmul import quant_matmul  # imports Triton: only here

            return quant_matmul(x, self.packed, self.bias)
        return quant_matmul_reference(x, self.packed, self.bias)

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        """Rows `ids` of W as `out_dtype`: (*ids.shape, in_features). A packed embedding table
        serves lookups this way (only the looked-up rows are dequantized) and, tied, the logits
        through `forward`."""
        return dequantize_rows(self.packed, ids).to(self.out_dtype)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"format={self.format}, bias={self.bias is not None}, backend={self.backend}"
        )
