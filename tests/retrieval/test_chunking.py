"""Chunking scenarios with a word-counting tokenizer, properties, and the real tokenizer."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.chunking import ChunkingSettings, chunk_document, chunk_sections
from retrieval.errors import InvalidSettingError
from retrieval.types import ParsedDocument, TextChunk, TextSection


def words(text: str) -> int:
    return len(text.split())


def chunk(text: str, max_tokens: int = 16, overlap: int = 0) -> list[TextChunk]:
    return chunk_sections([TextSection(text)], words, ChunkingSettings(max_tokens, overlap))


def texts(chunks: list[TextChunk]) -> list[str]:
    return [c.text for c in chunks]


def test_short_text_is_one_chunk() -> None:
    assert chunk("One short sentence.") == [
        TextChunk(ordinal=0, text="One short sentence.", page=None, char_start=0, char_end=19,
                  num_tokens=3)
    ]  # fmt: skip


def test_whole_paragraphs_are_packed_while_they_fit() -> None:
    a = "Alpha beta gamma delta."  # 4 words
    b = "Epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi."  # 12 words
    c = "Rho sigma."  # 2 words
    result = chunk(f"{a}\n\n{b}\n\n{c}")
    # a + b = 16 fits exactly; c starts the next chunk.
    assert texts(result) == [f"{a}\n\n{b}", c]
    assert [(r.char_start, r.char_end, r.num_tokens) for r in result] == [(0, 86, 16), (88, 98, 2)]


def test_a_paragraph_that_fits_alone_moves_to_a_new_chunk_whole() -> None:
    a = "One two three four five six seven eight nine ten."  # 10 words
    b = "Uno dos tres. Cuatro cinco seis siete ocho."  # 8 words
    # Splitting b across chunks is avoided: it fits a chunk of its own.
    assert texts(chunk(f"{a}\n\n{b}")) == [a, b]


def test_long_paragraph_splits_between_sentences_with_overlap() -> None:
    s1 = "The kiln heats slowly."  # 4
    s2 = "Vent the lid early on."  # 5
    s3 = "Close it at six hundred degrees."  # 6
    s4 = "Hold the peak for ten minutes."  # 6
    s5 = "Then let it cool overnight."  # 5
    paragraph = " ".join([s1, s2, s3, s4, s5])  # 26 words: over one chunk
    result = chunk(paragraph, max_tokens=16, overlap=6)
    assert texts(result) == [f"{s1} {s2} {s3}", f"{s3} {s4}", f"{s4} {s5}"]
    # Overlapping chunks share their text span.
    assert result[1].char_start == result[0].char_end - len(s3)
    assert [c.num_tokens for c in result] == [15, 12, 11]


def test_overlap_takes_only_whole_sentences_that_fit_the_budget() -> None:
    s1 = "Short one."  # 2
    s2 = "A much longer sentence that has exactly nine words."  # 9
    s3 = "Final sentence with seven words in it."  # 7
    result = chunk(f"{s1} {s2} {s3}", max_tokens=16, overlap=4)
    # s2 (9 words) exceeds the 4-word overlap budget, so chunk 2 starts fresh.
    assert texts(result) == [f"{s1} {s2}", s3]


def test_sentence_longer_than_a_chunk_splits_at_words() -> None:
    sentence = " ".join(f"w{i}" for i in range(40)) + "."
    result = chunk(sentence, max_tokens=16)
    assert [c.num_tokens for c in result] == [16, 16, 8]
    assert result[0].text == " ".join(f"w{i}" for i in range(16))
    assert result[2].text == " ".join(f"w{i}" for i in range(32, 40)) + "."


def test_lines_are_sentence_boundaries() -> None:
    items = "\n".join(f"- item number {i} here" for i in range(6))  # 5 words per line
    result = chunk(items, max_tokens=16)
    assert texts(result) == [
        "- item number 0 here\n- item number 1 here\n- item number 2 here",
        "- item number 3 here\n- item number 4 here\n- item number 5 here",
    ]


def four_chars(text: str) -> int:
    """A tokenizer that spends one token per 4 characters of each word."""
    return sum(math.ceil(len(w) / 4) for w in text.split())


def test_a_word_longer_than_a_chunk_is_cut_into_runs() -> None:
    blob = "x" * 100  # 25 tokens
    result = chunk_sections(
        [TextSection(f"see {blob} end")],
        four_chars,
        ChunkingSettings(max_tokens=16, overlap_tokens=4),
    )
    assert texts(result) == ["see", "x" * 64, "x" * 36 + " end"]
    assert [c.num_tokens for c in result] == [1, 16, 10]


def test_pages_are_chunked_separately_with_document_offsets() -> None:
    doc = ParsedDocument(
        display_name="r.pdf",
        kind="pdf",
        sections=(TextSection("Page one text.", page=1), TextSection("Page two.", page=2)),
    )
    result = chunk_document(doc, words, ChunkingSettings(max_tokens=16, overlap_tokens=4))
    assert [(c.ordinal, c.page, c.text) for c in result] == [
        (0, 1, "Page one text."),
        (1, 2, "Page two."),
    ]
    assert [doc.text[c.char_start : c.char_end] for c in result] == texts(result)


def test_empty_and_blank_sections_give_no_chunks() -> None:
    assert chunk("") == []
    assert chunk(" \n\n \n") == []


@pytest.mark.parametrize(("max_tokens", "overlap"), [(15, 0), (16, 9), (16, -1), (0, 0)])
def test_bad_settings_are_refused(max_tokens: int, overlap: int) -> None:
    with pytest.raises(InvalidSettingError):
        ChunkingSettings(max_tokens, overlap)


_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=30)
_SENTENCE = st.lists(_WORD, min_size=1, max_size=25).map(lambda ws: " ".join(ws) + ".")
_PARAGRAPH = st.lists(_SENTENCE, min_size=1, max_size=6).map(" ".join)
_DOCUMENT = st.lists(_PARAGRAPH, min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=150, deadline=None)
@given(
    text=_DOCUMENT,
    max_tokens=st.integers(16, 40),
    overlap_fraction=st.floats(0, 0.5),
)
def test_chunk_invariants(text: str, max_tokens: int, overlap_fraction: float) -> None:
    cfg = ChunkingSettings(max_tokens, int(max_tokens * overlap_fraction))
    result = chunk_sections([TextSection(text)], four_chars, cfg)
    assert result == chunk_sections([TextSection(text)], four_chars, cfg)  # deterministic
    assert [c.ordinal for c in result] == list(range(len(result)))
    covered = [False] * len(text)
    previous_start = -1
    for c in result:
        assert c.text == text[c.char_start : c.char_end]
        assert c.text == c.text.strip() and c.text
        assert c.num_tokens == four_chars(c.text) <= max_tokens
        assert c.char_start > previous_start  # each chunk starts later than the last
        previous_start = c.char_start
        for i in range(c.char_start, c.char_end):
            covered[i] = True
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace())


def test_real_tokenizer_counts_are_additive(embedder) -> None:
    from pathlib import Path

    corpus = Path(__file__).parents[2] / "retrieval" / "eval" / "corpus"
    text = (corpus / "python-compound-statements.txt").read_text(encoding="utf-8")
    cfg = ChunkingSettings(max_tokens=128, overlap_tokens=24)
    result = chunk_sections([TextSection(text)], embedder.count_tokens, cfg)
    assert len(result) > 20
    for c in result:
        assert embedder.count_tokens(c.text) == c.num_tokens <= 128


def test_hard_wrapped_lines_stay_inside_their_sentence() -> None:
    s1 = "This first sentence is hard\nwrapped across three\nlines of the file."  # 11 words
    s2 = "The second one is\nwrapped as well and ends here."  # 10 words
    assert texts(chunk(f"{s1} {s2}", max_tokens=16)) == [s1, s2]
