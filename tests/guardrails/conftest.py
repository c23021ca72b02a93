"""The default chat model, read once per session for the judge's tests (a few seconds)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def smollm2():
    from engine import loader
    from engine.errors import ModelLoadError

    try:
        return loader.load_model("default")
    except ModelLoadError as exc:
        pytest.skip(f"the default model package is not installed: {exc}")
