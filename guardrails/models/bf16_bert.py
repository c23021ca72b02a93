"""An inference-only bfloat16 copy of a BertEncoder for the rails' MiniLM on a CPU.

Why not the module swap of bf16_linear.py: on long messages the swap pays, per linear layer, a
cast of the input to bf16, a cast of the output back to float32 and a separate bias add, and
each layer runs three attention projections and a separate GELU. Here each layer is four
oneDNN matmuls on prepacked bf16 weights: query/key/value fused into one, the bias folded into
every matmul and the GELU into the first feed-forward one. Activations stay bf16 from a
layer's input cast to its two residual adds, which (with the LayerNorms) stay float32.
Measured on one core of this CPU: 1.2x faster than the swap at 12 tokens, 1.3-1.5x at 80-256;
the embeddings agree with float32 to a cosine of at least 0.9999 (guardrails/HISTORY.md).

The copy shares the source encoder's embedding tables and LayerNorms; it holds its own bf16
matmul weights and never changes after construction (safe to call from several threads).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import nn

from guardrails.models.bf16_linear import prepack
from retrieval.bert import attention_bias

# Token counts are padded up to a multiple of this. oneDNN builds (JIT-compiles) a kernel for
# every matmul shape it meets, which roughly doubles that call's time, and keeps 1,024 of them:
# with every length from 1 to 256 in play a chat server would keep meeting new ones. 16 steps
# (warmed up at load) cost at most 15 padding tokens (~1.5 ms at the longest).
LENGTH_STEP = 16

if TYPE_CHECKING:
    from retrieval.bert import BertEncoder, BertLayer


class _Matmul:
    """y = act(x @ W.T + b) in bf16: one oneDNN call on a prepacked weight where the CPU has
    bf16 instructions, else the same sums in float32 on the bf16-rounded operands, rounded back
    to bf16 (what oneDNN computes, up to the order of the sums; oneDNN's own fallback on such a
    CPU, and torch's bf16 F.linear, are 5-10x slower than that)."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor, gelu: bool = False) -> None:
        w = weight.detach().to(torch.bfloat16).contiguous()  # (out, in)
        self.packed = prepack(w)
        # Without a packed copy: the bf16 weight's exact float32 copy (one copy in memory).
        self.weight = w.float() if self.packed is None else None
        self.bias = bias.detach().to(torch.bfloat16).contiguous()  # (out,)
        self.gelu = gelu

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        # x: (..., in) bf16 -> (..., out) bf16
        if self.packed is not None:
            attr, algorithm = ("gelu", "none") if self.gelu else ("none", "")  # "none": erf GELU
            return torch.ops.mkldnn._linear_pointwise(
                x, self.packed, self.bias, attr, [], algorithm
            )
        assert self.weight is not None  # kept whenever there is no packed copy
        y = F.linear(x.float(), self.weight, self.bias.float())
        return (F.gelu(y) if self.gelu else y).to(torch.bfloat16)


class _Layer:
    def __init__(self, layer: BertLayer) -> None:
        attn = layer.attention.self
        self.num_heads, self.head_dim = attn.num_heads, attn.head_dim
        self.qkv = _Matmul(
            torch.cat([attn.query.weight, attn.key.weight, attn.value.weight]),  # (3H, H)
            torch.cat([attn.query.bias, attn.key.bias, attn.value.bias]),
        )
        out = layer.attention.output
        self.attn_out, self.norm1 = _Matmul(out.dense.weight, out.dense.bias), out.LayerNorm
        self.up = _Matmul(layer.intermediate.dense.weight, layer.intermediate.dense.bias, True)
        ffn = layer.output
        self.down, self.norm2 = _Matmul(ffn.dense.weight, ffn.dense.bias), ffn.LayerNorm

    def __call__(self, x: torch.Tensor, attn_bias: torch.Tensor | None) -> torch.Tensor:
        B, T, H = x.shape  # x: float32
        qkv = self.qkv(x.to(torch.bfloat16)).view(B, T, 3, self.num_heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each (B, nh, T, hd)
        a = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_bias, scale=1.0 / math.sqrt(self.head_dim)
        )  # (B, nh, T, hd)
        a = a.transpose(1, 2).reshape(B, T, H)
        x = self.norm1(x + self.attn_out(a).float())
        return self.norm2(x + self.down(self.up(x.to(torch.bfloat16))).float())  # (B, T, H)


class Bf16Bert(nn.Module):
    """Token ids + attention mask -> last hidden states (float32), like the BertEncoder it is
    built from (a drop-in for `Embedder.with_encoder`)."""

    def __init__(self, encoder: BertEncoder) -> None:
        super().__init__()
        self.config = encoder.config
        self.embeddings = encoder.embeddings  # shared, float32
        self._layers = [_Layer(layer) for layer in encoder.encoder.layer]  # type: ignore[arg-type]
        for i, layer in enumerate(self._layers):  # registered so .eval()/.to() see the norms
            self.add_module(f"norm1_{i}", layer.norm1)
            self.add_module(f"norm2_{i}", layer.norm2)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        # input_ids, attention_mask: (B, T) -> hidden states (B, T, H)
        B, T = input_ids.shape
        limit = self.config.max_position_embeddings
        padded = max(T, min(-(-T // LENGTH_STEP) * LENGTH_STEP, limit))
        if padded != T:  # padding keys are masked out, padding positions cut off at the end
            input_ids = F.pad(input_ids, (0, padded - T))
            attention_mask = F.pad(attention_mask, (0, padded - T))
        x = self.embeddings(input_ids)
        # No padding (a length already a multiple of the step): no mask at all.
        mask_all = bool(attention_mask.all())
        attn_bias = None if mask_all else attention_bias(attention_mask, torch.bfloat16)
        for layer in self._layers:
            x = layer(x, attn_bias)
        return x[:, :T]

    def warm_up(self, max_length: int) -> None:
        """Runs one row of every padded length up to `max_length`, so oneDNN has built its
        kernels for each before the first message (~0.5 s for MiniLM's 256)."""
        with torch.inference_mode():
            limit = min(max_length, self.config.max_position_embeddings)
            for length in range(LENGTH_STEP, limit + 1, LENGTH_STEP):
                ids = torch.ones((1, length), dtype=torch.long)
                self(ids, torch.ones_like(ids))
