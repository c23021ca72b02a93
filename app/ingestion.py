"""Background ingestion: embed and index a stored document after its upload was answered.

The upload stores the document (`processing`) with its chunk rows and answers 201; a job here
embeds the chunks (progress visible in the documents list) and adds them to the index, then
marks the document `ready`, or `failed` with a reason. Jobs run a few at a time: embedding
is CPU work that shares the machine (and torch's threads) with the engine.

Races with deletion need no lock because chunk ids are never reused: a job marks its document
ready only while it is still `processing`; when it is gone (deleted meanwhile) the job removes
the vectors it may have added, and the delete removes those added before it. Either way the
index ends without them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from app.db import documents as repo
from app.db.session import Database
from app.errors import AppError
from app.hooks import DocumentIngestor, StoredDocument

log = logging.getLogger("hearth.ingestion")


class IngestStopped(Exception):
    """Raised from the progress callback (in the worker thread) to stop embedding a document
    that was deleted, or because the server is stopping."""


@dataclass(slots=True)
class _Job:
    document: StoredDocument
    task: asyncio.Task[None] | None = None
    num_embedded: int = 0
    # Read by the worker thread between batches; set from the event loop.
    stop_requested: bool = False


class IngestionJobs:
    """The running ingestion jobs of one app instance, by document id."""

    def __init__(self, db: Database, max_concurrent: int = 1) -> None:
        self.db = db
        self._slots = asyncio.Semaphore(max_concurrent)
        self._jobs: dict[str, _Job] = {}

    def __len__(self) -> int:
        return len(self._jobs)

    def submit(self, ingestor: DocumentIngestor, document: StoredDocument) -> None:
        job = _Job(document)
        self._jobs[document.document_id] = job
        job.task = asyncio.create_task(self._run(ingestor, job),
                                       name=f"ingest-{document.document_id}")

    def num_embedded(self, document_id: str) -> int | None:
        """Chunks embedded so far of a document being ingested (None: no job for it)."""
        job = self._jobs.get(document_id)
        return None if job is None else job.num_embedded

    def stop(self, document_ids: Iterable[str]) -> None:
        """Ask the jobs of these documents to stop at their next batch (they are deleted)."""
        for document_id in document_ids:
            job = self._jobs.get(document_id)
            if job is not None:
                job.stop_requested = True

    async def shutdown(self) -> None:
        """Stop every job. Their documents stay `processing`; the next start indexes them
        from their stored chunks."""
        jobs = list(self._jobs.values())
        for job in jobs:
            job.stop_requested = True
            if job.task is not None:
                job.task.cancel()
        await asyncio.gather(*(j.task for j in jobs if j.task), return_exceptions=True)

    async def _run(self, ingestor: DocumentIngestor, job: _Job) -> None:
        doc = job.document

        def progress(done: int, total: int) -> None:
            if job.stop_requested:
                raise IngestStopped(f"ingestion of document {doc.document_id!r} stopped")
            job.num_embedded = done

        try:
            async with self._slots:
                if job.stop_requested:
                    raise IngestStopped(f"ingestion of document {doc.document_id!r} stopped")
                await ingestor.index(doc, progress)
        except IngestStopped:
            await self._fail(ingestor, doc, "ingestion was stopped")
        except AppError as exc:
            await self._fail(ingestor, doc, exc.message)
        except Exception:
            log.exception("indexing document %s failed", doc.document_id)
            await self._fail(ingestor, doc, "internal error while indexing the document")
        else:
            await self._succeed(ingestor, doc)
        finally:
            self._jobs.pop(doc.document_id, None)

    async def _succeed(self, ingestor: DocumentIngestor, doc: StoredDocument) -> None:
        try:
            async with self.db.session() as s:
                still_there = await repo.mark_ready(s, doc.document_id)
        except Exception:
            log.exception("could not mark document %s ready", doc.document_id)
            return  # stays processing: the next start finishes it from its rows
        if not still_there:
            await ingestor.remove(doc.chunk_ids)

    async def _fail(self, ingestor: DocumentIngestor, doc: StoredDocument, reason: str) -> None:
        try:
            async with self.db.session() as s:
                await repo.mark_failed(s, doc.document_id, reason)
        except Exception:
            log.exception("could not mark document %s failed", doc.document_id)
        # Some batches may have reached the index before the failure.
        await ingestor.remove(doc.chunk_ids)
