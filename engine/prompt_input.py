"""What a caller may pass as a prompt, and how it becomes token ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import InvalidRequestError

Prompt = str | Sequence[int] | Sequence[dict[str, str]]


def encode_prompt(tokenizer: Any, prompt: Prompt) -> list[int]:
    """Text is encoded as is, chat messages through the model's chat template, ids pass."""
    if isinstance(prompt, str):
        return tokenizer.encode(prompt)
    items = list(prompt)
    if items and all(isinstance(m, dict) for m in items):
        return tokenizer.encode_chat(items)
    if all(isinstance(t, int) for t in items):
        return items
    raise InvalidRequestError(
        f"prompt must be text, token ids or chat messages, got {type(prompt).__name__}"
    )
