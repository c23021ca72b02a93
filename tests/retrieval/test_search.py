"""Scoped search: a scope sees exactly its chunks, results are complete and stable."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retrieval.catalog import ChunkCatalog
from retrieval.errors import InvalidQueryError
from retrieval.index import IndexSettings, VectorIndex
from retrieval.lexical import LexicalIndex
from retrieval.search import SearchSettings, search
from retrieval.types import IndexedChunk, Scope, Source

DIM = 16


class HashEmbedder:
    """Deterministic stand-in for the embedder: a unit vector seeded by the text's hash."""

    dim = DIM

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(DIM)
            rows.append(v / np.linalg.norm(v))
        return np.array(rows, dtype=np.float32).reshape(len(texts), DIM)


EMBEDDER = HashEmbedder()
USERS = ["alice", "bob", "carol"]
CONVERSATIONS = [None, "c1", "c2"]


def build(entries: list[IndexedChunk], kind: str = "flat", exact_max: int = 4096):
    catalog = ChunkCatalog(entries)
    index = VectorIndex(DIM, IndexSettings(kind=kind, exact_search_max_ids=exact_max))
    if entries:
        index.add([e.chunk_id for e in entries], EMBEDDER.embed([e.text for e in entries]))
    lexical = LexicalIndex()
    lexical.add((e.chunk_id, e.text) for e in entries)
    return catalog, index, lexical


def entry(chunk_id: int, owner: str, conversation: str | None, text: str = "") -> IndexedChunk:
    return IndexedChunk(
        chunk_id=chunk_id,
        document_id=f"doc-{owner}-{conversation}",
        owner_id=owner,
        conversation_id=conversation,
        filename=f"{owner}.txt",
        ordinal=chunk_id,
        text=text or f"chunk {chunk_id} of {owner}",
    )


def visible(e: IndexedChunk, scope: Scope) -> bool:
    return e.owner_id == scope.user_id and e.conversation_id in (None, scope.conversation_id)


def run(query: str, k: int, scope: Scope, parts, **kw) -> list[Source]:
    catalog, index, lexical = parts
    return search(query, k, -1.0, scope, embedder=EMBEDDER, index=index, catalog=catalog,
                  lexical=lexical, **kw)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    owners=st.lists(
        st.tuples(st.sampled_from(USERS), st.sampled_from(CONVERSATIONS)), min_size=0, max_size=60
    ),
    user=st.sampled_from(USERS),
    conversation=st.sampled_from(CONVERSATIONS),
    k=st.integers(1, 20),
    kind=st.sampled_from(["flat", "hnsw"]),
    exact_max=st.sampled_from([0, 4096]),
    hybrid=st.booleans(),
)
def test_a_scope_sees_exactly_its_own_chunks(
    owners, user, conversation, k, kind, exact_max, hybrid
) -> None:
    entries = [entry(i + 1, owner, conv) for i, (owner, conv) in enumerate(owners)]
    parts = build(entries, kind, exact_max)
    scope = Scope(user, conversation)
    results = run("chunk of alice", k, scope, parts, settings=SearchSettings(hybrid=hybrid))
    mine = [e for e in entries if visible(e, scope)]
    by_id = {e.chunk_id: e for e in entries}
    assert all(visible(by_id[s.chunk_id], scope) for s in results)
    # Complete: never fewer than what the scope holds, up to k.
    assert len(results) == min(k, len(mine))
    assert [(s.score, s.chunk_id) for s in results] == sorted(
        ((s.score, s.chunk_id) for s in results), key=lambda x: (-x[0], x[1])
    )
    if not hybrid and mine:
        # Dense results are exactly the brute-force top-k of the scope's chunks.
        q = EMBEDDER.embed(["chunk of alice"])[0]
        vectors = EMBEDDER.embed([e.text for e in mine])
        pairs = zip(vectors @ q, [e.chunk_id for e in mine], strict=True)
        expected = sorted(pairs, key=lambda x: (-x[0], x[1]))
        assert [s.chunk_id for s in results] == [cid for _, cid in expected[:k]]


def test_conversation_documents_stay_in_their_conversation() -> None:
    parts = build([entry(1, "alice", None), entry(2, "alice", "c1"), entry(3, "bob", None)])
    ids = lambda scope: sorted(s.chunk_id for s in run("x", 10, scope, parts))  # noqa: E731
    assert ids(Scope("alice")) == [1]
    assert ids(Scope("alice", "c1")) == [1, 2]
    assert ids(Scope("alice", "c2")) == [1]
    assert ids(Scope("bob", "c1")) == [3]
    assert ids(Scope("mallory")) == []


def test_sources_carry_citation_fields() -> None:
    e = entry(7, "alice", None, "the kiln reaches 900 degrees")
    (source,) = run("kiln", 3, Scope("alice"), build([e]))
    assert (source.document_id, source.chunk_id, source.filename, source.text, source.page) == (
        "doc-alice-None", 7, "alice.txt", "the kiln reaches 900 degrees", None
    )  # fmt: skip


def test_min_score_filters_and_identical_query_scores_one() -> None:
    entries = [entry(1, "alice", None, "exact text"), entry(2, "alice", None, "other text")]
    parts = build(entries)
    catalog, index, lexical = parts
    results = search("exact text", 5, 0.999, Scope("alice"), embedder=EMBEDDER, index=index,
                     catalog=catalog)  # fmt: skip
    assert [(s.chunk_id, s.score) for s in results] == [(1, 1.0)]


def test_hybrid_lifts_the_chunk_sharing_rare_words() -> None:
    entries = [entry(i, "alice", None, f"filler passage number {i}") for i in range(1, 30)]
    entries.append(entry(30, "alice", None, "the zirconium crucible manual"))
    parts = build(entries)
    dense = run("zirconium crucible", 30, Scope("alice"), parts)
    hybrid = run("zirconium crucible", 30, Scope("alice"), parts,
                 settings=SearchSettings(hybrid=True, lexical_weight=0.5))  # fmt: skip
    assert hybrid[0].chunk_id == 30
    assert [s.chunk_id for s in dense].index(30) > 0  # hash vectors know nothing of words


def test_lexical_statistics_ignore_other_users() -> None:
    lexical = LexicalIndex()
    lexical.add([(1, "kiln glaze"), (2, "glaze only"), (3, "kiln kiln kiln"), (4, "other")])
    alone = lexical.scores("kiln", {1, 2})
    lexical.add([(10, "kiln"), (11, "kiln"), (12, "kiln")])
    assert lexical.scores("kiln", {1, 2}) == alone
    lexical.remove([1])
    assert lexical.scores("kiln", {1, 2}) == {}


@pytest.mark.parametrize(
    ("query", "k", "min_score", "message"),
    [
        ("", 3, 0.0, "query must be non-empty text"),
        ("   ", 3, 0.0, "query must be non-empty text"),
        ("q", 0, 0.0, "k must be an integer in \\[1, 100\\], got 0"),
        ("q", 101, 0.0, "got 101"),
        ("q", True, 0.0, "got True"),
        ("q", 3, float("nan"), "min_score must be a finite number"),
        ("q" * 32_001, 3, 0.0, "query of 32001 characters exceeds 32000"),
    ],
)
def test_bad_queries_raise_typed_errors(query, k, min_score, message) -> None:
    catalog, index, lexical = build([entry(1, "alice", None)])
    with pytest.raises(InvalidQueryError, match=message):
        search(query, k, min_score, Scope("alice"), embedder=EMBEDDER, index=index,
               catalog=catalog)  # fmt: skip
