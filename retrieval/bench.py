"""Retrieval speed: ingesting a 1 MB text file, and search latency over a 10k-chunk index."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from retrieval.catalog import ChunkCatalog
from retrieval.embedder import Embedder
from retrieval.index import IndexSettings, VectorIndex
from retrieval.lexical import LexicalIndex
from retrieval.quality import CORPUS_DIR
from retrieval.retriever import RetrievalConfig, Retriever
from retrieval.search import SearchSettings, search
from retrieval.types import IndexedChunk, Scope


@dataclass(frozen=True, slots=True)
class IngestResult:
    num_bytes: int
    num_chunks: int
    parse_chunk_seconds: float
    embed_seconds: float
    index_seconds: float

    @property
    def total_seconds(self) -> float:
        return self.parse_chunk_seconds + self.embed_seconds + self.index_seconds


@dataclass(frozen=True, slots=True)
class SearchLatency:
    name: str
    num_chunks: int
    num_allowed: int
    p50_ms: float
    p95_ms: float
    index_p50_ms: float  # the search minus the query embedding


def megabyte_text(num_bytes: int = 1_000_000, corpus_dir: Path = CORPUS_DIR) -> bytes:
    """Real text of the requested size: the corpus repeated, cut at a line end."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(corpus_dir.iterdir())]
    block = "\n\n".join(parts).encode()
    data = (block * (num_bytes // len(block) + 1))[:num_bytes]
    return data[: data.rfind(b"\n") + 1]


def bench_ingest(retriever: Retriever, data: bytes) -> IngestResult:
    """Time one upload through the same steps ingestion uses; the embedder is timed through
    the progress callback's first call, which comes after parsing and chunking."""
    marks: list[float] = []
    start = time.perf_counter()

    def mark(_done: int, _total: int) -> None:
        marks.append(time.perf_counter())

    prepared = retriever.prepare(data, "bench.txt", "bench-doc", progress=mark)
    embedded = time.perf_counter()
    next_id = 1 + max(retriever.catalog.ids(), default=0)
    ids = list(range(next_id, next_id + len(prepared.records)))
    retriever.add(prepared, ids, owner_id="bench-user")
    indexed = time.perf_counter()
    return IngestResult(
        num_bytes=len(data),
        num_chunks=len(prepared.records),
        parse_chunk_seconds=marks[0] - start,
        embed_seconds=embedded - marks[0],
        index_seconds=indexed - embedded,
    )


def _synthetic_collection(
    texts: Sequence[str], vectors: np.ndarray, num_chunks: int, num_users: int, seed: int = 0
) -> tuple[list[IndexedChunk], np.ndarray]:
    """num_chunks entries cycling over real chunk texts; vectors are the real ones with small
    noise (so duplicates are not exact ties), owners spread round-robin over num_users."""
    rng = np.random.default_rng(seed)
    picks = np.arange(num_chunks) % len(texts)
    noisy = vectors[picks] + rng.normal(0, 0.02, (num_chunks, vectors.shape[1]))
    noisy = (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)
    entries = [
        IndexedChunk(
            chunk_id=i + 1,
            document_id=f"doc-{i // 50}",
            owner_id=f"user-{(i // 50) % num_users}",
            conversation_id=None,
            filename=f"file-{i // 50}.txt",
            ordinal=i % 50,
            text=texts[picks[i]],
        )
        for i in range(num_chunks)
    ]
    return entries, noisy


def bench_search(
    embedder: Embedder,
    texts: Sequence[str],
    vectors: np.ndarray,
    queries: Sequence[str],
    num_chunks: int = 10_000,
    k: int = 4,
) -> list[SearchLatency]:
    """End-to-end search latency (query embedding + scope + index + catalog) and the index
    part alone, over num_chunks chunks: spread over 20 users (one user's scope is searched,
    the exact path) or all owned by one user (FAISS filtered by an IDSelector)."""
    query_vectors = embedder.embed(list(queries))
    cases = [
        ("flat, 1 of 20 users", "flat", False, 20),
        ("flat, 1 of 20 users, hybrid", "flat", True, 20),
        ("hnsw, 1 of 20 users", "hnsw", False, 20),
        ("flat, single user", "flat", False, 1),
        ("flat, single user, hybrid", "flat", True, 1),
        ("hnsw, single user", "hnsw", False, 1),
    ]
    results = []
    for name, kind, hybrid, num_users in cases:
        entries, noisy = _synthetic_collection(texts, vectors, num_chunks, num_users)
        catalog = ChunkCatalog(entries)
        lexical = LexicalIndex()
        lexical.add((e.chunk_id, e.text) for e in entries)
        index = VectorIndex(embedder.dim, IndexSettings(kind=kind))
        index.add([e.chunk_id for e in entries], noisy)
        scope = Scope("user-0")
        settings = SearchSettings(hybrid=hybrid)
        totals, index_only = [], []
        for query, qv in zip(queries, query_vectors, strict=True):
            t0 = time.perf_counter()
            search(query, k, -1.0, scope, embedder=embedder, index=index, catalog=catalog,
                   lexical=lexical, settings=settings)  # fmt: skip
            t1 = time.perf_counter()
            index.search(qv, k, catalog.allowed_ids(scope))
            t2 = time.perf_counter()
            totals.append(t1 - t0)
            index_only.append(t2 - t1)
        allowed = len(catalog.allowed_ids(scope))
        results.append(_latency(name, num_chunks, allowed, totals, index_only))
    return results


def _latency(
    name: str, num_chunks: int, num_allowed: int, totals: list[float], index_only: list[float]
) -> SearchLatency:
    ms = sorted(t * 1000 for t in totals)
    return SearchLatency(
        name=name,
        num_chunks=num_chunks,
        num_allowed=num_allowed,
        p50_ms=statistics.median(ms),
        p95_ms=ms[min(len(ms) - 1, int(0.95 * len(ms)))],
        index_p50_ms=statistics.median(t * 1000 for t in index_only),
    )


def new_retriever(folder: Path, embedder: Embedder, config: RetrievalConfig) -> Retriever:
    return Retriever.open(folder, embedder, [], config)
