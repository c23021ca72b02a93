"""The one object the app holds: embedder + vector index + chunk catalog (+ BM25), kept in
step. Every method is blocking and thread-safe; call them from worker threads."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from retrieval.catalog import ChunkCatalog
from retrieval.chunking import ChunkingSettings
from retrieval.embedder import Embedder
from retrieval.errors import InvalidSettingError, VectorIndexError
from retrieval.index import IndexSettings, LoadReport, VectorIndex, load_or_rebuild
from retrieval.ingest import PreparedDocument, Progress, prepare_document
from retrieval.lexical import LexicalIndex
from retrieval.limits import ParseLimits
from retrieval.search import SearchSettings, search
from retrieval.types import ChunkRecord, IndexedChunk, Scope, Source

StoreChunks = Callable[[Sequence[ChunkRecord]], Sequence[int]]


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    chunking: ChunkingSettings = field(default_factory=ChunkingSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    parse_limits: ParseLimits = field(default_factory=ParseLimits)
    embed_batch_size: int = 32
    # Write the index file after every add/remove; off, the app calls save() (e.g. at exit).
    autosave: bool = True

    def __post_init__(self) -> None:
        if self.embed_batch_size <= 0:
            raise InvalidSettingError(
                f"embed_batch_size must be positive, got {self.embed_batch_size}"
            )


class Retriever:
    """Invariant (between calls): the catalog's ids equal the index's ids. Additions enter
    the catalog last and removals leave it first, so a concurrent search, which resolves its
    scope through the catalog, never sees a chunk that is half added or half removed."""

    def __init__(
        self,
        folder: Path,
        embedder: Embedder,
        index: VectorIndex,
        catalog: ChunkCatalog,
        config: RetrievalConfig,
        load_report: LoadReport,
    ) -> None:
        self.folder = folder
        self.embedder = embedder
        self.index = index
        self.catalog = catalog
        self.config = config
        self.load_report = load_report
        self.lexical = LexicalIndex()
        self.lexical.add((c.chunk_id, c.text) for c in catalog.get(sorted(catalog.ids())).values())
        self._mutation_lock = threading.Lock()

    @classmethod
    def open(
        cls,
        folder: Path | str,
        embedder: Embedder,
        chunks: Iterable[IndexedChunk],
        config: RetrievalConfig | None = None,
    ) -> Retriever:
        """Open the index in `folder` for the database's `chunks` (all of them, every user).
        Chunks the saved index lacks are embedded again; see `load_or_rebuild`."""
        config = config or RetrievalConfig()
        folder = Path(folder)
        catalog = ChunkCatalog(chunks)

        def fetch_vectors(ids: Sequence[int]) -> np.ndarray:
            return embedder.embed(catalog.texts(ids), config.embed_batch_size)

        index, report = load_or_rebuild(
            folder, catalog.ids(), fetch_vectors, embedder.dim, config.index
        )
        return cls(folder, embedder, index, catalog, config, report)

    def prepare(
        self,
        data: bytes,
        filename: str | None,
        document_id: str,
        progress: Progress | None = None,
    ) -> PreparedDocument:
        """Parse, chunk and embed an upload (no state changes). See ingest.prepare_document."""
        return prepare_document(
            data,
            filename,
            document_id,
            self.embedder,
            self.config.chunking,
            self.config.parse_limits,
            self.config.embed_batch_size,
            progress,
        )

    def add(
        self,
        prepared: PreparedDocument,
        chunk_ids: Sequence[int],
        owner_id: str,
        conversation_id: str | None = None,
        filename: str | None = None,
    ) -> list[IndexedChunk]:
        """Index a prepared document whose records the app stored as rows `chunk_ids`
        (same order). `filename` defaults to the sanitized upload name."""
        if len(chunk_ids) != len(prepared.records):
            raise VectorIndexError(
                f"{len(chunk_ids)} chunk ids for {len(prepared.records)} chunk records"
            )
        entries = [
            IndexedChunk(
                chunk_id=int(cid),
                document_id=prepared.document_id,
                owner_id=owner_id,
                conversation_id=conversation_id,
                filename=filename or prepared.display_name,
                ordinal=r.ordinal,
                text=r.text,
                page=r.page,
            )
            for cid, r in zip(chunk_ids, prepared.records, strict=True)
        ]
        with self._mutation_lock:
            self.index.add([e.chunk_id for e in entries], prepared.vectors)
            self.lexical.add((e.chunk_id, e.text) for e in entries)
            self.catalog.add(entries)
            if self.config.autosave:
                self.index.save(self.folder)
        return entries

    def ingest(
        self,
        data: bytes,
        filename: str | None,
        document_id: str,
        owner_id: str,
        store_chunks: StoreChunks,
        conversation_id: str | None = None,
        progress: Progress | None = None,
    ) -> list[IndexedChunk]:
        """prepare -> store_chunks(records) -> ids -> add, for callers with a blocking store."""
        prepared = self.prepare(data, filename, document_id, progress)
        chunk_ids = list(store_chunks(prepared.records))
        return self.add(prepared, chunk_ids, owner_id, conversation_id)

    def remove_chunks(self, chunk_ids: Iterable[int]) -> int:
        """Drop chunks from search and from the index; returns how many vectors left."""
        with self._mutation_lock:
            removed = self.catalog.remove(chunk_ids)
            ids = [e.chunk_id for e in removed]
            self.lexical.remove(ids)
            count = self.index.remove(ids)
            if count and self.config.autosave:
                self.index.save(self.folder)
        return count

    def remove_document(self, document_id: str) -> int:
        return self.remove_chunks(self.catalog.document_chunk_ids(document_id))

    def search(self, query: str, scope: Scope, k: int = 4, min_score: float = 0.0) -> list[Source]:
        return search(
            query,
            k,
            min_score,
            scope,
            embedder=self.embedder,
            index=self.index,
            catalog=self.catalog,
            lexical=self.lexical,
            settings=self.config.search,
        )

    def save(self) -> Path:
        return self.index.save(self.folder)
