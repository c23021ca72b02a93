"""TunedMiniLM: the packaged all-MiniLM-L6-v2 with LoRA adapters merged in, and two logistic
heads (prompt injection / jailbreak, harmful request) over its mean-pooled, normalized output.

Why LoRA: the frozen sentence embeddings did not separate new phrasings of attacks from benign
requests; fine-tuning the encoder does, and low-rank adapters keep what we ship small (~5 MB
in git instead of a 90 MB encoder). At load the adapters are merged (W + scale * B @ A) into a
private copy of the packaged weights, so a message costs one ordinary MiniLM forward and the
retrieval embedder keeps its own unmodified encoder.

The adapter file (.npz, read with allow_pickle=False) holds, for every adapted linear layer
`<name>`, `lora.<name>.A` (r, in) and `lora.<name>.B` (out, r); `scale` (alpha / r);
`head.weight` (2, H), `head.bias` (2,), `head.threshold` (2,) and `card` (JSON: what it was
trained on, validation figures). Row 0 of the heads is injection, row 1 harmful.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from guardrails.errors import ModelLoadError
from guardrails.models.bf16_bert import Bf16Bert
from guardrails.models.bf16_linear import native_bf16
from guardrails.models.fbgemm_linear import fp16_supported, swap_linears_fp16
from guardrails.models.head import LogisticHead

DEFAULT_ADAPTER = Path(__file__).resolve().parent.parent / "data" / "tuned_minilm.npz"
# The same distilled into 3 layers (training/train_student.py), for CPUs without native bf16.
STUDENT_ADAPTER = DEFAULT_ADAPTER.with_name("tuned_minilm_l3.npz")
TASKS = ("injection", "harmful")
# Every linear layer of a BERT layer: attention projections and the feed-forward pair.
TARGETS = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)
MAX_LENGTH = 256  # all-MiniLM-L6-v2's trained input length, [CLS] and [SEP] included


class LoraLinear(nn.Module):
    """base(x) + scale * x @ A.T @ B.T, with `base` frozen. B starts at zero, so a freshly
    wrapped model computes exactly what the base model computes."""

    def __init__(self, base: nn.Linear, rank: int, scale: float, generator: torch.Generator):
        super().__init__()
        if rank < 1:
            raise ValueError(f"LoRA rank must be >= 1, got {rank}")
        self.base = base.requires_grad_(False)
        bound = 1.0 / base.in_features**0.5
        a = (torch.rand(rank, base.in_features, generator=generator) * 2 - 1) * bound
        self.A = nn.Parameter(a)  # (r, in)
        self.B = nn.Parameter(torch.zeros(base.out_features, rank))  # (out, r)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.A.T @ self.B.T) * self.scale  # (..., out)


def _layer_linears(encoder: nn.Module) -> dict[str, tuple[nn.Module, str]]:
    """'encoder.layer.{i}.{target}' -> (parent module, attribute name) for every target."""
    found: dict[str, tuple[nn.Module, str]] = {}
    for i, layer in enumerate(encoder.encoder.layer):  # type: ignore[union-attr]
        for target in TARGETS:
            *path, attr = target.split(".")
            parent = layer
            for part in path:
                parent = getattr(parent, part)
            found[f"encoder.layer.{i}.{target}"] = (parent, attr)
    return found


def add_lora(encoder: nn.Module, rank: int, alpha: float, seed: int) -> dict[str, LoraLinear]:
    """Wraps every target linear of `encoder` in place; returns the wrappers by name."""
    generator = torch.Generator().manual_seed(seed)
    wrappers: dict[str, LoraLinear] = {}
    for name, (parent, attr) in _layer_linears(encoder).items():
        wrapper = LoraLinear(getattr(parent, attr), rank, alpha / rank, generator)
        setattr(parent, attr, wrapper)
        wrappers[name] = wrapper
    return wrappers


def lora_state(wrappers: dict[str, LoraLinear]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for name, w in wrappers.items():
        out[f"lora.{name}.A"] = w.A.detach().float().numpy()
        out[f"lora.{name}.B"] = w.B.detach().float().numpy()
    return out


def merge_lora(
    encoder: nn.Module, lora: dict[str, np.ndarray], scale: float, copy_first: bool = True
) -> nn.Module:
    """`encoder` with every target weight replaced by W + scale * B @ A (in float64, then rounded
    once): a deep copy, or `encoder` itself with `copy_first=False`. Every target must have an
    adapter and every adapter a target; all are checked before any weight is written."""
    linears = _layer_linears(encoder)
    names = {k.removeprefix("lora.").rsplit(".", 1)[0] for k in lora}
    if names != set(linears):
        extra, missing = sorted(names - set(linears)), sorted(set(linears) - names)
        raise ModelLoadError(
            f"LoRA adapters do not fit: unexpected {extra[:3]}, missing {missing[:3]}"
        )
    for name, (parent, attr) in linears.items():
        shape = tuple(getattr(parent, attr).weight.shape)  # (out, in)
        a, b = lora[f"lora.{name}.A"], lora[f"lora.{name}.B"]  # (r, in), (out, r)
        if b.shape[0] != shape[0] or a.shape[1] != shape[1] or a.shape[0] != b.shape[1]:
            raise ModelLoadError(
                f"LoRA {name}: A {a.shape}, B {b.shape} do not fit weight {shape}"
            )
    merged = copy.deepcopy(encoder) if copy_first else encoder
    with torch.no_grad():
        for name, (parent, attr) in _layer_linears(merged).items():
            weight = getattr(parent, attr).weight
            a = torch.from_numpy(lora[f"lora.{name}.A"]).double()  # (r, in)
            b = torch.from_numpy(lora[f"lora.{name}.B"]).double()  # (out, r)
            weight.copy_((weight.double() + (b @ a) * scale).to(weight.dtype))
    return merged


def keep_layers(encoder: nn.Module, layers: tuple[int, ...]) -> None:
    """Keeps only `layers` of `encoder`'s stack, in that order, in place (a student's shape)."""
    stack = encoder.encoder.layer  # type: ignore[union-attr]
    if not layers or any(not 0 <= i < len(stack) for i in layers):
        raise ModelLoadError(f"layers {layers} do not fit an encoder of {len(stack)} layers")
    encoder.encoder.layer = nn.ModuleList(stack[i] for i in layers)  # type: ignore[union-attr]


def pool(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Mean over real tokens, L2-normalized: (B, T, H), (B, T) -> (B, H)."""
    weights = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
    pooled = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)  # (B, H)
    return torch.nn.functional.normalize(pooled, p=2.0, dim=-1)


@dataclass(frozen=True)
class Adapter:
    """The contents of an adapter file."""

    lora: dict[str, np.ndarray]
    scale: float
    heads: tuple[LogisticHead, LogisticHead]  # injection, harmful
    card: dict
    # The packaged encoder's layers this model keeps, in order (a distilled student); None: all.
    layers: tuple[int, ...] | None = None

    def save(self, path: Path) -> None:
        w = np.stack([h.weight for h in self.heads]).astype(np.float32)  # (2, H)
        np.savez(
            path,
            **{k: v.astype(np.float32) for k, v in self.lora.items()},
            scale=np.float32(self.scale),
            **{
                "head.weight": w,
                "head.bias": np.array([h.bias for h in self.heads], dtype=np.float32),
                "head.threshold": np.array([h.threshold for h in self.heads], dtype=np.float32),
            },
            card=np.array(json.dumps(self.card, sort_keys=True)),
            **({} if self.layers is None else {"layers": np.array(self.layers, dtype=np.int64)}),
        )

    @classmethod
    def load(cls, path: Path) -> Adapter:
        if not path.is_file():
            raise ModelLoadError(f"tuned MiniLM adapter {str(path)!r} does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                lora = {
                    k: np.asarray(data[k], np.float32) for k in data.files if k.startswith("lora.")
                }
                scale = float(data["scale"])
                weight = np.asarray(data["head.weight"], np.float32)
                bias = np.asarray(data["head.bias"], np.float32)
                threshold = np.asarray(data["head.threshold"], np.float32)
                card = json.loads(str(data["card"]))
                layers = (
                    tuple(int(i) for i in data["layers"]) if "layers" in data.files else None
                )
        except (OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot read tuned MiniLM adapter {str(path)!r}: {exc}") from exc
        if (
            weight.ndim != 2
            or weight.shape[0] != 2
            or bias.shape != (2,)
            or threshold.shape != (2,)
        ):
            raise ModelLoadError(
                f"adapter {str(path)!r} heads have shapes {weight.shape}, {bias.shape}, "
                f"{threshold.shape}; expected (2, H), (2,), (2,)"
            )
        heads = tuple(
            LogisticHead(weight[i], float(bias[i]), float(threshold[i]), {"task": TASKS[i], **card})
            for i in range(2)
        )
        return cls(lora, scale, (heads[0], heads[1]), card, layers)


class TunedMiniLM:
    """Texts -> fine-tuned sentence embeddings (n, H), read by the two heads of the adapter.

    Thread-safe like the retrieval Embedder: the merged encoder is never mutated after loading
    and every call runs under its own inference_mode; the tokenizer is configured once."""

    def __init__(
        self,
        encoder: nn.Module,
        tokenizer_path: Path,
        adapter: Adapter,
        bf16: bool | None = None,
        fp16: bool | None = None,
    ) -> None:
        """Takes `encoder` over: the adapters are merged into its own weights, no copy.
        `bf16`: None runs the merged encoder in bf16 (bf16_bert.py) when the CPU multiplies
        bf16 natively, as the frozen heads' MiniLM does. `fp16`: where bf16 does not run, None
        holds the matmul weights in float16 (fbgemm_linear.py; activations stay float32) where
        fbgemm runs. Both False: float32."""
        from tokenizers import Tokenizer

        self.adapter = adapter
        merged = merge_lora(encoder, adapter.lora, adapter.scale, copy_first=False).eval()
        # The bf16 copy keeps the embedding tables and LayerNorms; the float32 matmul weights
        # go with `merged`.
        self._encoder: nn.Module = merged
        self.matmuls = "float32"  # what the encoder's matmuls run in: bf16, fp16-weights, float32
        if native_bf16() if bf16 is None else bf16:
            fast = Bf16Bert(merged)
            fast.warm_up(MAX_LENGTH)
            self._encoder, self.matmuls = fast, "bf16"
        elif fp16_supported() if fp16 is None else fp16:
            swap_linears_fp16(merged)
            self.matmuls = "fp16-weights"
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MAX_LENGTH)

    @classmethod
    def load(
        cls,
        adapter_path: Path = DEFAULT_ADAPTER,
        bf16: bool | None = None,
        fp16: bool | None = None,
    ) -> TunedMiniLM:
        from retrieval.bert import BertEncoder
        from retrieval.embedder import default_model_path

        adapter = Adapter.load(adapter_path)
        folder = default_model_path()
        encoder = BertEncoder.from_folder(folder)
        if adapter.layers is not None:
            keep_layers(encoder, adapter.layers)
        return cls(encoder, folder / "tokenizer.json", adapter, bf16, fp16)

    @property
    def heads(self) -> tuple[LogisticHead, LogisticHead]:
        return self.adapter.heads

    def embed(self, texts: list[str]) -> np.ndarray:
        """texts -> (n, H) float32 unit rows, in one batch (the rails send a few pieces)."""
        if isinstance(texts, str):
            raise TypeError(f"texts must be a list of str, not one str: {texts[:40]!r}")
        hidden_size = self.adapter.heads[0].weight.shape[0]
        if not texts:
            return np.empty((0, hidden_size), dtype=np.float32)
        ids, mask = batch_ids(self._tokenizer, texts)
        with torch.inference_mode():
            hidden = self._encoder(ids, mask)  # (B, T, H)
            return pool(hidden, mask).float().numpy()


def batch_ids(tokenizer, texts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:  # type: ignore[no-untyped-def]
    """Right-padded ids and attention mask, both (B, T), T = the longest encoding."""
    encodings = tokenizer.encode_batch(texts)
    T = max(len(e.ids) for e in encodings)
    ids = torch.zeros((len(texts), T), dtype=torch.long)  # pad id 0 is [PAD]
    mask = torch.zeros((len(texts), T), dtype=torch.long)
    for row, e in enumerate(encodings):
        ids[row, : len(e.ids)] = torch.tensor(e.ids)
        mask[row, : len(e.ids)] = 1
    return ids, mask
