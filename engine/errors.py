"""Typed errors the engine raises; each names the offending value."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidRequestError(EngineError, ValueError):
    """A request the engine refuses before allocating anything for it."""


class ContextLengthExceededError(InvalidRequestError):
    """The prompt plus max_tokens does not fit in the model's context."""

    def __init__(self, num_prompt_tokens: int, max_tokens: int, max_model_len: int) -> None:
        self.num_prompt_tokens = num_prompt_tokens
        self.max_tokens = max_tokens
        self.max_model_len = max_model_len
        super().__init__(
            f"prompt of {num_prompt_tokens} tokens plus max_tokens={max_tokens} "
            f"exceeds the model's context of {max_model_len} tokens"
        )


class InvalidSamplingParamsError(InvalidRequestError):
    """A sampling parameter outside its allowed range."""


class ModelLoadError(EngineError):
    """A model file or folder that cannot be loaded."""


class EngineDeadError(EngineError):
    """The engine loop stopped (crash or shutdown); no new requests are taken."""
