"""What the harmful-request rules in 26 languages (rails/harmful_rules_ml.py) add to the English
rules, on our written training files: the rail with every language's rules against the same rail
with none (`HarmfulContentRail(languages=())`).

- the multilingual files' harmful requests (kind "harmful") and injections: how many each rail
  blocks and how many only the full one does;
- their benign rows, and the benign rows of our English files: how many the full rail blocks
  that the English rules alone do not (a false positive the 26 languages' rules add);
- the same for the rounds written after the rules (`later_*`), which their terms were not
  written or checked against: a fresh measure.

    python -m guardrails.training.rules_gain [--json]

Deterministic, no model: ~10 s on one core.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from guardrails.base import Action
from guardrails.rails.harmful import HarmfulContentRail
from guardrails.training.harmful_data import (
    DATA,
    MULTILINGUAL_ATTACKS,
    MULTILINGUAL_BENIGN,
    MULTILINGUAL_ROUNDS,
    ROUNDS_AFTER_THE_RULES,
    WRITTEN_SETS,
    jsonl_rows,
    load_validation_requests,
    load_written,
    text_file_rows,
)
from guardrails.training.public_data import Example

# source -> (benign, attacks): the rounds the rules' terms were written and checked against,
# and those written after them, which the terms never saw.
BEFORE = {"multilingual": (MULTILINGUAL_BENIGN, MULTILINGUAL_ATTACKS)} | {
    k: v for k, v in MULTILINGUAL_ROUNDS.items() if k not in ROUNDS_AFTER_THE_RULES
}
LATER = {k: MULTILINGUAL_ROUNDS[k] for k in ROUNDS_AFTER_THE_RULES}


@dataclass(frozen=True)
class Count:
    rows: int
    blocked_all: int  # by the rail with every language's rules
    blocked_english: int  # by the English rules alone
    only_all: int  # blocked with every language's rules and not by the English ones alone


def count(rows: list[Example], full: HarmfulContentRail, english: HarmfulContentRail) -> Count:
    a = [full.check(r.text).action == Action.BLOCK for r in rows]
    e = [english.check(r.text).action == Action.BLOCK for r in rows]
    return Count(len(rows), sum(a), sum(e), sum(x and not y for x, y in zip(a, e, strict=True)))


def multilingual_rows(rounds: dict[str, tuple[Path, Path]]) -> list[Example]:
    return [
        r for source, paths in rounds.items() for p in paths for r in jsonl_rows(p, source, "kind")
    ]


def english_benign_rows() -> list[Example]:
    """The benign rows of our mostly English written files: requests, look-alikes, follow-ups
    and social turns (benign_*.txt), the validation requests' benign side, and the benign side
    of the pasted, continuation and over-blocking sets."""
    rows = text_file_rows(tuple(sorted(DATA.glob("benign_*.txt"))), 0)
    rows += [r for r in load_validation_requests() if r.label == 0]
    for name in sorted(WRITTEN_SETS):
        if name != "multilingual":
            rows += [r for r in load_written(name) if r.label == 0]
    return rows


def gain(
    full: HarmfulContentRail | None = None, english: HarmfulContentRail | None = None
) -> dict[str, dict[str, int]]:
    full = full or HarmfulContentRail()
    english = english or HarmfulContentRail(languages=())
    result = {}
    for prefix, rounds in (("multilingual", BEFORE), ("later", LATER)):
        ml = multilingual_rows(rounds)
        for kind, rows in (
            ("harmful", [r for r in ml if r.category == "harmful"]),
            ("injection", [r for r in ml if r.category == "injection"]),
            ("benign", [r for r in ml if r.label == 0]),
        ):
            if rows:
                result[f"{prefix}_{kind}"] = asdict(count(rows, full, english))
    result["english_benign"] = asdict(count(english_benign_rows(), full, english))
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    result = gain()
    if args.json:
        print(json.dumps(result))
        return 0
    for name, c in result.items():
        print(
            f"{name}: {c['rows']} rows, blocked {c['blocked_all']} with every language's rules, "
            f"{c['blocked_english']} with the English rules alone, {c['only_all']} only with all"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
