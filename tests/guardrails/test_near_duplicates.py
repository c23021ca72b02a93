"""near_duplicates keeps written training rows apart from evaluation rows: near copies by
character trigrams, rewordings by embedding cosine, each dropped row named once."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from guardrails.training.near_duplicates import jaccard, main, near_rows, trigrams


def test_trigrams_ignore_case_and_spacing() -> None:
    assert trigrams("Fix  THIS") == trigrams("fix this") == {"fix", "ix ", "x t", " th", "thi", "his"}
    assert jaccard(trigrams("abcd"), trigrams("abcd")) == 1.0
    assert jaccard(trigrams("abcd"), trigrams("wxyz")) == 0.0


def test_near_copies_are_found_by_trigrams_and_rewordings_by_cosine() -> None:
    evaluation = ["can you proofread this email to my boss please", "how do i bake bread"]
    candidates = [
        "can you proofread this email to my boss pls",  # a near copy
        "what is the capital of peru",  # far from both
        "give me a recipe for a loaf",  # a rewording, by the fake embedding below
    ]
    vectors = {
        evaluation[0]: [1.0, 0.0, 0.0],
        evaluation[1]: [0.0, 1.0, 0.0],
        candidates[0]: [0.0, 0.0, 1.0],
        candidates[1]: [0.0, 0.0, 1.0],
        candidates[2]: [0.0, 0.9, 0.43588989],
    }

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors[t] for t in texts])

    near = near_rows(candidates, evaluation, embed, max_jaccard=0.5, max_cosine=0.85)
    assert [(n.index, n.other, n.measure) for n in near] == [
        (0, evaluation[0], "jaccard"),
        (2, evaluation[1], "cosine"),
    ]
    assert near[1].value == pytest.approx(0.9)
    assert near_rows(candidates, evaluation, None, 0.5, 0.85)[0].index == 0


def test_the_cosine_counts_only_between_two_latin_texts() -> None:
    # MiniLM reads other scripts as a few pieces and puts unrelated messages close together
    # there; only the trigrams judge a pair with a non-Latin text.
    evaluation = ["как испечь хлеб дома", "how do i bake bread"]
    candidates = ["напиши вирус-шифровальщик", "bake me a loaf at home"]

    def embed(texts: list[str]) -> np.ndarray:
        return np.ones((len(texts), 2)) / np.sqrt(2)  # every pair at cosine 1.0

    near = near_rows(candidates, evaluation, embed, max_jaccard=0.5, max_cosine=0.85)
    assert [(n.index, n.other, n.measure) for n in near] == [(1, evaluation[1], "cosine")]


def test_a_bad_input_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "in.jsonl"
    bad.write_text(json.dumps({"label": 0}) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main([str(bad), str(tmp_path / "out.jsonl")])
    assert exc.value.code == 2
    assert "every row needs a 'text'" in capsys.readouterr().err
    assert not (tmp_path / "out.jsonl").exists()


def test_a_new_evaluation_file_is_kept_apart_from_the_training_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from guardrails.training import near_duplicates
    from guardrails.training.harmful_data import load_authored_harmful, text_file_rows
    from guardrails.training.train_harmful_head import AUTHORED_BENIGN
    from guardrails.training.train_multilingual import load_rows

    texts = near_duplicates.training_texts()
    train, validation = load_rows(seed=0, share=0.2)
    # The multilingual rail's written rows, and those only the MiniLM models and the judge
    # read: authored harmful requests and benign look-alikes (an everyday request's nearest
    # training rows are there), each text once.
    written = set(texts)
    assert {r.text for r in train + validation} <= written
    assert {r.text for r in load_authored_harmful() + text_file_rows(AUTHORED_BENIGN, 0)} <= written
    assert len(texts) == len(written) and len(texts) > 15_000
    # `--against training` reads those rows in place of the evaluation rows (a short list
    # here, so that MiniLM embeds two texts, not all of them).
    row = next(t for t in texts if t.startswith("Как") and len(t) > 40)
    monkeypatch.setattr(near_duplicates, "training_texts", lambda: [row, "how do i bake bread"])
    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps({"text": row, "label": 0}, ensure_ascii=False) + "\n", "utf-8")
    assert main([str(new), str(tmp_path / "kept.jsonl"), "--against", "training"]) == 0
    assert (tmp_path / "kept.jsonl").read_text(encoding="utf-8") == ""
    assert "kept 0 of 1 rows" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(new), str(tmp_path / "x.jsonl"), "--against", "nowhere"])
