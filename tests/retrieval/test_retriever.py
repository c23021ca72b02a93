"""The retriever end to end with the real embedder: ingest, scoped search, delete, restart."""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence

import pytest

from retrieval.chunking import ChunkingSettings
from retrieval.errors import UnsupportedTypeError, VectorIndexError
from retrieval.index import INDEX_FILENAME
from retrieval.retriever import RetrievalConfig, Retriever
from retrieval.types import ChunkRecord, IndexedChunk, Scope
from tests.retrieval.documents import make_docx, make_pdf

KILN = b"""Firing a kiln

Raise the kiln temperature slowly, about one hundred degrees per hour, so that water
trapped in the clay escapes without cracking the pots.

Once the kiln reaches nine hundred degrees the bisque firing is complete and the kiln
must cool overnight before the lid is opened.
"""
BREAD = b"""Sourdough bread needs a lively starter. Feed the starter with flour and water the
evening before baking, then mix the dough in the morning and let it rise for six hours."""
TAXES = "Quarterly tax returns are due at the end of the month after each quarter."


class Database:
    """Plays the app's database: stores chunk rows, hands out ids, lists rows at start-up."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[ChunkRecord, str, str | None, str]] = {}
        self._ids = itertools.count(1)

    def store(
        self, records: Sequence[ChunkRecord], owner: str, conversation: str | None, name: str
    ) -> list[int]:
        ids = [next(self._ids) for _ in records]
        for cid, record in zip(ids, records, strict=True):
            self.rows[cid] = (record, owner, conversation, name)
        return ids

    def delete_document(self, document_id: str) -> None:
        self.rows = {k: v for k, v in self.rows.items() if v[0].document_id != document_id}

    def chunks(self) -> list[IndexedChunk]:
        return [
            IndexedChunk(cid, r.document_id, owner, conv, name, r.ordinal, r.text, r.page)
            for cid, (r, owner, conv, name) in self.rows.items()
        ]


@pytest.fixture
def config() -> RetrievalConfig:
    return RetrievalConfig(chunking=ChunkingSettings(max_tokens=48, overlap_tokens=8))


def upload(retriever: Retriever, db: Database, data: bytes, name: str, doc: str, owner: str,
           conversation: str | None = None) -> list[IndexedChunk]:  # fmt: skip
    prepared = retriever.prepare(data, name, doc)
    ids = db.store(prepared.records, owner, conversation, prepared.display_name)
    return retriever.add(prepared, ids, owner, conversation)


def test_ingest_then_search_finds_the_right_document(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    progress: list[tuple[int, int]] = []
    prepared = retriever.prepare(
        KILN, "../kiln.md", "d-kiln", progress=lambda *p: progress.append(p)
    )
    assert prepared.display_name == "kiln.md" and prepared.kind == "markdown"
    assert len(prepared.records) == 2
    assert progress == [(0, 2), (2, 2)]
    assert prepared.records[0].char_start == 0
    retriever.add(prepared, db.store(prepared.records, "alice", None, "kiln.md"), "alice")
    upload(retriever, db, BREAD, "bread.txt", "d-bread", "alice")

    hits = retriever.search("how fast should I heat the kiln?", Scope("alice"), k=3)
    assert hits[0].document_id == "d-kiln" and hits[0].filename == "kiln.md"
    assert "one hundred degrees per hour" in hits[0].text
    bread = retriever.search("what do I feed a sourdough starter?", Scope("alice"), k=1)
    assert [h.document_id for h in bread] == ["d-bread"]


def test_each_file_type_is_ingested_with_pages(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    upload(retriever, db, make_pdf(["Cover page", TAXES]), "r.pdf", "d-pdf", "alice")
    upload(retriever, db, make_docx(["Recipes", BREAD.decode()]), "r.docx", "d-docx", "alice")
    upload(
        retriever, db, b"<html><p>The museum opens at nine.</p></html>", "m.html", "d-h", "alice"
    )
    (tax,) = retriever.search("when are tax returns due?", Scope("alice"), k=1)
    assert (tax.document_id, tax.page) == ("d-pdf", 2)
    (museum,) = retriever.search("museum opening hours", Scope("alice"), k=1)
    assert museum.document_id == "d-h"


def test_users_and_conversations_are_kept_apart(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    upload(retriever, db, KILN, "kiln.txt", "d-kiln", "alice")
    upload(retriever, db, BREAD, "bread.txt", "d-bread", "alice", conversation="c-1")
    upload(retriever, db, TAXES.encode(), "tax.txt", "d-tax", "bob")

    def docs(scope: Scope) -> set[str]:
        hits = retriever.search("anything at all", scope, k=20, min_score=-1.0)
        return {h.document_id for h in hits}

    assert docs(Scope("alice")) == {"d-kiln"}
    assert docs(Scope("alice", "c-1")) == {"d-kiln", "d-bread"}
    assert docs(Scope("bob", "c-1")) == {"d-tax"}
    assert docs(Scope("eve")) == set()


def test_delete_removes_the_vectors(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    kiln = upload(retriever, db, KILN, "kiln.txt", "d-kiln", "alice")
    upload(retriever, db, BREAD, "bread.txt", "d-bread", "alice")
    assert retriever.remove_document("d-kiln") == len(kiln)
    db.delete_document("d-kiln")
    assert not any(e.chunk_id in retriever.index for e in kiln)
    hits = retriever.search("kiln temperature", Scope("alice"), k=10)
    assert {h.document_id for h in hits} == {"d-bread"}
    # The saved file agrees: a restart with the database's rows loads it as it is.
    reopened = Retriever.open(tmp_path, embedder, db.chunks(), config)
    assert reopened.load_report.status == "loaded"
    assert retriever.remove_document("d-kiln") == 0


def test_restart_rebuilds_a_deleted_or_corrupted_index(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    upload(retriever, db, KILN, "kiln.txt", "d-kiln", "alice")
    upload(retriever, db, BREAD, "bread.txt", "d-bread", "alice")
    before = retriever.search("kiln cooling", Scope("alice"), k=4)

    path = tmp_path / INDEX_FILENAME
    path.unlink()
    rebuilt = Retriever.open(tmp_path, embedder, db.chunks(), config)
    assert rebuilt.load_report.status == "rebuilt"
    assert [(h.chunk_id, h.score) for h in rebuilt.search("kiln cooling", Scope("alice"), k=4)] == [
        pytest.approx((h.chunk_id, h.score), abs=1e-5) for h in before
    ]

    path.write_bytes(path.read_bytes()[:100])
    assert Retriever.open(tmp_path, embedder, db.chunks(), config).load_report.status == "rebuilt"
    assert sorted(os.listdir(tmp_path)) == [INDEX_FILENAME]


def test_crash_between_database_write_and_index_add_is_repaired(embedder, tmp_path, config):
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    upload(retriever, db, KILN, "kiln.txt", "d-kiln", "alice")
    prepared = retriever.prepare(BREAD, "bread.txt", "d-bread")
    db.store(prepared.records, "alice", None, "bread.txt")  # ... and the process dies here
    reopened = Retriever.open(tmp_path, embedder, db.chunks(), config)
    assert reopened.load_report.status == "repaired"
    assert reopened.load_report.num_added == len(prepared.records)
    (hit,) = reopened.search("sourdough starter", Scope("alice"), k=1)
    assert hit.document_id == "d-bread"


def test_ingest_with_a_blocking_store_and_bad_uploads(embedder, tmp_path, config) -> None:
    retriever = Retriever.open(tmp_path, embedder, [], config)
    db = Database()
    entries = retriever.ingest(
        BREAD, "bread.txt", "d-bread", "alice",
        store_chunks=lambda records: db.store(records, "alice", None, "bread.txt"),
    )  # fmt: skip
    assert [e.chunk_id for e in entries] == sorted(db.rows)
    with pytest.raises(UnsupportedTypeError):
        retriever.ingest(make_pdf(["x"]), "x.txt", "d-x", "alice", store_chunks=lambda r: [])
    prepared = retriever.prepare(KILN, "kiln.txt", "d-kiln")
    with pytest.raises(VectorIndexError, match="1 chunk ids for 2 chunk records"):
        retriever.add(prepared, [99], "alice")


def test_chunk_size_is_capped_to_the_embedder_window(embedder, tmp_path) -> None:
    retriever = Retriever.open(
        tmp_path, embedder, [], RetrievalConfig(chunking=ChunkingSettings(400, 32))
    )
    long_text = ("The kiln is hot and the glaze is wet. " * 60).encode()
    prepared = retriever.prepare(long_text, "long.txt", "d-long")
    assert max(embedder.count_tokens(r.text) for r in prepared.records) <= 254
