"""The validation rows' score memo (training/validation_scores.py): a second pass over the same
model scores only rows it has not seen, rewriting thresholds keeps the memo, and new weights
start a new one."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from guardrails.models.tuned_minilm import DEFAULT_ADAPTER, Adapter
from guardrails.training import validation_scores
from guardrails.training.validation_scores import ValidationRow, fingerprint, scores


@pytest.fixture
def adapter(tmp_path: Path) -> Path:
    path = tmp_path / "adapter.npz"
    shutil.copy(DEFAULT_ADAPTER, path)
    return path


def _rethreshold(path: Path, thresholds: tuple[float, float]) -> None:
    a = Adapter.load(path)
    heads = tuple(
        dataclasses.replace(h, threshold=t) for h, t in zip(a.heads, thresholds, strict=True)
    )
    dataclasses.replace(a, heads=heads, card=a.card | {"note": "rewritten"}).save(path)


def test_the_fingerprint_follows_the_weights_not_the_thresholds(adapter: Path) -> None:
    before = fingerprint(adapter, None)
    _rethreshold(adapter, (0.1, 0.2))
    assert fingerprint(adapter, None) == before
    a = Adapter.load(adapter)
    name = sorted(a.lora)[0]
    lora = dict(a.lora) | {name: a.lora[name] + np.float32(1e-3)}
    dataclasses.replace(a, lora=lora).save(adapter)
    assert fingerprint(adapter, None) != before


def test_a_second_pass_scores_only_new_rows(
    adapter: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scored: list[str] = []

    def fake_rail_scores(rows: list[ValidationRow], path: Path):  # type: ignore[no-untyped-def]
        scored.extend(r.text for r in rows)
        n = np.array([len(r.text) for r in rows], dtype=float)
        return n / 100, n / 1000, n > 10

    monkeypatch.setattr(validation_scores, "rail_scores", fake_rail_scores)
    rows = [ValidationRow(t, 0, "g") for t in ("short", "a longer message", "mid one")]
    cache = tmp_path / "cache"
    cache.mkdir()
    first = scores(rows[:2], adapter, None, cache)
    assert scored == ["short", "a longer message"]
    assert first.judge is None
    again = scores(rows, adapter, None, cache)
    assert scored == ["short", "a longer message", "mid one"]
    assert np.allclose(again.injection, [0.05, 0.16, 0.07])
    assert np.allclose(again.harmful, [0.005, 0.016, 0.007])
    assert again.other.tolist() == [False, True, False]
    _rethreshold(adapter, (0.3, 0.4))  # the thresholds do not change a score
    scores(rows, adapter, None, cache)
    assert len(scored) == 3
    scores(rows, adapter, None, None)  # without a cache every row is scored
    assert len(scored) == 6
    assert [p.name.startswith("scores-") for p in cache.iterdir()] == [True]
