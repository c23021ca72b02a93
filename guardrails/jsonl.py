"""Reading the JSONL files the evaluation and training commands take: one object a line."""

from __future__ import annotations

import json
from pathlib import Path

from guardrails.errors import DatasetError


def jsonl_objects(path: Path, what: str = "dataset") -> list[tuple[int, dict]]:
    """(line number, object) for each non-blank line; DatasetError naming the file (and the
    line) when it cannot be read, a line is not JSON or not an object."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"cannot read {what} {str(path)!r}: {exc}") from exc
    rows: list[tuple[int, dict]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{number}: not JSON: {exc}") from exc
        if not isinstance(row, dict):
            raise DatasetError(f"{path}:{number}: want a JSON object, got {line[:80]!r}")
        rows.append((number, row))
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> None:
    """One JSON object a line, written to a temporary name beside `path` and then renamed, so
    that an interrupted write leaves no half-written file. OSError when it cannot be written."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
