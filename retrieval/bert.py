"""A small BERT encoder (the MiniLM-L6 shape) in plain torch, loaded from safetensors.

Only the encoder stack is built: sentence embeddings mean-pool the last hidden states, so the
pooler head in the checkpoint is not needed. Dropout is absent because this is inference only.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file
from torch import nn

from retrieval.errors import EmbedderLoadError


@dataclass(frozen=True, slots=True)
class BertConfig:
    vocab_size: int
    hidden_size: int
    num_layers: int
    num_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float

    @classmethod
    def from_json(cls, path: Path) -> BertConfig:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EmbedderLoadError(f"cannot read BERT config {str(path)!r}: {exc}") from exc
        if raw.get("model_type") != "bert":
            raise EmbedderLoadError(
                f"{str(path)!r} describes model_type={raw.get('model_type')!r}, expected 'bert'"
            )
        if raw.get("hidden_act", "gelu") != "gelu":
            raise EmbedderLoadError(f"unsupported hidden_act {raw.get('hidden_act')!r}")
        if raw.get("position_embedding_type", "absolute") != "absolute":
            raise EmbedderLoadError(
                f"unsupported position_embedding_type {raw.get('position_embedding_type')!r}"
            )
        cfg = cls(
            vocab_size=int(raw["vocab_size"]),
            hidden_size=int(raw["hidden_size"]),
            num_layers=int(raw["num_hidden_layers"]),
            num_heads=int(raw["num_attention_heads"]),
            intermediate_size=int(raw["intermediate_size"]),
            max_position_embeddings=int(raw["max_position_embeddings"]),
            type_vocab_size=int(raw.get("type_vocab_size", 2)),
            layer_norm_eps=float(raw.get("layer_norm_eps", 1e-12)),
        )
        if cfg.hidden_size % cfg.num_heads:
            raise EmbedderLoadError(
                f"hidden_size {cfg.hidden_size} is not divisible by num_heads {cfg.num_heads}"
            )
        return cfg


def attention_bias(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """(B, T) mask of 1 for real tokens -> (B, 1, 1, T) additive bias: 0 for real tokens,
    -inf for padding keys."""
    bias = torch.zeros(attention_mask.shape, dtype=dtype, device=attention_mask.device)
    return bias.masked_fill(attention_mask == 0, float("-inf"))[:, None, None, :]


class BertEmbeddings(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.position_embeddings = nn.Embedding(cfg.max_position_embeddings, cfg.hidden_size)
        self.token_type_embeddings = nn.Embedding(cfg.type_vocab_size, cfg.hidden_size)
        self.LayerNorm = nn.LayerNorm(cfg.hidden_size, eps=cfg.layer_norm_eps)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        # input_ids: (B, T); single-segment input, so every token_type id is 0.
        T = input_ids.shape[1]
        positions = torch.arange(T, device=input_ids.device)  # (T,)
        x = self.word_embeddings(input_ids)  # (B, T, H)
        x = x + self.position_embeddings(positions)[None]  # (1, T, H) broadcast
        x = x + self.token_type_embeddings.weight[0]  # (H,) broadcast
        return self.LayerNorm(x)


class BertSelfAttention(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.num_heads = cfg.num_heads
        self.head_dim = cfg.hidden_size // cfg.num_heads
        self.query = nn.Linear(cfg.hidden_size, cfg.hidden_size)
        self.key = nn.Linear(cfg.hidden_size, cfg.hidden_size)
        self.value = nn.Linear(cfg.hidden_size, cfg.hidden_size)

    def forward(self, x: torch.Tensor, attn_bias: torch.Tensor) -> torch.Tensor:
        B, T, H = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)  # (B, nh, T, hd)

        q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
        # attn_bias: (B, 1, 1, T), 0 for real tokens and -inf for padding keys.
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_bias, scale=1.0 / math.sqrt(self.head_dim)
        )  # (B, nh, T, hd)
        return out.transpose(1, 2).reshape(B, T, H)  # (B, T, H)


class BertAttention(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.self = BertSelfAttention(cfg)
        self.output = _DenseResidualNorm(cfg.hidden_size, cfg.hidden_size, cfg.layer_norm_eps)

    def forward(self, x: torch.Tensor, attn_bias: torch.Tensor) -> torch.Tensor:
        return self.output(self.self(x, attn_bias), x)


class _DenseResidualNorm(nn.Module):
    """LayerNorm(residual + Linear(x)): BERT's post-norm sublayer output."""

    def __init__(self, in_features: int, hidden_size: int, eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(in_features, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size, eps=eps)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(residual + self.dense(x))


class _Intermediate(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(cfg.hidden_size, cfg.intermediate_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.dense(x))  # exact (erf) GELU, as BERT was trained


class BertLayer(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.attention = BertAttention(cfg)
        self.intermediate = _Intermediate(cfg)
        self.output = _DenseResidualNorm(cfg.intermediate_size, cfg.hidden_size, cfg.layer_norm_eps)

    def forward(self, x: torch.Tensor, attn_bias: torch.Tensor) -> torch.Tensor:
        x = self.attention(x, attn_bias)  # (B, T, H)
        return self.output(self.intermediate(x), x)  # (B, T, H)


class _Encoder(nn.Module):
    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(BertLayer(cfg) for _ in range(cfg.num_layers))


class BertEncoder(nn.Module):
    """Token ids + attention mask -> last hidden states. Parameter names match the checkpoint."""

    def __init__(self, cfg: BertConfig) -> None:
        super().__init__()
        self.config = cfg
        self.embeddings = BertEmbeddings(cfg)
        self.encoder = _Encoder(cfg)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        # input_ids, attention_mask: (B, T) -> hidden states (B, T, H)
        x = self.embeddings(input_ids)
        attn_bias = attention_bias(attention_mask, x.dtype)  # (B, 1, 1, T)
        for layer in self.encoder.layer:
            x = layer(x, attn_bias)
        return x

    @classmethod
    def from_folder(cls, folder: Path, device: str = "cpu") -> BertEncoder:
        cfg = BertConfig.from_json(folder / "config.json")
        weights_path = folder / "model.safetensors"
        try:
            state = load_file(str(weights_path), device="cpu")
        except (OSError, ValueError, RuntimeError) as exc:
            raise EmbedderLoadError(f"cannot read weights {str(weights_path)!r}: {exc}") from exc
        # Some exports prefix every name with "bert."; the pooler and position_ids buffer are
        # unused by mean pooling.
        state = {k.removeprefix("bert."): v for k, v in state.items()}
        state = {
            k: v.float()
            for k, v in state.items()
            if not k.startswith("pooler.") and k != "embeddings.position_ids"
        }
        model = cls(cfg)
        missing, unexpected = model.load_state_dict(state, strict=False)
        if missing or unexpected:
            raise EmbedderLoadError(
                f"weights in {str(weights_path)!r} do not fit a BERT encoder: "
                f"missing {sorted(missing)[:5]}, unexpected {sorted(unexpected)[:5]}"
            )
        return model.to(device).eval().requires_grad_(False)
