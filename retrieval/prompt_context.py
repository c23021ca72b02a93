"""Search results -> numbered sources for the prompt, within a token budget.

A source is included whole or not at all: a chunk cut mid-sentence misleads more than a
missing one. Sources are taken in the given (score) order; one that does not fit is skipped
and smaller later ones may still fit. Numbers follow inclusion order, so [n] in an answer
maps to context.sources[n - 1].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from retrieval.errors import InvalidSettingError
from retrieval.types import Source

DEFAULT_HEADER = (
    "Use the numbered sources below when they help answer, and cite them like [1]. "
    "If they do not contain the answer, say so."
)


@dataclass(frozen=True, slots=True)
class PromptContext:
    text: str  # "" when no source fits
    sources: tuple[Source, ...]  # included sources; sources[i] is numbered i + 1
    num_tokens: int


def _source_block(number: int, source: Source) -> str:
    where = f"{source.filename}, page {source.page}" if source.page else source.filename
    return f"[{number}] {where}\n{source.text.strip()}"


def format_context(
    sources: Sequence[Source],
    max_tokens: int,
    count_tokens: Callable[[str], int],
    header: str = DEFAULT_HEADER,
) -> PromptContext:
    """The context text for `sources`, at most `max_tokens` by `count_tokens` (the chat
    model's tokenizer: the budget is in the tokens the prompt is made of)."""
    if max_tokens <= 0:
        raise InvalidSettingError(f"max_tokens must be positive, got {max_tokens}")
    blocks: list[str] = []
    included: list[Source] = []
    text, num_tokens = "", 0
    for source in sources:
        block = _source_block(len(included) + 1, source)
        candidate = "\n\n".join([*([header] if header else []), *blocks, block])
        candidate_tokens = count_tokens(candidate)
        if candidate_tokens > max_tokens:
            continue
        blocks.append(block)
        included.append(source)
        text, num_tokens = candidate, candidate_tokens
    return PromptContext(text=text, sources=tuple(included), num_tokens=num_tokens)
