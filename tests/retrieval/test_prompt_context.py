"""Numbered sources for the prompt: whole chunks only, within the token budget."""

from __future__ import annotations

import pytest

from retrieval.errors import InvalidSettingError
from retrieval.prompt_context import format_context
from retrieval.types import Source


def words(text: str) -> int:
    return len(text.split())


def source(chunk_id: int, text: str, filename: str = "a.txt", page: int | None = None) -> Source:
    return Source(document_id="d", chunk_id=chunk_id, filename=filename, score=0.5, text=text,
                  page=page)  # fmt: skip


def test_sources_are_numbered_with_file_and_page() -> None:
    ctx = format_context(
        [source(1, "Kilns get hot.", "manual.pdf", page=3), source(2, " Glaze first. ")],
        max_tokens=100,
        count_tokens=words,
        header="Sources:",
    )
    assert (
        ctx.text == "Sources:\n\n[1] manual.pdf, page 3\nKilns get hot.\n\n[2] a.txt\nGlaze first."
    )
    assert [s.chunk_id for s in ctx.sources] == [1, 2]
    assert ctx.num_tokens == words(ctx.text) == 12


def test_a_source_that_does_not_fit_is_skipped_whole_not_cut() -> None:
    big = source(1, "word " * 50)
    small = source(2, "tiny text")
    ctx = format_context([big, small], max_tokens=10, count_tokens=words, header="")
    assert ctx.text == "[1] a.txt\ntiny text"  # renumbered: it is the first included
    assert ctx.sources == (small,)
    assert ctx.num_tokens == 4


def test_nothing_fits_or_nothing_given() -> None:
    assert format_context([source(1, "too long " * 20)], 5, words).text == ""
    empty = format_context([], 5, words)
    assert (empty.text, empty.sources, empty.num_tokens) == ("", (), 0)


def test_budget_must_be_positive() -> None:
    with pytest.raises(InvalidSettingError, match="max_tokens must be positive, got 0"):
        format_context([], 0, words)
