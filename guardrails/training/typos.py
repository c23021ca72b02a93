"""Typing slips, for training copies of our written rows.

Our written requests are spelt well; people typing to a chat box are not. A classifier that
only ever saw slips in attacks (the public splits' obfuscated ones, our "short and casual"
harmful rows) learns that a slip is a cue: hold-out v3 with a slip in a tenth of its words had
2.5 times the false positives. `with_slips` makes the slips people make (two letters swapped, one
dropped, one doubled) so that the trainer can add a slipped copy of some rows of both labels.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def slip(word: str, rng: random.Random) -> str:
    """`word` with one typing slip inside it (its first letter kept): two neighbouring
    letters swapped, one dropped or one doubled."""
    if len(word) < 3:
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == 1:
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]


def with_slips(text: str, rng: random.Random, rate: float) -> str:
    """`text` with each alphabetic word of four or more letters slipped with probability
    `rate`; spaces, punctuation-bearing words and short words are kept as they are."""
    words = text.split(" ")
    return " ".join(
        slip(w, rng) if len(w) >= 4 and w.isalpha() and rng.random() < rate else w for w in words
    )


def main(argv: list[str] | None = None) -> int:
    """python -m guardrails.training.typos IN.jsonl OUT.jsonl [--rate R] [--seed S]: a copy of
    an evaluation file with typing slips in its texts (labels and other fields kept), to
    measure the rails on text as people type it."""
    from guardrails.evaluate import rewrite_dataset

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--rate", type=float, default=0.1, help="share of words slipped")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0.0 <= args.rate <= 1.0:
        parser.error(f"--rate must be in [0, 1], got {args.rate}")
    rng = random.Random(args.seed)
    return rewrite_dataset(args.source, args.out, lambda t: with_slips(t, rng, args.rate))


if __name__ == "__main__":
    raise SystemExit(main())
