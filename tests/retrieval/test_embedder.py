"""The embedder against transformers' reference BERT, and on meaning."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import torch

from retrieval.embedder import Embedder, default_model_path
from retrieval.errors import EmbedderLoadError, InvalidSettingError

SENTENCES = [
    "A man is eating food.",
    "Hearth streams tokens over a WebSocket to the browser.",
    "",
    "Short",
    "The quick brown fox jumps over the lazy dog. " * 40,  # past 256 tokens: truncated
    "Ünïcödé téxt wïth àccents and 数字 123.",
]


def _reference_embeddings(texts: list[str]) -> np.ndarray:
    transformers = pytest.importorskip("transformers", reason="transformers is the reference")
    folder = default_model_path()
    model = transformers.BertModel.from_pretrained(str(folder), add_pooling_layer=False).eval()
    tok = transformers.AutoTokenizer.from_pretrained(str(folder))
    batch = tok(texts, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state  # (B, T, H)
    mask = batch["attention_mask"].unsqueeze(-1).float()  # (B, T, 1)
    pooled = (hidden * mask).sum(1) / mask.sum(1)  # (B, H)
    return torch.nn.functional.normalize(pooled, dim=-1).numpy()


def test_matches_transformers_bert_with_mean_pooling(embedder: Embedder) -> None:
    ours = embedder.embed(SENTENCES, batch_size=4)
    ref = _reference_embeddings(SENTENCES)
    assert ours.shape == (len(SENTENCES), 384)
    assert ours.dtype == np.float32
    cosines = (ours * ref).sum(axis=1)
    assert cosines.min() >= 0.9999, cosines


def test_rows_are_unit_length_and_independent_of_batching(embedder: Embedder) -> None:
    one_batch = embedder.embed(SENTENCES, batch_size=64)
    singles = np.stack([embedder.embed([s])[0] for s in SENTENCES])
    np.testing.assert_allclose(np.linalg.norm(one_batch, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(one_batch, singles, atol=1e-5)


def test_paraphrase_scores_higher_than_unrelated_sentence(embedder: Embedder) -> None:
    anchor, paraphrase, unrelated = embedder.embed(
        [
            "How do I reset my password?",
            "What are the steps to change a forgotten password?",
            "The recipe needs two cups of flour and an egg.",
        ]
    )
    assert float(anchor @ paraphrase) > float(anchor @ unrelated) + 0.3


def test_empty_input_gives_empty_matrix(embedder: Embedder) -> None:
    assert embedder.embed([]).shape == (0, 384)


def test_count_tokens_excludes_special_tokens(embedder: Embedder) -> None:
    assert embedder.dim == 384
    assert embedder.count_tokens("") == 0
    assert embedder.count_tokens("hello world") == 2
    assert embedder.max_chunk_tokens == 254  # 256 minus [CLS] and [SEP]


def test_concurrent_calls_from_threads_agree(embedder: Embedder) -> None:
    expected = embedder.embed(SENTENCES[:4])
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(embedder.embed(SENTENCES[:4]))
        except BaseException as exc:  # surfaced in the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert len(results) == 4
    for r in results:
        np.testing.assert_allclose(r, expected, atol=1e-5)


def test_bad_arguments_raise_typed_errors(embedder: Embedder, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="not one str"):
        embedder.embed("a single string")
    with pytest.raises(TypeError, match=r"texts\[1\] is int"):
        embedder.embed(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidSettingError, match="batch_size must be positive, got 0"):
        embedder.embed(["x"], batch_size=0)
    with pytest.raises(EmbedderLoadError, match="does not exist"):
        Embedder.load(str(tmp_path / "nowhere"))
    with pytest.raises(EmbedderLoadError, match="lacks config.json"):
        Embedder.load(str(tmp_path))
