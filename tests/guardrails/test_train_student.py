"""The student trainer's cache of teacher targets: a rerun with added rows runs the teacher on
the new texts only, and returns exactly what a fresh pass would."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("torch")

from guardrails.training.train_student import cached_targets, teacher_targets  # noqa: E402
from guardrails.training.train_tuned_classifier import Row  # noqa: E402


class FakeTeacher:
    """embed() maps each text to a fixed unit vector from its length; counts the texts read."""

    def __init__(self) -> None:
        self.heads = [
            SimpleNamespace(weight=np.array([1.0, 0.0, 0.0], np.float32), bias=0.5),
            SimpleNamespace(weight=np.array([0.0, 2.0, 0.0], np.float32), bias=-1.0),
        ]
        self.read: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.read += texts
        v = np.array([[len(t), 1.0, 2.0] for t in texts], np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def rows(*texts: str) -> list[Row]:
    return [Row(t, [0, -1], [1.0, 0.0], False) for t in texts]


def test_added_rows_cost_only_their_own_pass(tmp_path: Path) -> None:
    teacher_file = tmp_path / "teacher.npz"
    teacher_file.write_bytes(b"weights")
    cache = tmp_path / "cache"
    teacher = FakeTeacher()
    first = cached_targets(teacher, teacher_file, rows("a", "bb", "bb"), cache, 128)
    assert sorted(teacher.read) == ["a", "bb"] and sorted(first) == ["a", "bb"]

    teacher.read.clear()
    both = cached_targets(teacher, teacher_file, rows("bb", "ccc", "a"), cache, 128)
    assert teacher.read == ["ccc"]  # only the new text went through the teacher
    fresh = teacher_targets(FakeTeacher(), rows("a", "bb", "ccc"))
    assert sorted(both) == ["a", "bb", "ccc"]
    for text, (vec, logits) in fresh.items():
        np.testing.assert_allclose(both[text][0], vec, rtol=1e-6)
        np.testing.assert_allclose(both[text][1], logits, rtol=1e-6)

    teacher.read.clear()
    again = cached_targets(teacher, teacher_file, rows("a"), cache, 128)
    assert teacher.read == [] and list(again) == ["a"]  # a subset is read, not recomputed
    assert [p.suffix for p in cache.iterdir()] == [".npz"]  # one file, no .part left over

    teacher_file.write_bytes(b"other weights")  # another teacher: nothing reused
    cached_targets(teacher, teacher_file, rows("a"), cache, 128)
    assert teacher.read == ["a"]
