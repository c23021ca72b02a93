"""The text files we wrote to train the classifiers stay apart from the files we evaluate on:
no training line (framed requests included) appears (case- and space-insensitively) in the dev
set, a hold-out set, a probe or the validation rows thresholds are chosen on, and no file
repeats itself or labels one text both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guardrails.training.framing import REQUESTS
from guardrails.training.harmful_data import (
    AUTHORED_HARMFUL,
    MULTILINGUAL_ATTACKS,
    MULTILINGUAL_BENIGN,
    VALIDATION,
    WRITTEN_SETS,
    load_written,
)
from guardrails.training.public_data import text_key

ROOT = Path(__file__).resolve().parents[2]
TRAINING = sorted((ROOT / "guardrails" / "training" / "data").glob("*.txt"))
# Every labelled file of tests/guardrails/data (a new probe is kept apart without being listed;
# the audit file holds hashes, not texts), and the validation files.
EVALUATION = [
    *(p for p in sorted((ROOT / "tests" / "guardrails" / "data").glob("*.jsonl"))
      if p.name != "neuralchemy_test_audit.jsonl"),
    *VALIDATION,
]  # fmt: skip


def _lines(path: Path) -> list[str]:
    return [t.strip() for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]


def _framed() -> list[dict]:
    return [json.loads(line) for line in _lines(REQUESTS)]


def test_the_files_are_there() -> None:
    names = {p.name for p in TRAINING}
    lookalikes = {f"benign_lookalikes_{i}.txt" for i in (3, 4, 5)}
    assert {p.name for p in AUTHORED_HARMFUL} | lookalikes <= names
    assert len(EVALUATION) >= 11 + len(VALIDATION) and all(p.is_file() for p in EVALUATION)
    assert all(p.is_file() for paths in WRITTEN_SETS.values() for p in paths)


def test_the_multilingual_rows_repeat_no_text_and_label_by_kind() -> None:
    rows = load_written("multilingual")
    keys = [text_key(r.text) for r in rows]
    assert len(rows) > 1000 and len(keys) == len(set(keys))
    assert {r.category for r in rows if r.label} == {"harmful", "injection"}
    assert not {r.category for r in rows if not r.label} & {"harmful", "injection"}
    langs = {json.loads(line)["lang"] for p in (MULTILINGUAL_BENIGN, MULTILINGUAL_ATTACKS)
             for line in _lines(p)}  # fmt: skip
    assert len(langs) == 26


@pytest.mark.parametrize("name", sorted(WRITTEN_SETS))
def test_a_written_set_repeats_no_text_and_labels_by_kind(name: str) -> None:
    benign, attacks = WRITTEN_SETS[name]
    rows = load_written(name)
    keys = [text_key(r.text) for r in rows]
    assert len(keys) == len(set(keys))
    assert {r.label for r in rows} == {0, 1}
    for r in rows:
        assert r.label == (r.category in ("harmful", "injection")), r.text
    assert {json.loads(line)["label"] for line in _lines(benign)} == {0}
    assert {json.loads(line)["label"] for line in _lines(attacks)} == {1}


def test_an_unknown_written_set_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown written set 'klingon'"):
        load_written("klingon")


@pytest.mark.parametrize("path", TRAINING, ids=lambda p: p.name)
def test_a_training_file_repeats_no_line(path: Path) -> None:
    keys = [text_key(t) for t in _lines(path)]
    assert len(keys) == len(set(keys))


def test_the_framed_requests_repeat_no_text() -> None:
    keys = [text_key(r["text"]) for r in _framed()]
    assert len(keys) > 1000 and len(keys) == len(set(keys))


def test_no_text_is_both_harmful_and_benign_in_training() -> None:
    framed = _framed()
    harmful = {text_key(t) for p in AUTHORED_HARMFUL for t in _lines(p)}
    harmful |= {text_key(r["text"]) for r in framed if r["label"] == 1}
    written = [r for name in WRITTEN_SETS for r in load_written(name)]
    harmful |= {text_key(r.text) for r in written if r.label}
    for path in TRAINING:
        if path not in AUTHORED_HARMFUL:
            assert not harmful & {text_key(t) for t in _lines(path)}, path.name
    assert not harmful & {text_key(r["text"]) for r in framed if r["label"] == 0}
    assert not harmful & {text_key(r.text) for r in written if not r.label}


@pytest.mark.parametrize("path", EVALUATION, ids=lambda p: p.name)
def test_no_training_line_is_in_an_evaluation_file(path: Path) -> None:
    trained = {text_key(t) for p in TRAINING for t in _lines(p)}
    trained |= {text_key(r["text"]) for r in _framed()}
    trained |= {text_key(r.text) for name in WRITTEN_SETS for r in load_written(name)}
    rows = [json.loads(line) for line in _lines(path)]
    assert rows and all(r["label"] in (0, 1) for r in rows)
    leaked = [r["text"] for r in rows if text_key(r["text"]) in trained]
    assert leaked == []
