"""Keeps written training rows apart from the rows we evaluate on.

A helper that reads no project file can still write a line close to an evaluation row (the
same request, a word or two changed), and a classifier trained on it would look better on that
set than it is. This drops every candidate within either measure of an evaluation row:
- character-trigram Jaccard >= --jaccard (0.5) on the lower-cased text: near copies in any
  script;
- packaged MiniLM cosine >= --cosine (0.85): the same request in other words, between two
  texts that are both mostly Latin letters (MiniLM reads English; in other scripts the trigrams
  decide: MiniLM puts most short messages in one script within 0.85 of each other, and the
  cosine dropped 479 of the 520 rows it dropped from a round of 3,640 written rows in 26
  languages, a recipe as "close" to a harmful request as to another recipe).

Evaluation rows: every labelled file of tests/guardrails/data/ (dev set, hold-outs, probes), the
validation files thresholds are chosen on, HarmBench and both public `test` splits.

`--against training` does the reverse for a new evaluation file: it drops every row close to a
written row the models train or validate on (`training_texts`: the multilingual rail's rows,
train_multilingual.load_rows, and the authored harmful requests, benign requests and
look-alikes, validation requests and framed requests the MiniLM models and the judge read),
so that the file measures what the models were not shown.

    python -m guardrails.training.near_duplicates IN.jsonl OUT.jsonl [--jaccard J] [--cosine C]
        [--against evaluation|training]

IN and OUT are JSONL of `{text, ...}` rows; OUT keeps IN's order and fields, and the dropped
rows are listed on stderr with the evaluation row they are close to.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.errors import DatasetError
from guardrails.jsonl import jsonl_objects, write_jsonl
from guardrails.text import latin_share

# Both texts at least this Latin for the cosine to count (as the judge's gate).
MIN_LATIN_SHARE = 0.8

TESTS_DATA = Path(__file__).resolve().parents[2] / "tests" / "guardrails" / "data"


def trigrams(text: str) -> frozenset[str]:
    t = " ".join(text.lower().split())
    return frozenset(t[i : i + 3] for i in range(max(len(t) - 2, 1)))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


@dataclass(frozen=True, slots=True)
class Near:
    """Why candidate `index` was dropped: the evaluation text it is close to, and how close."""

    index: int
    other: str
    measure: str  # "jaccard" or "cosine"
    value: float


def near_rows(
    candidates: Sequence[str],
    evaluation: Sequence[str],
    embed: Callable[[list[str]], np.ndarray] | None,
    max_jaccard: float,
    max_cosine: float,
) -> list[Near]:
    """The candidates within `max_jaccard` (trigrams) or `max_cosine` (`embed`, unit vectors;
    None skips it; only between two mostly Latin texts) of some evaluation text, one entry each,
    in the candidates' order."""
    grams = [trigrams(t) for t in evaluation]
    found: dict[int, Near] = {}
    for i, text in enumerate(candidates):
        mine = trigrams(text)
        value, best = max(((jaccard(mine, g), j) for j, g in enumerate(grams)), default=(0.0, 0))
        if grams and value >= max_jaccard:
            found[i] = Near(i, evaluation[best], "jaccard", value)
    if embed is not None and evaluation:
        sims = embed(list(candidates)) @ embed(list(evaluation)).T  # (n_candidates, n_eval)
        latin_c = np.array([latin_share(t) >= MIN_LATIN_SHARE for t in candidates])
        latin_e = np.array([latin_share(t) >= MIN_LATIN_SHARE for t in evaluation])
        sims = np.where(latin_c[:, None] & latin_e[None, :], sims, -1.0)
        for i in np.flatnonzero(sims.max(axis=1) >= max_cosine):
            j = int(sims[i].argmax())
            found.setdefault(int(i), Near(int(i), evaluation[j], "cosine", float(sims[i, j])))
    return [found[i] for i in sorted(found)]


def evaluation_texts() -> list[str]:
    """Every text we evaluate or choose thresholds on (see the module docstring). HarmBench and
    the `test` splits need the training-time packages (harmful_data.py, public_data.py)."""
    from guardrails.training.harmful_data import VALIDATION, load_harmbench
    from guardrails.training.public_data import load_split

    files = [*sorted(TESTS_DATA.glob("*.jsonl")), *VALIDATION]
    texts = [row["text"] for path in files for _, row in jsonl_objects(path) if "text" in row]
    texts += [r.text for r in load_harmbench()] + [r.text for r in load_split("test")]
    return texts


def training_texts() -> list[str]:
    """Every written row the models train or validate on (both shares), for a new evaluation
    file to keep its distance from."""
    from guardrails.training.framing import framed_splits
    from guardrails.training.harmful_data import (
        load_authored_harmful,
        load_validation_requests,
        text_file_rows,
    )
    from guardrails.training.train_harmful_head import AUTHORED_BENIGN
    from guardrails.training.train_multilingual import load_rows

    train, validation = load_rows(seed=0, share=0.2)
    framed_train, framed_validation = framed_splits(seed=0, share=0.2)
    rows = [
        *train,
        *validation,
        *load_authored_harmful(),
        *text_file_rows(AUTHORED_BENIGN, 0),
        *load_validation_requests(),
        *framed_train,
        *framed_validation,
    ]
    return list(dict.fromkeys(r.text for r in rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--jaccard", type=float, default=0.5)
    parser.add_argument("--cosine", type=float, default=0.85)
    parser.add_argument(
        "--against",
        choices=("evaluation", "training"),
        default="evaluation",
        help="keep IN apart from the evaluation rows (training data) or the training rows "
        "(a new evaluation file)",
    )
    args = parser.parse_args(argv)
    try:
        rows = [row for _, row in jsonl_objects(args.input)]
        texts = [row["text"] for row in rows]
    except DatasetError as exc:
        parser.error(str(exc))
    except KeyError:
        parser.error(f"{args.input}: every row needs a 'text'")
    from retrieval.embedder import Embedder

    embedder = Embedder.load()
    others = evaluation_texts() if args.against == "evaluation" else training_texts()
    near = near_rows(texts, others, lambda t: embedder.embed(t), args.jaccard, args.cosine)
    for n in near:
        print(f"drop ({n.measure} {n.value:.2f}): {texts[n.index][:90]!r} ~ {n.other[:90]!r}",
              file=sys.stderr)  # fmt: skip
    dropped = {n.index for n in near}
    write_jsonl(args.output, [row for i, row in enumerate(rows) if i not in dropped])
    print(f"{args.output}: kept {len(rows) - len(dropped)} of {len(rows)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
