"""Distils the tuned MiniLM (guardrails/data/tuned_minilm.npz, the teacher) into a 3-layer
student for CPUs without native bf16 (guardrails/data/tuned_minilm_l3.npz).

Why: without native bf16 the 6-layer encoder runs float32, and on such a CPU one core reads a
128-token message in ~45 ms, over the rails' 30 ms budget; half the layers halve that. int8
weights were tried first and dropped: even with SmoothQuant-style scaling they moved
embeddings enough to flip 15-25 of 1,000 head decisions (guardrails/HISTORY.md).

The student is the packaged all-MiniLM-L6-v2 cut to layers --layers (default 0, 2, 5) with
rank-32 LoRA adapters on every linear layer, started from the teacher's adapters of those
layers and the teacher's heads. It trains on the teacher trainer's rows
(train_tuned_classifier.build_data, same seed and validation share; rows written after the
shipped teacher was trained are among them until it is retrained) against three targets:
the labels (weighted as for the teacher), the teacher's two head probabilities, and the
teacher's sentence embedding (cosine). The thresholds are then chosen on validation rows only,
as for the teacher (thresholds.py). HarmBench, the `test` splits and the hold-outs are never
read.

    OMP_NUM_THREADS=2 python -m guardrails.training.train_student --cache DIR [--out PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import numpy as np
import torch

from guardrails.models.tuned_minilm import (
    DEFAULT_ADAPTER,
    STUDENT_ADAPTER,
    Adapter,
    TunedMiniLM,
    add_lora,
    keep_layers,
    lora_state,
    pool,
)
from guardrails.training.train_tuned_classifier import (
    Data,
    Row,
    add_data_arguments,
    add_training_arguments,
    batch_tensors,
    build_data,
    head_layer,
    logistic_heads,
    run_steps,
    save_and_rethreshold,
    training_plan,
)

DEFAULT_OUT = STUDENT_ADAPTER


def teacher_targets(
    teacher: TunedMiniLM, rows: list[Row], batch_size: int = 64
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """text -> (teacher's unit embedding (H,), its two head logits (2,)), float32."""
    w = np.stack([h.weight for h in teacher.heads])  # (2, H)
    b = np.array([h.bias for h in teacher.heads], dtype=np.float32)  # (2,)
    texts = sorted({r.text for r in rows}, key=len)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    t0 = time.perf_counter()
    for start in range(0, len(texts), batch_size):
        part = texts[start : start + batch_size]
        vecs = teacher.embed(part)  # (n, H)
        logits = vecs @ w.T + b  # (n, 2)
        for text, v, z in zip(part, vecs, logits, strict=True):
            out[text] = (v, z.astype(np.float32))
        if start // batch_size % 50 == 0:
            print(f"teacher {start + len(part)}/{len(texts)} {time.perf_counter() - t0:.0f}s")
    return out


def cached_targets(
    teacher: TunedMiniLM, path: Path, rows: list[Row], cache: Path | None, max_length: int
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """teacher_targets, kept in `cache` under the teacher file's hash: a rerun reads the texts
    it has and computes only the new ones (added training rows cost only their own pass)."""
    if cache is None:
        return teacher_targets(teacher, rows)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    file = cache / f"teacher_{digest}_{max_length}.npz"
    kept: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if file.is_file():
        with np.load(file, allow_pickle=False) as d:
            kept = {
                str(t): (v, z)
                for t, v, z in zip(d["texts"], d["vecs"], d["logits"], strict=True)
            }
    missing = [r for r in rows if r.text not in kept]
    if missing:
        kept |= teacher_targets(teacher, missing)
        texts = sorted(kept)
        cache.mkdir(parents=True, exist_ok=True)
        part = file.with_suffix(".part.npz")  # renamed whole: a killed run leaves no torn file
        np.savez(
            part,
            texts=np.array(texts),
            vecs=np.stack([kept[t][0] for t in texts]),
            logits=np.stack([kept[t][1] for t in texts]),
        )
        part.replace(file)
    return {r.text: kept[r.text] for r in rows}


def init_from_teacher(
    wrappers: dict, teacher: Adapter, layers: tuple[int, ...]
) -> None:
    """Student layer i starts with the teacher's adapters of packaged layer layers[i]."""
    with torch.no_grad():
        for name, w in wrappers.items():
            _, _, i, target = name.split(".", 3)  # encoder.layer.{i}.{target}
            key = f"lora.encoder.layer.{layers[int(i)]}.{target}"
            w.A.copy_(torch.from_numpy(teacher.lora[f"{key}.A"]))
            w.B.copy_(torch.from_numpy(teacher.lora[f"{key}.B"]))


def train(args: argparse.Namespace, data: Data, teacher_path: Path) -> tuple[Adapter, dict]:
    from retrieval.bert import BertEncoder
    from retrieval.embedder import default_model_path

    teacher = TunedMiniLM.load(teacher_path, bf16=False, fp16=False)  # exact targets
    teacher._tokenizer.enable_truncation(max_length=args.max_length)
    targets = cached_targets(teacher, teacher_path, data.train, args.cache, args.max_length)
    tokenizer = teacher._tokenizer
    t_adapter = teacher.adapter
    if t_adapter.layers is not None:
        raise SystemExit(f"teacher {teacher_path} is itself a student")
    rank = t_adapter.lora[next(iter(t_adapter.lora))].shape[0]
    del teacher

    torch.manual_seed(args.seed)
    encoder = BertEncoder.from_folder(default_model_path()).requires_grad_(False)
    keep_layers(encoder, args.layers)
    wrappers = add_lora(encoder, rank, t_adapter.scale * rank, args.seed)
    init_from_teacher(wrappers, t_adapter, args.layers)
    head = head_layer(t_adapter.heads)
    bce = torch.nn.functional.binary_cross_entropy_with_logits

    def step_loss(batch: list[Row]) -> tuple[torch.Tensor, dict]:
        ids, mask, y, w = batch_tensors(tokenizer, batch)
        t_vec = torch.from_numpy(np.stack([targets[r.text][0] for r in batch]))  # (B, H)
        t_logit = torch.from_numpy(np.stack([targets[r.text][1] for r in batch]))  # (B, 2)
        vec = pool(encoder(ids, mask), mask)  # (B, H)
        logits = head(vec)  # (B, 2)
        label = (bce(logits, y.clamp(min=0), reduction="none") * w).sum() / len(batch)
        soft = bce(logits, torch.sigmoid(t_logit), reduction="none").sum(1).mean()
        cos = (1.0 - (vec * t_vec).sum(1)).mean()
        loss = label + args.soft_weight * soft + args.cos_weight * cos
        return loss, {"cos": round(1.0 - cos.item(), 4)}

    stats = run_steps(*training_plan(wrappers, head, data.train, tokenizer, args), step_loss)
    adapter = Adapter(
        lora_state(wrappers), t_adapter.scale, logistic_heads(head), {}, tuple(args.layers)
    )
    return adapter, stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--teacher", type=Path, default=DEFAULT_ADAPTER)
    add_data_arguments(parser)  # the teacher's, so build_data picks the same rows
    parser.add_argument("--layers", type=int, nargs="+", default=[0, 2, 5])
    parser.add_argument("--soft-weight", type=float, default=4.0)
    parser.add_argument("--cos-weight", type=float, default=20.0)
    add_training_arguments(parser, head_lr=2e-3, epochs=4)
    args = parser.parse_args(argv)
    args.layers = tuple(args.layers)
    if args.epochs < 1 or len(set(args.layers)) != len(args.layers):
        parser.error("--epochs must be >= 1 and --layers distinct")

    data = build_data(args)
    print(json.dumps(data.summary), flush=True)
    adapter, stats = train(args, data, args.teacher)
    card = {
        "model": f"all-MiniLM-L6-v2 layers {list(args.layers)} + LoRA (all linear layers), "
        "distilled from the tuned 6-layer model; mean-pooled, normalized; two logistic heads",
        "trained_on": "the teacher's training rows (train_tuned_classifier.build_data), against "
        "their labels, the teacher's head probabilities and the teacher's embeddings",
        **data.summary,
        **{k: v for k, v in vars(args).items() if k not in ("out", "cache", "teacher")},
        **stats,
    }
    save_and_rethreshold(
        Adapter(adapter.lora, adapter.scale, adapter.heads, card, adapter.layers), args
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
