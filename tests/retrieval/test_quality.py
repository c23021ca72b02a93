"""The shipped evaluation set is consistent, and relevance is judged by answer overlap."""

from __future__ import annotations

import pytest

from retrieval.errors import RetrievalError
from retrieval.quality import CORPUS_DIR, Span, _is_relevant, answer_spans, load_questions


def test_every_question_has_exactly_one_answer_passage_in_its_document() -> None:
    questions = load_questions()
    assert len(questions) >= 40
    assert len({q.id for q in questions}) == len(questions)
    documents = {p.name: f"doc-{p.stem}" for p in CORPUS_DIR.iterdir()}
    spans = answer_spans(questions, documents)
    assert set(spans) == {q.id for q in questions}
    assert {q.document for q in questions} == set(documents)  # every document is asked about


def test_unknown_document_or_ambiguous_answer_is_an_error() -> None:
    (q, *_) = load_questions()
    with pytest.raises(RetrievalError, match="names unknown document"):
        answer_spans([q], {})
    ambiguous = type(q)(id="x", document=q.document, question="?", answer="the")
    with pytest.raises(RetrievalError, match="occurs \\d+ times"):
        answer_spans([ambiguous], {q.document: "d"})


@pytest.mark.parametrize(
    ("start", "end", "relevant"),
    [(0, 100, True), (50, 100, True), (55, 100, False), (10, 15, False), (0, 60, True)],
)
def test_a_chunk_is_relevant_when_it_holds_half_the_answer(start, end, relevant) -> None:
    span = Span("d", 40, 60)
    assert _is_relevant(span, "d", start, end) is relevant
    assert _is_relevant(span, "other", 0, 100) is False
