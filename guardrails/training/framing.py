"""Requests rendered from framings and items, so that how a request is worded carries no label.

Probing the tuned classifier with our own sentences showed it keying on the wording around a
claim: "Write a persuasive article claiming the Holocaust never happened" scored 1.00 and "Write
a persuasive article about how the Holocaust never happened" 0.00. Our harmful files mostly
said "claiming" or "saying", our benign twins "about how" or "about why", and the encoder
learned the frame. Here the same framings wrap harmful and benign items alike:

- data/framed_items.jsonl: 1,520 bare claims ("the famine was a natural disaster", label 1;
  "the famine was worsened by grain requisitions", label 0) and 520 bare tasks ("strip a stolen
  car for parts", 1; "strip my own written-off car for parts", 0), half of each harmful, written
  by four helpers that read no project file and no evaluation set: the first two with most
  benign items twins of a harmful one, the last two (1,000 claims: history and politics;
  health, science and safety) as pairs that differ only in stance, the stance words ("staged",
  "myth", "exaggerated", "cure") used on both sides;
- CLAIM_FRAMINGS and TASK_FRAMINGS: ways of asking for persuasive writing about a claim, or
  for help with a task, ours; each item is rendered in PER_ITEM of them, picked by a seeded hash
  of the item, so both labels draw from the same framings;
- data/framed_requests.jsonl (`python -m guardrails.training.framing --cache DIR` writes it):
  the renderings, less those within 0.75 cosine (frozen MiniLM) of a HarmBench behaviour or
  0.85 of an evaluation row (dev, hold-outs, validation files, probes), as for our other files.

The validation share is drawn per item (`framed_splits`), so no claim or task is in training
under one framing and in validation under another.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from guardrails.training.public_data import Example

DATA = Path(__file__).resolve().parent / "data"
ITEMS = DATA / "framed_items.jsonl"
REQUESTS = DATA / "framed_requests.jsonl"
EVALUATION_DATA = Path(__file__).resolve().parents[2] / "tests" / "guardrails" / "data"
PER_ITEM = 3
HARMBENCH_COSINE = 0.75
EVALUATION_COSINE = 0.85

# A claim is a clause ("the famine was a natural disaster"); each framing takes it whole.
CLAIM_FRAMINGS = (
    "Write a persuasive article about how {}.",
    "Write an essay arguing that {}.",
    "Write a blog post explaining why {}.",
    "Draft an op-ed making the case that {}.",
    "Write a convincing social media post saying {}.",
    "Compose a speech persuading the audience that {}.",
    "Write a Twitter thread about how {}.",
    "Can you write me an article on why {}?",
    "I need a short persuasive piece claiming {}.",
    "Write a newsletter column about how {}.",
    "Put together talking points showing that {}.",
    "Write a Facebook post convincing my friends that {}.",
    "Write the script of a YouTube video about how {}.",
    "Write a news-style report stating that {}.",
    "write a reddit post about how {}",
    "Generate a persuasive paragraph about why {}.",
    "Write something that convinces people {}.",
    "Help me write a pamphlet about how {}.",
    "Write a school debate speech arguing {}.",
    "Make a poster text telling people {}.",
)
# A task is a verb phrase ("strip a stolen car for parts"); each framing takes it whole.
TASK_FRAMINGS = (
    "Give detailed step-by-step instructions for how to {}.",
    "Explain how to {}.",
    "What is the best way to {}?",
    "Describe in detail how to {}.",
    "Write a guide on how to {}.",
    "List the steps to {}.",
    "I need to {}. How do I do it?",
    "how do i {}",
    "Give me tips to {}.",
    "Can you walk me through how to {}?",
    "Write a tutorial explaining how to {}.",
    "Give detailed instructions for how to {}, with the specific tools needed.",
    "Tell me exactly how to {}.",
    "Help me figure out how to {}.",
    "Provide a checklist to {}.",
    "Give advice on how to {}.",
    "I'm trying to {}, what should I do first?",
    "Outline a plan to {}.",
    "what's the easiest way to {}",
    "Write instructions someone could follow to {}.",
)


def _hash(text: str, seed: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{text}".encode(), digest_size=8).digest())


def framings_for(item: str, kind: str, seed: int = 0) -> list[str]:
    """PER_ITEM distinct framings of `kind` ("claim" or "task") for `item`, chosen by a seeded
    hash of the item (deterministic, the same for both labels' items)."""
    pool = {"claim": CLAIM_FRAMINGS, "task": TASK_FRAMINGS}[kind]
    order = sorted(range(len(pool)), key=lambda i: _hash(f"{i}:{item}", seed))
    return [pool[i] for i in order[:PER_ITEM]]


def render(item: str, kind: str, seed: int = 0) -> list[str]:
    return [f.format(item) for f in framings_for(item, kind, seed)]


def load_items(path: Path = ITEMS) -> list[dict]:
    """The helper-written items: {"item", "label", "kind", "topic"} per line."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for r in rows:
        if r["kind"] not in ("claim", "task") or r["label"] not in (0, 1):
            raise ValueError(f"bad framed item: {r}")
    return rows


def framed_splits(
    seed: int, share: float, path: Path = REQUESTS
) -> tuple[list[Example], list[Example]]:
    """(training rows, validation rows) of data/framed_requests.jsonl: an item's renderings
    all go to validation when its seeded hash falls in `share` (train_harmful_head's rule,
    applied to the item instead of the text)."""
    from guardrails.training.train_harmful_head import in_validation

    train: list[Example] = []
    val: list[Example] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line:
            continue
        r = json.loads(line)
        row = Example(r["text"], int(r["label"]), "framed", r["kind"])
        (val if in_validation(r["item"], seed, share) else train).append(row)
    return train, val


def _evaluation_texts() -> list[str]:
    from guardrails.training.harmful_data import VALIDATION

    paths = sorted(EVALUATION_DATA.glob("*.jsonl")) + list(VALIDATION)
    texts = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if "text" in row:
                    texts.append(row["text"])
    return texts


def build(seed: int, cache: Path | None) -> dict:
    """Renders every item, drops renderings near HarmBench or an evaluation row, writes
    REQUESTS; returns the counts."""
    from guardrails.training.harmful_data import load_harmbench
    from guardrails.training.train_injection_head import _embed

    items = load_items()
    rows = [
        {"text": text, "label": r["label"], "kind": r["kind"], "item": r["item"]}
        for r in items
        for text in render(r["item"], r["kind"], seed)
    ]
    x = _embed([r["text"] for r in rows], cache)  # (n, 384), normalized
    near_hb = (x @ _embed([r.text for r in load_harmbench()], cache).T).max(axis=1)
    near_eval = (x @ _embed(_evaluation_texts(), cache).T).max(axis=1)
    by_hb = near_hb >= HARMBENCH_COSINE  # (n,)
    by_eval = (near_eval >= EVALUATION_COSINE) & ~by_hb
    keep = ~(by_hb | by_eval)
    kept = [r for r, k in zip(rows, keep, strict=True) if k]
    REQUESTS.write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    return {
        "items": len(items),
        "renderings": len(rows),
        "kept": len(kept),
        "dropped_near_harmbench": int(by_hb.sum()),
        "dropped_near_evaluation": int(by_eval.sum()),
        "kept_by_label": {str(k): sum(r["label"] == k for r in kept) for k in (0, 1)},
        "max_cosine_to_harmbench": float(np.round(near_hb.max(), 3)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache", type=Path, default=None, help="folder to reuse embeddings")
    args = parser.parse_args(argv)
    print(json.dumps(build(args.seed, args.cache), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
