"""Llama-family decoder (Llama, SmolLM2, Qwen2) reading its KV through paged attention.

Projections are nn.Linear, or QuantLinear (packed weights, weight-only quantization) where
`use_packed_weights` swaps them in before the weights are loaded.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch
import torch.nn.functional as F
from torch import nn

from engine.config import ModelConfig
from engine.kernels.quant_formats import QuantizedWeight, cat_rows
from engine.layers.attention import AttentionMetadata, paged_attention
from engine.layers.norm import RMSNorm
from engine.layers.ops import LayerOps, Rope, TorchLayerOps
from engine.layers.quant_linear import QuantLinear
from engine.layers.rotary import RotaryEmbedding

KVCache = tuple[torch.Tensor, torch.Tensor]  # (KVH, num_blocks, block_size, D) each
Linear = nn.Linear | QuantLinear

# Each projection module of a layer and the Hugging Face weights fused into it, in row order.
# Fusing is concatenating output rows, exact for packed weights too (all formats are row-wise).
FUSED_PROJECTIONS: dict[str, tuple[str, ...]] = {
    "self_attn.qkv_proj": ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"),
    "self_attn.o_proj": ("self_attn.o_proj",),
    "mlp.gate_up_proj": ("mlp.gate_proj", "mlp.up_proj"),
    "mlp.down_proj": ("mlp.down_proj",),
}
EMBEDDING = "model.embed_tokens.weight"
LM_HEAD = "lm_head.weight"


def packable_weight_names(cfg: ModelConfig) -> list[str]:
    """Hugging Face names of every matrix that may be packed: projections, embedding, head."""
    names = [
        f"model.layers.{i}.{part}.weight"
        for i in range(cfg.num_layers)
        for parts in FUSED_PROJECTIONS.values()
        for part in parts
    ]
    return names + [EMBEDDING] + ([] if cfg.tie_word_embeddings else [LM_HEAD])


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.num_heads = cfg.num_heads
        self.num_kv_heads = cfg.num_kv_heads
        self.head_dim = cfg.head_dim
        self.q_size = cfg.num_heads * cfg.head_dim
        self.kv_size = cfg.num_kv_heads * cfg.head_dim
        # q, k and v projections fused into one matmul.
        self.qkv_proj = nn.Linear(
            cfg.hidden_size, self.q_size + 2 * self.kv_size, bias=cfg.attention_bias
        )
        self.o_proj = nn.Linear(self.q_size, cfg.hidden_size, bias=False)
        self.scale = cfg.head_dim**-0.5

    def forward(
        self,
        x: torch.Tensor,
        rope: Rope,
        kv_cache: KVCache,
        meta: AttentionMetadata,
        ops: LayerOps,
    ) -> torch.Tensor:
        T = x.shape[0]
        qkv = self.qkv_proj(x)  # (T, q_size + 2 kv_size)
        q, k, v = qkv.split([self.q_size, self.kv_size, self.kv_size], dim=-1)
        q = q.view(T, self.num_heads, self.head_dim)
        k = k.view(T, self.num_kv_heads, self.head_dim)
        v = v.view(T, self.num_kv_heads, self.head_dim)
        q, k = ops.rotary(q, k, rope)
        o = paged_attention(q, k, v, kv_cache[0], kv_cache[1], meta, self.scale)  # (T, H, D)
        return self.o_proj(o.reshape(T, self.q_size))


class MLP(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.intermediate_size = cfg.intermediate_size
        self.gate_up_proj = nn.Linear(cfg.hidden_size, 2 * cfg.intermediate_size, bias=False)
        self.down_proj = nn.Linear(cfg.intermediate_size, cfg.hidden_size, bias=False)

    def forward(self, x: torch.Tensor, ops: LayerOps) -> torch.Tensor:
        return self.down_proj(ops.silu_and_mul(self.gate_up_proj(x)))  # (T, 2I) -> (T, I)


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = MLP(cfg)

    def forward(
        self,
        x: torch.Tensor,
        residual: torch.Tensor | None,
        rope: Rope,
        kv_cache: KVCache,
        meta: AttentionMetadata,
        ops: LayerOps,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """x: the previous layer's MLP output (the embeddings for the first layer, residual
        None). Returns (this layer's MLP output, the residual stream before it): the next
        layer's norm adds the two, in one kernel with the triton ops."""
        h, residual = ops.add_rms_norm(x, residual, self.input_layernorm)
        h = self.self_attn(h, rope, kv_cache, meta, ops)
        h, residual = ops.add_rms_norm(h, residual, self.post_attention_layernorm)
        return self.mlp(h, ops), residual


class LlamaForCausalLM(nn.Module):
    """Input is the flattened batch of new tokens (T,) of all scheduled sequences."""

    def __init__(self, cfg: ModelConfig, max_positions: int) -> None:
        super().__init__()
        self.config = cfg
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.num_layers))
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.rope = RotaryEmbedding(cfg.head_dim, max_positions, cfg.rope_theta)
        # How the small per-layer operations run; the runner sets the triton ops on a GPU.
        self.ops: LayerOps = TorchLayerOps()
        self.embed_tokens: nn.Embedding | QuantLinear
        self.lm_head: Linear | None = (
            None
            if cfg.tie_word_embeddings
            else nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)
        )
        self.requires_grad_(False)

    def use_packed_weights(
        self, packed: Mapping[str, QuantizedWeight], backend: str, dtype: torch.dtype
    ) -> None:
        """Swap in a QuantLinear, on the model's current device (meta, before `to_empty`), for
        every projection whose parts all come packed in one format, and for a packed embedding
        (lookups dequantize only the looked-up rows; tied, it serves the logits packed too) and
        head. The rest stays nn.Linear and loads float weights: e.g. a fused q/k/v whose v has
        a type without a kernel."""
        for i, layer in enumerate(self.layers):
            for module_name, parts in FUSED_PROJECTIONS.items():
                formats = {packed[n].format for n in _part_names(i, parts) if n in packed}
                if len(formats) != 1 or any(n not in packed for n in _part_names(i, parts)):
                    continue
                parent_name, attr = module_name.split(".")
                parent = layer.get_submodule(parent_name)
                old = getattr(parent, attr)
                new = QuantLinear(
                    old.in_features,
                    old.out_features,
                    formats.pop(),
                    bias=old.bias is not None,
                    backend=backend,
                    out_dtype=dtype,
                    device=old.weight.device,
                )
                setattr(parent, attr, new)
        cfg = self.config
        if EMBEDDING in packed:
            device = self.embed_tokens.weight.device
            self.embed_tokens = QuantLinear(
                cfg.hidden_size,
                cfg.vocab_size,
                packed[EMBEDDING].format,
                backend=backend,
                out_dtype=dtype,
                device=device,
            )
        if self.lm_head is not None and LM_HEAD in packed:
            device = self.lm_head.weight.device
            self.lm_head = QuantLinear(
                cfg.hidden_size,
                cfg.vocab_size,
                packed[LM_HEAD].format,
                backend=backend,
                out_dtype=dtype,
                device=device,
            )

    def forward(
        self,
        input_ids: torch.Tensor,
        positions: torch.Tensor,
        kv_caches: list[KVCache],
        meta: AttentionMetadata,
    ) -> torch.Tensor:
        if isinstance(self.embed_tokens, QuantLinear):
            x = self.embed_tokens.embed(input_ids)  # (T, hidden)
        else:
            x = self.embed_tokens(input_ids)  # (T, hidden)
        ops = self.ops
        rope = ops.rope(self.rope, positions)  # once per step, shared by every layer
        residual = None
        for layer, kv_cache in zip(self.layers, kv_caches, strict=True):
            x, residual = layer(x, residual, rope, kv_cache, meta, ops)
        return ops.add_rms_norm(x, residual, self.norm)[0]

    def compute_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        # hidden: (B, hidden) -> (B, V) float32
        head = self.embed_tokens if self.lm_head is None else self.lm_head
        if isinstance(head, QuantLinear):
            return head(hidden).float()
        return F.linear(hidden, head.weight).float()

    @torch.no_grad()
    def load_hf_weights(
        self, weights: dict[str, torch.Tensor], packed: Mapping[str, QuantizedWeight] | None = None
    ) -> None:
        """Copy Hugging Face-named weights in, fusing q/k/v and gate/up.

        A QuantLinear module takes its parts from `packed` (their float copies in `weights` are
        dropped); every other module from `weights`. Tensors may sit on any device.
        """
        cfg = self.config
        pending = dict(weights)
        packed = packed or {}

        def take(name: str) -> torch.Tensor:
            try:
                return pending.pop(name)
            except KeyError:
                raise KeyError(f"checkpoint lacks weight {name!r}") from None

        def load(
            module: Linear | nn.Embedding, names: list[str], bias: torch.Tensor | None = None
        ) -> None:
            floats = [take(n) for n in names]
            if isinstance(module, QuantLinear):
                missing = [n for n in names if n not in packed]
                if missing:
                    raise KeyError(f"no packed weight for {missing[0]!r}")
                module.load(cat_rows([packed[n] for n in names]), bias)
                return
            module.weight.copy_(floats[0] if len(floats) == 1 else torch.cat(floats, dim=0))
            if bias is not None:
                module.bias.copy_(bias)

        load(self.embed_tokens, [EMBEDDING])
        self.norm.weight.copy_(take("model.norm.weight"))
        if self.lm_head is not None:
            load(self.lm_head, [LM_HEAD])
        else:
            pending.pop(LM_HEAD, None)
        for i, layer in enumerate(self.layers):
            p = f"model.layers.{i}."
            qkv_bias = None
            if cfg.attention_bias:
                qkv_bias = torch.cat([take(p + f"self_attn.{n}_proj.bias") for n in "qkv"], dim=0)
            for module_name, parts in FUSED_PROJECTIONS.items():
                bias = qkv_bias if module_name == "self_attn.qkv_proj" else None
                load(layer.get_submodule(module_name), _part_names(i, parts), bias)
            layer.input_layernorm.weight.copy_(take(p + "input_layernorm.weight"))
            layer.post_attention_layernorm.weight.copy_(take(p + "post_attention_layernorm.weight"))
        if pending:
            raise KeyError(f"unexpected weights in checkpoint: {sorted(pending)[:5]}")


def _part_names(layer: int, parts: tuple[str, ...]) -> list[str]:
    return [f"model.layers.{layer}.{part}.weight" for part in parts]
