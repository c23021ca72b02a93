"""RetrievalService: the app-lifetime part of retrieval (an `app.main.Service`).

At start: load the embedder, open the index in `<data_dir>/index` for the chunks of every
ready document (the database is the source of truth: `Retriever.open` repairs or rebuilds the
file to match it), plug the document ingestor and the chat turn's search into the app's hooks,
and hand documents a previous run left `processing` back to background ingestion (their chunks
were stored before embedding began), so a crash mid-upload neither loses the document nor
holds up the start.

Threads: the embedder runs in worker threads next to the engine loop thread. torch's
intra-op thread count is process-wide, so it is left as the engine set it (changing it from a
worker would change the engine's too); instead ingestion embeds one document at a time
(`retrieval.max_concurrent_ingestions`), so at most one bulk embedding competes with the
model for the cores. A search embeds only its short query.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from app.db import documents as repo
from app.rag.config import index_folder, retrieval_config
from app.rag.ingestor import RetrievalIngestor
from app.rag.search import DocumentSearch
from app.state import AppState
from retrieval.embedder import Embedder
from retrieval.retriever import Retriever
from retrieval.types import IndexedChunk

log = logging.getLogger("hearth.retrieval")


class RetrievalService:
    def __init__(self, embedder: Embedder | None = None) -> None:
        # A loaded embedder may be shared (tests; it is immutable and thread-safe).
        self._embedder = embedder
        self.retriever: Retriever | None = None

    @property
    def embedder(self) -> Embedder | None:
        """The embedder in use once started (the guardrails share it)."""
        return self._embedder

    async def start(self, state: AppState) -> None:
        settings = state.settings
        if not settings.retrieval.enabled:
            return
        embedder = self._embedder
        if embedder is None:
            embedder = await asyncio.to_thread(Embedder.load, settings.retrieval.embedding_model)
            self._embedder = embedder
        async with state.db.session() as s:
            rows = await repo.indexed_chunks(s)
        chunks = [
            IndexedChunk(chunk_id=r.chunk_id, document_id=r.document_id, owner_id=r.user_id,
                         conversation_id=r.conversation_id, filename=r.filename,
                         ordinal=r.ordinal, text=r.text, page=r.page)
            for r in rows
        ]
        retriever = await asyncio.to_thread(
            Retriever.open, index_folder(settings), embedder, chunks, retrieval_config(settings)
        )
        report = retriever.load_report
        if report.status == "loaded" or not chunks:
            log.info("retrieval index %s: %d chunks", report.status, len(chunks))
        else:
            log.warning("retrieval index %s (%s): %d vectors embedded, %d stale removed",
                        report.status, report.reason, report.num_added, report.num_removed)
        self.retriever = retriever
        ingestor = RetrievalIngestor(retriever)
        state.hooks = dataclasses.replace(
            state.hooks,
            retrieve=DocumentSearch(retriever, settings.retrieval, state.prompts.count_tokens),
            documents=ingestor,
        )
        async with state.db.session() as s:
            unfinished = await repo.processing_documents(s)
        if unfinished:
            log.warning("ingesting again %d documents a previous run left processing",
                        len(unfinished))
        for document in unfinished:
            state.ingestion.submit(ingestor, document)

    async def stop(self) -> None:
        if self.retriever is not None:
            await asyncio.to_thread(self.retriever.save)
