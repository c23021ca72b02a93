"""The character n-gram model the multilingual rail reads with (models/char_ngram.py): its
features, its score (linear or through a hidden layer), and its file."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from guardrails.errors import ModelLoadError
from guardrails.models.char_ngram import MAX_CHARS, CharNgramModel, ngram_buckets, normalize
from guardrails.models.head import LogisticHead


def test_normalize_folds_case_width_and_latin_accents_but_keeps_other_marks() -> None:
    assert normalize("Ｗie  BAUE\u200bich\tdas?") == " wie baueich das? "
    assert normalize("Écris-moi ÇA, señor Łukasz") == " ecris-moi ca, senor łukasz "
    # Devanagari vowel signs are part of the word: "बताओ" keeps its ा and ो.
    assert normalize("बताओ") == " बताओ "
    long = "a" * MAX_CHARS + "b" * MAX_CHARS
    assert normalize(long) == f" {'a' * (MAX_CHARS // 2)} {'b' * (MAX_CHARS // 2)} "


def test_ngram_buckets_are_the_distinct_hashed_1_to_max_n_grams() -> None:
    grams = {" ", "a", "b", " a", "ab", "b ", " ab", "ab ", " ab "}
    expected = sorted({zlib.crc32(g.encode()) % 1024 for g in grams})
    assert ngram_buckets("AB", 1024).tolist() == expected  # MAX_N, 4
    assert ngram_buckets("AB", 1024, max_n=5).tolist() == expected  # " ab " is 4 long
    four = {" ", "a", "b", "c", " a", "ab", "bc", "c ", " ab", "abc", "bc ", " abc", "abc "}
    buckets = [
        sorted({zlib.crc32(g.encode()) % 1024 for g in grams}) for grams in (four, {" abc "} | four)
    ]
    assert ngram_buckets("abc", 1024).tolist() == buckets[0]
    assert ngram_buckets("abc", 1024, max_n=5).tolist() == buckets[1]
    assert ngram_buckets("ab", 1024).dtype == np.int64


def test_the_score_is_a_sigmoid_of_the_mean_weight_over_the_root_count(tmp_path: Path) -> None:
    ids = ngram_buckets("hi", 64)
    weights = np.zeros(64, dtype=np.float32)
    weights[ids] = 0.5
    head = LogisticHead(weights, bias=-1.0, threshold=0.5, card={"what": "test"})
    model = CharNgramModel(head, script_threshold=0.25, latin_threshold=0.35)
    logit = 0.5 * ids.size / np.sqrt(ids.size) - 1.0
    assert model.logit("hi") == pytest.approx(logit)
    assert model.score("hi") == pytest.approx(1 / (1 + np.exp(-logit)))
    model.save(tmp_path / "m.npz")
    loaded = CharNgramModel.load(tmp_path / "m.npz")
    assert loaded.buckets == 64 and loaded.threshold == 0.5 and loaded.card == {"what": "test"}
    assert (loaded.script_threshold, loaded.latin_threshold) == (0.25, 0.35)
    assert loaded.logit("hi") == pytest.approx(logit)


def test_a_hidden_layer_model_scores_relu_of_the_table_sum_and_round_trips(
    tmp_path: Path,
) -> None:
    ids = ngram_buckets("hi", 32)
    table = np.zeros((32, 2), dtype=np.float32)
    table[ids, 0] = 1.0  # unit 0 fires on "hi"'s n-grams
    table[ids, 1] = -1.0  # unit 1 goes below zero: relu keeps it out
    head = LogisticHead(np.array([2.0, 5.0], dtype=np.float32), -1.0, 0.5, {"what": "t"})
    model = CharNgramModel(head, 0.25, 0.35, table)
    logit = 2.0 * ids.size / np.sqrt(ids.size) - 1.0
    assert model.buckets == 32 and model.logit("hi") == pytest.approx(logit)
    model.save(tmp_path / "h.npz")
    loaded = CharNgramModel.load(tmp_path / "h.npz")
    assert loaded.hidden is not None and loaded.hidden.shape == (32, 2)
    assert np.array_equal(loaded.hidden, table) and loaded.max_n == 4
    assert loaded.logit("hi") == pytest.approx(logit)
    # Only the rows in use are stored, with their bucket numbers.
    with np.load(tmp_path / "h.npz") as data:
        assert data["hidden_rows"].tolist() == ids.tolist()
        assert data["hidden"].shape == (ids.size, 2) and int(data["buckets"]) == 32
    # The longest n-gram travels with the file.
    CharNgramModel(head, 0.25, 0.35, table, max_n=5).save(tmp_path / "five.npz")
    five = CharNgramModel.load(tmp_path / "five.npz")
    assert five.max_n == 5 and five.logit("hi") == model.logit("hi")  # "hi" has no 5-gram
    # A table that does not fit the head is a clear error, not a wrong score.
    CharNgramModel(head, 0.25, 0.35, np.ones((32, 3), np.float32)).save(tmp_path / "bad.npz")
    with pytest.raises(ModelLoadError, match="does not fit a head of dim 2"):
        CharNgramModel.load(tmp_path / "bad.npz")


def test_a_broken_model_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ModelLoadError, match="cannot load character n-gram model"):
        CharNgramModel.load(bad)
    np.savez(tmp_path / "partial.npz", weight=np.zeros(4))  # no bias, threshold or card
    with pytest.raises(ModelLoadError):
        CharNgramModel.load(tmp_path / "partial.npz")
    # A bare LogisticHead file: no threshold for messages in other scripts.
    LogisticHead(np.zeros(4, dtype=np.float32), 0.0, 0.5, {}).save(tmp_path / "head.npz")
    with pytest.raises(ModelLoadError, match="script_threshold"):
        CharNgramModel.load(tmp_path / "head.npz")
    # A table row past the buckets, or a table without its row numbers.
    head = LogisticHead(np.ones(2, dtype=np.float32), 0.0, 0.5, {})
    extra = {"script_threshold": 0.5, "latin_threshold": 0.5, "max_n": 5, "buckets": 8}
    rows, values = np.array([3, 8], np.int32), np.ones((2, 2), np.float16)
    head.save(tmp_path / "past.npz", extra=extra, arrays={"hidden_rows": rows, "hidden": values})
    with pytest.raises(ModelLoadError, match="rows outside 0..7"):
        CharNgramModel.load(tmp_path / "past.npz")
    head.save(tmp_path / "rowless.npz", extra=extra, arrays={"hidden": values})
    with pytest.raises(ModelLoadError, match="hidden_rows"):
        CharNgramModel.load(tmp_path / "rowless.npz")
    head.save(tmp_path / "n9.npz", extra={**extra, "max_n": 9})
    with pytest.raises(ModelLoadError, match="max_n 9"):
        CharNgramModel.load(tmp_path / "n9.npz")
