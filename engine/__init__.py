"""Hearth's inference engine. The app sees only what this module exports.

Names are resolved lazily so that the pure-Python policy modules (scheduler, kv_cache) can be
imported and tested without importing torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "AsyncEngine": "engine.async_engine",
    "EngineConfig": "engine.config",
    "ModelConfig": "engine.config",
    "EngineStats": "engine.core",
    "ContextLengthExceededError": "engine.errors",
    "EngineDeadError": "engine.errors",
    "EngineError": "engine.errors",
    "InvalidRequestError": "engine.errors",
    "InvalidSamplingParamsError": "engine.errors",
    "ModelLoadError": "engine.errors",
    "LLM": "engine.llm",
    "CompletionResult": "engine.llm",
    "RequestOutput": "engine.outputs",
    "TokenLogprob": "engine.outputs",
    "SamplingParams": "engine.sampling_params",
}

__all__ = [
    "AsyncEngine",
    "CompletionResult",
    "ContextLengthExceededError",
    "EngineConfig",
    "EngineDeadError",
    "EngineError",
    "EngineStats",
    "InvalidRequestError",
    "InvalidSamplingParamsError",
    "LLM",
    "ModelConfig",
    "ModelLoadError",
    "RequestOutput",
    "SamplingParams",
    "TokenLogprob",
]

if TYPE_CHECKING:
    from engine.async_engine import AsyncEngine
    from engine.config import EngineConfig, ModelConfig
    from engine.core import EngineStats
    from engine.errors import (
        ContextLengthExceededError,
        EngineDeadError,
        EngineError,
        InvalidRequestError,
        InvalidSamplingParamsError,
        ModelLoadError,
    )
    from engine.llm import LLM, CompletionResult
    from engine.outputs import RequestOutput, TokenLogprob
    from engine.sampling_params import SamplingParams


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
