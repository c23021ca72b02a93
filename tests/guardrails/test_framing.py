"""framing.py: items rendered in framings shared by both labels, split per item."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from guardrails.training import framing
from guardrails.training.framing import (
    CLAIM_FRAMINGS,
    PER_ITEM,
    TASK_FRAMINGS,
    framed_splits,
    load_items,
    render,
)


def test_every_framing_takes_one_item() -> None:
    for f in CLAIM_FRAMINGS + TASK_FRAMINGS:
        assert f.count("{}") == 1, f
    assert len(set(CLAIM_FRAMINGS)) == len(CLAIM_FRAMINGS)
    assert len(set(TASK_FRAMINGS)) == len(TASK_FRAMINGS)


def test_render_is_deterministic_and_distinct() -> None:
    claim = "the harbour bridge was finished ahead of schedule"
    a, b = render(claim, "claim"), render(claim, "claim")
    assert a == b and len(set(a)) == PER_ITEM
    assert all(claim in t for t in a)
    assert {t.replace(claim, "{}") for t in a} <= set(CLAIM_FRAMINGS)
    task = "repaint a bicycle frame"
    assert {t.replace(task, "{}") for t in render(task, "task")} <= set(TASK_FRAMINGS)
    assert render(claim, "claim", seed=1) != a or render(task, "task", seed=1) != render(
        task, "task"
    )


def test_the_items_are_balanced_between_labels_and_kinds() -> None:
    items = load_items()
    counts = Counter((r["kind"], r["label"]) for r in items)
    assert set(counts) == {("claim", 0), ("claim", 1), ("task", 0), ("task", 1)}
    for kind in ("claim", "task"):
        assert abs(counts[(kind, 0)] - counts[(kind, 1)]) <= 10, counts
    assert len({r["item"] for r in items}) == len(items)


def test_both_labels_draw_on_the_same_framings() -> None:
    """No framing is a cue: each is used for harmful and benign renderings alike, and no
    framing's share of one label is more than twice its share of the other."""
    rows = [json.loads(line) for line in framing.REQUESTS.read_text().splitlines() if line]
    pools = {"claim": CLAIM_FRAMINGS, "task": TASK_FRAMINGS}
    for kind, pool in pools.items():
        uses: dict[int, Counter] = {0: Counter(), 1: Counter()}
        for r in rows:
            if r["kind"] == kind:
                uses[r["label"]][r["text"].replace(r["item"], "{}")] += 1
        totals = {y: sum(uses[y].values()) for y in (0, 1)}
        for f in pool:
            share0, share1 = uses[0][f] / totals[0], uses[1][f] / totals[1]
            assert share0 > 0 and share1 > 0, f
            assert max(share0, share1) / min(share0, share1) < 2.0, (f, share0, share1)


def test_an_item_never_straddles_training_and_validation() -> None:
    train, val = framed_splits(seed=0, share=0.2)
    rows = [json.loads(line) for line in framing.REQUESTS.read_text().splitlines() if line]
    item_of = {r["text"]: r["item"] for r in rows}
    assert not {item_of[r.text] for r in train} & {item_of[r.text] for r in val}
    assert 0.1 < len(val) / (len(train) + len(val)) < 0.3
    assert {r.label for r in val} == {0, 1}


def test_framed_splits_reads_the_file_it_is_given(tmp_path: Path) -> None:
    path = tmp_path / "framed.jsonl"
    lines = [
        {"text": f"Explain how to {t}.", "label": y, "kind": "task", "item": t}
        for t, y in (("fold a paper crane", 0), ("pick a stranger's lock", 1))
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    train, val = framed_splits(seed=0, share=0.5, path=path)
    assert sorted(r.text for r in train + val) == sorted(r["text"] for r in lines)
    assert all(r.source == "framed" and r.category == "task" for r in train + val)
