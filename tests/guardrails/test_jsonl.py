"""guardrails/jsonl.py: the JSONL files the evaluation and training commands read and write."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardrails.jsonl import jsonl_objects, write_jsonl


def test_written_rows_read_back_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    rows = [{"text": "Привет, мир", "label": 0}, {"text": 'say "hi"', "label": 1}]
    write_jsonl(out, rows)
    assert [row for _, row in jsonl_objects(out)] == rows
    assert "Привет" in out.read_text(encoding="utf-8")  # kept as UTF-8, not escaped
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]


def test_a_failed_write_keeps_the_old_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    write_jsonl(out, [{"text": "old", "label": 0}])
    with pytest.raises(TypeError):  # the second row is not JSON-serialisable
        write_jsonl(out, [{"text": "new", "label": 0}, {"text": object(), "label": 1}])
    assert [row for _, row in jsonl_objects(out)] == [{"text": "old", "label": 0}]
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]
