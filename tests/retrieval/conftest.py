"""Shared fixtures: the real embedder, loaded once per test session."""

from __future__ import annotations

import pytest

from retrieval.embedder import Embedder


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return Embedder.load()
