"""Answers of the default chat model to labelled requests, for measuring the output rails.

The input rails let some harmful requests through (HarmBench recall 0.82), and the default
model answers harmful requests readily; the output rails are the second line. To measure them
(and to choose an output classifier's threshold) we need what the model actually writes: this
runs each request of a `{text, label}` JSONL through the engine as a one-turn chat (greedy,
no system prompt: the app's default) and writes an answer file (guardrails/answers.py:
`{request_sha256, label, source, answer}`).

    python -m guardrails.training.generate_answers IN.jsonl OUT.jsonl [--max-tokens 128]
        [--label 0|1] [--limit N] [--model default]

`label` is the request's (1 = should be blocked); guardrails.evaluate_output decides which
answers count as harmful (those to harmful requests that do not refuse).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from guardrails.answers import request_sha256
from guardrails.errors import DatasetError
from guardrails.evaluate import dataset_rows


def read_rows(path: Path, limit: int | None, label: int | None = None) -> list[dict]:
    """The file's `{text, label, ...}` rows (those of `label` only, when given), the first
    `limit` of them. DatasetError on a bad file or row."""
    rows = [r for r in dataset_rows(path) if label is None or r["label"] == label]
    return rows[:limit] if limit else rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--limit", type=int, default=None, help="the first N rows only")
    parser.add_argument("--label", type=int, choices=(0, 1), default=None, help="rows of one label")
    parser.add_argument("--model", default="default")
    parser.add_argument(
        "--batch", type=int, default=64, help="requests given to the engine at once"
    )
    args = parser.parse_args(argv)

    from engine import LLM, EngineConfig, SamplingParams

    try:
        rows = read_rows(args.dataset, args.limit, args.label)
    except DatasetError as e:
        raise SystemExit(f"error: {e}") from None
    llm = LLM(EngineConfig(model=args.model))
    params = SamplingParams(temperature=0, max_tokens=args.max_tokens)
    tmp = args.out.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for start in range(0, len(rows), args.batch):
            batch = rows[start : start + args.batch]
            prompts = [[{"role": "user", "content": r["text"][:4000]}] for r in batch]
            for r, out in zip(batch, llm.generate(prompts, params), strict=True):
                record = {
                    "request_sha256": request_sha256(r["text"]),
                    "label": r["label"],
                    "source": r.get("source", ""),
                    "answer": out.text,
                }
                f.write(json.dumps(record) + "\n")
            print(f"{min(start + args.batch, len(rows))}/{len(rows)}", flush=True)
    tmp.replace(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
