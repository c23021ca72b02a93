"""The requests whose answers train and threshold the output classifier, drawn reproducibly
from the input classifiers' own splits (no evaluation set), written as `{text, label, source}`
JSONL for guardrails.training.generate_answers:

- train: harmful requests of the training share (AdvBench, Do-Not-Answer, our authored files)
  and the framed requests' training share, against our benign look-alikes, the public benign
  rows, the framed benign twins and the chat turns of the training share;
- validation: the rows thresholds.py chooses the input thresholds on, less the injection
  attacks (their answers are not what this rail is for), each big group cut to a sample.

Each group is sampled by the hash of its texts (the first N in sha256 order), so a file added
later changes the sample only where its rows sort before the cut.

    python -m guardrails.training.output_data {train,validation} OUT.jsonl [--cache DIR]
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from guardrails.jsonl import write_jsonl
from guardrails.training.framing import framed_splits
from guardrails.training.harmful_data import CHITCHAT, FOLLOWUPS
from guardrails.training.train_harmful_head import (
    add_split_arguments,
    chat_turn_splits,
    harmful_splits,
)

# How many requests of each group: ~2,400 answers train, ~3,000 validate (an hour of greedy
# generation of 128 tokens, 64 at a time, on a 2-core CPU).
TRAIN_SIZES = {
    "harmful": 900,
    "framed-task": 150,
    "framed-claim": 150,
    "authored": 600,
    "public": 300,
    "framed-benign": 150,
    "chat": 150,
}
VALIDATION_SIZES = {"framed-claim": 200, "authored": 400, "s-labs": 250, "neuralchemy": 150}


def sample(rows: list[dict], n: int | None) -> list[dict]:
    """The first `n` rows in the order of their texts' sha256 (all of them when n is None)."""
    ordered = sorted(rows, key=lambda r: hashlib.sha256(r["text"].encode()).hexdigest())
    return ordered if n is None else ordered[:n]


def train_requests(seed: int, share: float, dup_cosine: float, cache: Path | None) -> list[dict]:
    h = harmful_splits(seed, share, dup_cosine, cache)
    framed = framed_splits(seed, share)[0]
    chat = [r for paths in (FOLLOWUPS, CHITCHAT) for r in chat_turn_splits(paths, seed, share)[0]]
    groups = {
        "harmful": [(r.text, 1) for r in h.harmful_train],
        "framed-task": [(r.text, 1) for r in framed if r.label == 1 and r.category == "task"],
        "framed-claim": [(r.text, 1) for r in framed if r.label == 1 and r.category == "claim"],
        "authored": [(r.text, 0) for r in h.authored],
        "public": [(r.text, 0) for r in h.benign_train],
        "framed-benign": [(r.text, 0) for r in framed if r.label == 0],
        "chat": [(r.text, 0) for r in chat],
    }
    out: list[dict] = []
    for name, pairs in groups.items():
        rows = [{"text": t, "label": y, "source": name} for t, y in pairs]
        out += sample(rows, TRAIN_SIZES[name])
    return out


def validation_requests(
    seed: int, share: float, dup_cosine: float, cache: Path | None
) -> list[dict]:
    from guardrails.training.validation_scores import validation_rows

    by_group: dict[str, list[dict]] = {}
    for r in validation_rows(seed, share, dup_cosine, cache):
        if r.group != "injection":
            by_group.setdefault(r.group, []).append(
                {"text": r.text, "label": r.label, "source": r.group}
            )
    out: list[dict] = []
    for name in sorted(by_group):
        out += sample(by_group[name], VALIDATION_SIZES.get(name))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", choices=("train", "validation"))
    parser.add_argument("out", type=Path)
    add_split_arguments(parser)
    args = parser.parse_args(argv)
    make = train_requests if args.which == "train" else validation_requests
    rows = make(args.seed, args.val_share, args.dup_cosine, args.cache)
    write_jsonl(args.out, rows)
    print(f"{args.out}: {len(rows)} requests, {sum(r['label'] for r in rows)} to block")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
