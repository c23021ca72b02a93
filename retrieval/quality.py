"""Retrieval quality over the shipped corpus: recall@k and MRR against known answer spans.

Each question names its document and an answer passage quoted from it. A chunk is relevant
when it contains the whole passage, or (when the passage straddles a chunk boundary) at least
half of it. A question's rank is the position of its first relevant result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from retrieval.errors import RetrievalError
from retrieval.retriever import Retriever
from retrieval.search import SearchSettings, search
from retrieval.types import Scope

EVAL_DIR = Path(__file__).parent / "eval"
CORPUS_DIR = EVAL_DIR / "corpus"
QUESTIONS_PATH = EVAL_DIR / "questions.jsonl"
EVAL_USER = "eval-user"


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    document: str
    question: str
    answer: str


@dataclass(frozen=True, slots=True)
class Span:
    document_id: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class QualityResult:
    mode: str  # "dense" | "hybrid"
    num_questions: int
    recall: dict[int, float]  # k -> fraction of questions answered within the top k
    mrr: dict[int, float]  # k -> mean reciprocal rank, 0 past k
    ranks: dict[str, int | None]  # question id -> rank of the first relevant chunk


def load_questions(path: Path = QUESTIONS_PATH) -> list[Question]:
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                questions.append(Question(**json.loads(line)))
            except (ValueError, TypeError) as exc:
                raise RetrievalError(f"{path}:{number}: bad question row: {exc}") from exc
    return questions


def _answer_span(text: str, answer: str, where: str) -> tuple[int, int]:
    pattern = r"\s+".join(re.escape(word) for word in answer.split())
    matches = list(re.finditer(pattern, text))
    if len(matches) != 1:
        raise RetrievalError(f"answer {answer!r} occurs {len(matches)} times in {where}")
    return matches[0].start(), matches[0].end()


def ingest_corpus(
    retriever: Retriever, corpus_dir: Path = CORPUS_DIR
) -> tuple[dict[str, str], dict[int, tuple[int, int]]]:
    """Ingest every corpus file for EVAL_USER, with chunk ids assigned consecutively as a
    database would. Returns (file name -> document id, chunk id -> (char_start, char_end))."""
    next_id = 1 + max(retriever.catalog.ids(), default=0)
    documents: dict[str, str] = {}
    offsets: dict[int, tuple[int, int]] = {}
    for path in sorted(corpus_dir.iterdir()):
        document_id = f"doc-{path.stem}"
        prepared = retriever.prepare(path.read_bytes(), path.name, document_id)
        ids = list(range(next_id, next_id + len(prepared.records)))
        next_id += len(ids)
        retriever.add(prepared, ids, owner_id=EVAL_USER)
        documents[path.name] = document_id
        offsets.update(
            (cid, (r.char_start, r.char_end)) for cid, r in zip(ids, prepared.records, strict=True)
        )
    return documents, offsets


def answer_spans(
    questions: Sequence[Question], documents: dict[str, str], corpus_dir: Path = CORPUS_DIR
) -> dict[str, Span]:
    from retrieval.parsing import parse_document

    texts: dict[str, str] = {}
    spans = {}
    for q in questions:
        if q.document not in documents:
            raise RetrievalError(f"question {q.id!r} names unknown document {q.document!r}")
        if q.document not in texts:
            path = corpus_dir / q.document
            texts[q.document] = parse_document(path.read_bytes(), path.name).text
        start, end = _answer_span(texts[q.document], q.answer, q.document)
        spans[q.id] = Span(documents[q.document], start, end)
    return spans


def _is_relevant(span: Span, document_id: str, start: int, end: int) -> bool:
    if document_id != span.document_id:
        return False
    overlap = min(end, span.end) - max(start, span.start)
    return overlap >= (span.end - span.start) / 2


def evaluate_quality(
    retriever: Retriever,
    questions: Sequence[Question],
    spans: dict[str, Span],
    offsets: dict[int, tuple[int, int]],
    ks: Sequence[int],
    search_settings: SearchSettings,
    mode: str,
) -> QualityResult:
    """`offsets` maps chunk id -> (char_start, char_end) in its document's text."""
    depth = max(ks)
    ranks: dict[str, int | None] = {}
    for q in questions:
        sources = search(
            q.question,
            depth,
            -1.0,
            Scope(EVAL_USER),
            embedder=retriever.embedder,
            index=retriever.index,
            catalog=retriever.catalog,
            lexical=retriever.lexical,
            settings=search_settings,
        )
        ranks[q.id] = next(
            (
                position
                for position, s in enumerate(sources, start=1)
                if _is_relevant(spans[q.id], s.document_id, *offsets[s.chunk_id])
            ),
            None,
        )
    n = len(questions)
    recall = {k: sum(1 for r in ranks.values() if r is not None and r <= k) / n for k in ks}
    mrr = {k: sum(1 / r for r in ranks.values() if r is not None and r <= k) / n for k in ks}
    return QualityResult(mode, n, recall, mrr, ranks)
