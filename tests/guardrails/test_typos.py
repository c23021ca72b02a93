"""Typing slips for training copies and for the slipped evaluation files (training/typos.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from guardrails.training.typos import main, slip, with_slips


def test_a_slip_swaps_drops_or_doubles_one_inner_letter() -> None:
    rng = random.Random(0)
    seen = {slip("bread", rng) for _ in range(200)}
    # the first letter stays; every result is one of the three slips at an inner position
    swaps = {"bread"[:i] + "bread"[i + 1] + "bread"[i] + "bread"[i + 2 :] for i in (1, 2, 3)}
    drops = {"bread"[:i] + "bread"[i + 1 :] for i in (1, 2, 3)}
    doubles = {"bread"[:i] + "bread"[i] + "bread"[i:] for i in (1, 2, 3)}
    assert seen <= swaps | drops | doubles
    assert seen & swaps and seen & drops and seen & doubles
    assert slip("ok", rng) == "ok"


def test_with_slips_keeps_short_words_punctuation_and_spaces() -> None:
    text = "How do I  bake sourdough bread, step by step?"
    slipped = with_slips(text, random.Random(3), 1.0)
    words, new = text.split(" "), slipped.split(" ")
    assert len(new) == len(words)
    for old, now in zip(words, new, strict=True):
        if len(old) >= 4 and old.isalpha():
            assert now != old and now[0] == old[0]  # "bake", "sourdough", the first "step"
        else:
            assert now == old  # "How", "", "bread,", "by", "step?"
    assert with_slips(text, random.Random(3), 0.0) == text
    assert with_slips(text, random.Random(5), 0.5) == with_slips(text, random.Random(5), 0.5)


def test_the_command_writes_a_slipped_copy_and_refuses_a_bad_file(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.jsonl"
    rows = [{"text": "Пожалуйста объясните рекурсию подробно", "label": 0, "kind": "x"}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main([str(src), str(out), "--rate", "1.0"]) == 0
    [row] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert (row["label"], row["kind"]) == (0, "x")
    assert row["text"] != rows[0]["text"] and len(row["text"].split()) == 4
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "hi", "label": 3}\n', encoding="utf-8")
    assert main([str(bad), str(tmp_path / "o.jsonl")]) == 2
    assert "label must be 0 or 1" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_the_command_refuses_an_output_it_cannot_write(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"text": "hello there", "label": 0}\n', encoding="utf-8")
    out = tmp_path / "missing" / "out.jsonl"  # its folder does not exist
    assert main([str(src), str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not out.parent.exists()
