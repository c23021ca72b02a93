"""NanoGuard: a 16.8M-parameter bidirectional transformer that classifies prompt injection.

Weights and tokenizer ship in the PyPI package `metatronnanoguard==0.1.0` (MIT); they are read
from the package's folder without importing it. Per its model card the model was trained on
21,804 examples from 11 public prompt-injection datasets (not listed by name) and reaches
val F1 0.969 / accuracy 0.978 on its own held-out split; its labels are injection vs safe, so it
says nothing about harmful-content requests.

The network is re-implemented here from the checkpoint's shapes: 4 blocks of RMS-normed
attention (RoPE, QK-norm, no causal mask) and a ReLU^2 MLP, per-layer residual / input mixing
scalars, masked mean pooling, LayerNorm, linear head. Loading uses weights_only=True.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from guardrails.errors import ModelLoadError
from guardrails.models.bf16_linear import native_bf16, swap_linears
from guardrails.models.bpe import BpeTokenizer
from guardrails.models.fbgemm_linear import (
    int8_full_range,
    int8_supported,
    swap_linears_int8,
)
from guardrails.models.smoothing import (
    DEFAULT_NANOGUARD_SMOOTHING,
    SmoothingFile,
    smoothing_factors,
)

PACKAGE = "nanoguard"
BOS_TOKEN = "<|reserved_0|>"


def default_assets_path() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError(
            f"package {PACKAGE!r} is not installed; "
            "run: pip install --no-deps metatronnanoguard==0.1.0"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "assets"


@dataclass(frozen=True, slots=True)
class NanoGuardConfig:
    sequence_len: int
    vocab_size: int
    n_layer: int
    n_head: int
    n_embd: int
    num_classes: int


def _rms(x: torch.Tensor) -> torch.Tensor:
    return F.rms_norm(x, (x.size(-1),))


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # x: (B, T, H, D); cos/sin: (1, T, 1, D/2); half-split RoPE as in training.
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos + x2 * sin, x2 * cos - x1 * sin], dim=-1)


class _Block(nn.Module):
    def __init__(self, cfg: NanoGuardConfig) -> None:
        super().__init__()
        self.n_head = cfg.n_head
        self.head_dim = cfg.n_embd // cfg.n_head
        d = cfg.n_embd
        self.c_q = nn.Linear(d, d, bias=False)
        self.c_k = nn.Linear(d, d, bias=False)
        self.c_v = nn.Linear(d, d, bias=False)
        self.c_proj = nn.Linear(d, d, bias=False)
        self.c_fc = nn.Linear(d, 4 * d, bias=False)
        self.c_mlp_proj = nn.Linear(4 * d, d, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        h = _rms(x)
        q = self.c_q(h).view(B, T, self.n_head, self.head_dim)  # (B, T, H, D)
        k = self.c_k(h).view(B, T, self.n_head, self.head_dim)
        v = self.c_v(h).view(B, T, self.n_head, self.head_dim)
        q, k = _rms(_rotate(q, cos, sin)), _rms(_rotate(k, cos, sin))
        y = F.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        )  # (B, H, T, D)
        x = x + self.c_proj(y.transpose(1, 2).reshape(B, T, C))
        m = F.relu(self.c_fc(_rms(x))).square()  # (B, T, 4C)
        return x + self.c_mlp_proj(m)


class NanoGuardNet(nn.Module):
    cos: torch.Tensor
    sin: torch.Tensor

    def __init__(self, cfg: NanoGuardConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.blocks = nn.ModuleList(_Block(cfg) for _ in range(cfg.n_layer))
        self.resid_lambdas = nn.Parameter(torch.ones(cfg.n_layer))
        self.x0_lambdas = nn.Parameter(torch.zeros(cfg.n_layer))
        self.cls_norm = nn.LayerNorm(cfg.n_embd)
        self.cls_head = nn.Linear(cfg.n_embd, cfg.num_classes)
        half = cfg.n_embd // cfg.n_head // 2
        inv_freq = 1.0 / (10000 ** (torch.arange(0, half, dtype=torch.float32) / half))
        angles = torch.outer(torch.arange(cfg.sequence_len, dtype=torch.float32), inv_freq)
        # Training kept the rotary tables in bfloat16; rounding them the same way keeps the
        # logits equal to the published model's.
        self.register_buffer("cos", angles.cos().bfloat16().float()[None, :, None, :], False)
        self.register_buffer("sin", angles.sin().bfloat16().float()[None, :, None, :], False)

    def use_bf16_linears(self) -> None:
        """Swaps the blocks' matmul weights for prepacked bfloat16 copies (bf16_linear.py;
        norms, embeddings and head stay float32). Measured against float32 at the shipped
        threshold 0.999: no decision changed on our dev set, one of 3,038 on the validation
        splits; scores moved by at most 0.0024."""
        swap_linears(self.blocks)

    def smooth_mlp(self, act_max: torch.Tensor, alpha: float) -> None:
        """Folds SmoothQuant factors into each block's MLP (models/smoothing.py): the MLP's
        second matmul reads relu(h)^2, whose few large channels would flatten the rest under
        one int8 activation scale. relu(h / sqrt(s))^2 = relu(h)^2 / s for s > 0, so dividing
        c_fc's rows by sqrt(s) and multiplying c_mlp_proj's columns by s computes the same
        function. act_max: (n_layer, 4 * n_embd)."""
        with torch.no_grad():
            for i, block in enumerate(self.blocks):
                s = smoothing_factors(act_max[i], block.c_mlp_proj.weight, alpha)  # (4C,)
                block.c_fc.weight.mul_(s.rsqrt()[:, None])
                block.c_mlp_proj.weight.mul_(s[None, :])

    def use_int8_linears(self) -> None:
        """Swaps the blocks' matmul weights for int8 copies run by fbgemm (fbgemm_linear.py;
        norms, embeddings and head stay float32); smooth_mlp first. Measured against float32
        at the shipped threshold 0.999 on the 3,797 validation rows (one core of a Zen 3): 3
        decisions changed (27 without the smoothing), the logit moved by 0.03 at the median,
        and a message is read in half the time (p50 9.7 ms against 19.7). The activations of
        one forward pass share a scale, so a long text's windows, scored as one batch, round a
        little differently than one by one (at most 0.0013 in tests/guardrails)."""
        swap_linears_int8(self.blocks)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # ids, mask: (B, T) -> logits (B, num_classes)
        T = ids.shape[1]
        cos, sin = self.cos[:, :T], self.sin[:, :T]
        x = _rms(self.wte(ids).float())  # (B, T, C)
        x0 = x
        for i, block in enumerate(self.blocks):
            x = block(self.resid_lambdas[i] * x + self.x0_lambdas[i] * x0, cos, sin)
        x = _rms(x)
        w = mask.unsqueeze(-1).to(x.dtype)  # (B, T, 1)
        pooled = (x * w).sum(dim=1) / w.sum(dim=1).clamp(min=1)  # (B, C)
        return self.cls_head(self.cls_norm(pooled))


def _rename(key: str) -> str:
    """Checkpoint key -> our module key (the checkpoint nests blocks under transformer.h)."""
    key = key.replace("transformer.wte.", "wte.").replace("transformer.h.", "blocks.")
    return (
        key.replace(".attn.", ".")
        .replace(".mlp.c_fc.", ".c_fc.")
        .replace(".mlp.c_proj.", ".c_mlp_proj.")
    )


class NanoGuard:
    """Scores texts: P(injection) in [0, 1]. Sync; safe to share between worker threads."""

    def __init__(
        self, net: NanoGuardNet, tokenizer: BpeTokenizer, matmuls: str = "float32"
    ) -> None:
        self.net = net
        self.tokenizer = tokenizer
        self.matmuls = matmuls  # what the blocks' matmuls run in: float32, bf16 or int8
        try:
            self.bos_id = tokenizer.special_tokens[BOS_TOKEN]
        except KeyError as exc:
            raise ModelLoadError(f"tokenizer lacks the special token {BOS_TOKEN!r}") from exc

    @classmethod
    def load(
        cls,
        assets: Path | None = None,
        bf16: bool | None = None,
        int8: bool | None = None,
        smoothing: Path = DEFAULT_NANOGUARD_SMOOTHING,
    ) -> NanoGuard:
        """`int8`: None picks int8 matmuls (smoothed with the `smoothing` file) where fbgemm
        runs, unless bf16 is asked for or is native here and the int8 activations would be cut
        to 7 bits (fbgemm_linear.int8_full_range). `bf16`: None picks bfloat16 matmuls where
        int8 is not picked and the CPU has native bf16. Float32 where neither. With 8-bit
        activations (AVX512-VNNI, as on a Zen 4) int8 is faster than bf16 and as close to
        float32: on 3,797 validation rows p50 4.1-5.5 ms against 7.3-8.3, 1 decision changed
        against none (README)."""
        folder = assets if assets is not None else default_assets_path()
        weights, tok = folder / "model.pt", folder / "tokenizer.pkl"
        for path in (weights, tok):
            if not path.is_file():
                raise ModelLoadError(f"NanoGuard asset {str(path)!r} does not exist")
        try:
            ckpt = torch.load(weights, map_location="cpu", weights_only=True)
            raw = ckpt["config"]
            cfg = NanoGuardConfig(
                sequence_len=int(raw["sequence_len"]),
                vocab_size=int(raw["vocab_size"]),
                n_layer=int(raw["n_layer"]),
                n_head=int(raw["n_head"]),
                n_embd=int(raw["n_embd"]),
                num_classes=int(raw["num_classes"]),
            )
            net = NanoGuardNet(cfg)
            state = {_rename(k): v.float() for k, v in ckpt["model_state_dict"].items()}
            net.load_state_dict(state)
        except (OSError, KeyError, TypeError, ValueError, RuntimeError) as exc:
            raise ModelLoadError(f"cannot load NanoGuard weights {str(weights)!r}: {exc}") from exc
        net.eval()
        if int8 is None:
            if bf16 is None:
                int8 = int8_supported() and (int8_full_range() or not native_bf16())
            else:
                int8 = not bf16 and int8_supported()
        if bf16 is None:
            bf16 = not int8 and native_bf16()
        if bf16 and int8:
            raise ValueError("NanoGuard runs bf16 or int8 matmuls, not both")
        if bf16:
            net.use_bf16_linears()
        elif int8:
            layers, width = cfg.n_layer, 4 * cfg.n_embd
            smooth = SmoothingFile.load(smoothing, (layers, width))
            net.smooth_mlp(torch.from_numpy(smooth.act_max), smooth.alpha)
            net.use_int8_linears()
        matmuls = "bf16" if bf16 else "int8" if int8 else "float32"
        return cls(net, BpeTokenizer.from_tiktoken_pickle(tok), matmuls)

    def encode(self, text: str) -> list[int]:
        ids = [self.bos_id, *self.tokenizer.encode_ordinary(text)]
        return ids[: self.net.cfg.sequence_len]

    def score(self, texts: list[str]) -> list[float]:
        """P(injection) per text (cut to the model's context)."""
        return self.score_ids([self.encode(text) for text in texts])

    def score_ids(self, sequences: list[list[int]]) -> list[float]:
        """P(injection) per token sequence (each starts with BOS). Sequences of equal length
        share one forward pass; there is no padding, which the model would attend to (its
        attention has no padding mask), so each length is its own batch."""
        limit = self.net.cfg.sequence_len
        by_length: dict[int, list[int]] = {}
        for i, ids in enumerate(sequences):
            if not 0 < len(ids) <= limit:
                raise ValueError(
                    f"sequence {i} has {len(ids)} tokens; NanoGuard reads 1 to {limit}"
                )
            by_length.setdefault(len(ids), []).append(i)
        out = [0.0] * len(sequences)
        with torch.inference_mode():
            for rows in by_length.values():
                batch = torch.tensor([sequences[i] for i in rows], dtype=torch.long)  # (B, T)
                logits = self.net(batch, torch.ones_like(batch))  # (B, 2)
                probs = torch.softmax(logits, dim=-1)[:, 1].tolist()  # (B,)
                for i, p in zip(rows, probs, strict=True):
                    out[i] = float(p)
        return out
