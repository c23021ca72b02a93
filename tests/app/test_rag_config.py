"""`hearth serve`'s retrieval: built from the settings, on by default, with validated values."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.main import default_services
from app.rag.config import index_folder, retrieval_config
from app.rag.service import RetrievalService
from app.settings import Settings


def _settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_serve_runs_retrieval_unless_disabled() -> None:
    no_guards = {"enabled": False}
    (service,) = default_services(_settings(guardrails=no_guards))
    assert isinstance(service, RetrievalService)
    assert default_services(_settings(retrieval={"enabled": False}, guardrails=no_guards)) == []


def test_settings_become_the_retrieval_config(tmp_path: Path) -> None:
    settings = _settings(data_dir=tmp_path, limits={"max_upload_bytes": 1234},
                         retrieval={"chunk_tokens": 64, "chunk_overlap": 8, "hybrid": False,
                                    "lexical_weight": 0.5, "index_kind": "hnsw",
                                    "embed_batch_size": 8})
    config = retrieval_config(settings)
    assert (config.chunking.max_tokens, config.chunking.overlap_tokens) == (64, 8)
    assert (config.search.hybrid, config.search.lexical_weight) == (False, 0.5)
    assert (config.index.kind, config.parse_limits.max_bytes, config.embed_batch_size) == (
        "hnsw", 1234, 8)
    assert index_folder(settings) == tmp_path / "index"
    default = retrieval_config(_settings())
    assert (default.chunking.max_tokens, default.chunking.overlap_tokens) == (128, 24)
    assert default.search.hybrid is True and default.index.kind == "flat"


@pytest.mark.parametrize("bad", [
    {"chunk_tokens": 32, "chunk_overlap": 17},
    {"chunk_tokens": 8},
    {"top_k": 101},
    {"lexical_weight": 1.5},
    {"index_kind": "ivf"},
    {"max_concurrent_ingestions": 0},
])
def test_bad_retrieval_settings_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError) as info:
        _settings(retrieval=bad)
    assert "retrieval" in str(info.value)
