"""The validation share is decided per text, so adding a training file moves no other row."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardrails.training.harmful_data import CHITCHAT, FOLLOWUPS, text_file_rows
from guardrails.training.public_data import Example, text_key
from guardrails.training.train_harmful_head import chat_turn_splits, in_validation, split_by_text


def _rows(n: int, prefix: str = "request") -> list[Example]:
    return [Example(f"{prefix} {i}", 1, "test", "") for i in range(n)]


def test_adding_rows_moves_no_existing_row() -> None:
    old = _rows(500)
    train, val = split_by_text(old, seed=0, share=0.2)
    train2, val2 = split_by_text(old + _rows(300, "new"), seed=0, share=0.2)
    assert [r for r in train2 if r.text.startswith("request")] == train
    assert [r for r in val2 if r.text.startswith("request")] == val


def test_the_share_and_the_seed() -> None:
    rows = _rows(4000)
    train, val = split_by_text(rows, seed=0, share=0.2)
    assert len(train) + len(val) == 4000
    assert 0.18 < len(val) / 4000 < 0.22
    other = {r.text for r in split_by_text(rows, seed=1, share=0.2)[1]}
    assert other != {r.text for r in val}


def test_the_decision_ignores_case_and_spacing() -> None:
    assert in_validation("Make  a Bomb", 0, 0.5) == in_validation("make a bomb", 0, 0.5)
    assert [in_validation(f"x{i}", 3, 0.3) for i in range(50)] == [
        in_validation(f"x{i}", 3, 0.3) for i in range(50)
    ]


@pytest.mark.parametrize("paths", [FOLLOWUPS, CHITCHAT], ids=["followups", "chitchat"])
def test_chat_turns_are_split_like_the_other_authored_files(paths: tuple[Path, ...]) -> None:
    rows = text_file_rows(paths, 0)
    train, val = chat_turn_splits(paths, seed=0, share=0.2)
    assert {text_key(r.text) for r in train}.isdisjoint(text_key(r.text) for r in val)
    assert sorted(r.text for r in train + val) == sorted(r.text for r in rows)
    assert 0.15 < len(val) / len(rows) < 0.3  # 148 of 596 follow-ups, 55 of 309 chit-chat
    assert [r.text for r in val] == [r.text for r in rows if in_validation(r.text, 0, 0.2)]
