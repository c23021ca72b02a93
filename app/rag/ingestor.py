"""The upload side of retrieval behind the app's DocumentIngestor seam.

`prepare` parses and chunks (answering the upload with 413/415/422 for a bad file); `index`
embeds the stored chunks batch by batch, reporting progress, and adds them to the index under
their database ids. Everything blocking runs in worker threads.

The two steps are `retrieval.ingest.prepare_document` split at the database write: parsing
and chunking must finish before the upload is answered (its errors are the answer), while
embedding, the slow part, runs after it in the background.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import numpy as np

from app.errors import PayloadTooLargeError, UnreadableDocumentError, UnsupportedMediaTypeError
from app.hooks import ChunkDraft, IngestProgress, PreparedUpload, StoredDocument
from retrieval import errors
from retrieval.chunking import chunk_document
from retrieval.ingest import PreparedDocument, effective_chunking
from retrieval.parsing import parse_document
from retrieval.retriever import Retriever
from retrieval.types import ChunkRecord

log = logging.getLogger("hearth.documents")

CONTENT_TYPES = {
    "text": "text/plain",
    "markdown": "text/markdown",
    "html": "text/html",
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
_KINDS = {v: k for k, v in CONTENT_TYPES.items()}


class RetrievalIngestor:
    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever

    async def prepare(self, filename: str | None, data: bytes) -> PreparedUpload:
        return await asyncio.to_thread(self._prepare, filename, data)

    async def index(self, document: StoredDocument, progress: IngestProgress) -> None:
        await asyncio.to_thread(self._index, document, progress)

    async def remove(self, chunk_ids: Sequence[int]) -> None:
        if chunk_ids:
            await asyncio.to_thread(self.retriever.remove_chunks, chunk_ids)

    # ------------------------------------------------------------------------ worker threads
    def _prepare(self, filename: str | None, data: bytes) -> PreparedUpload:
        config, embedder = self.retriever.config, self.retriever.embedder
        try:
            parsed = parse_document(data, filename, config.parse_limits)
            chunking = effective_chunking(config.chunking, embedder)
            chunks = chunk_document(parsed, embedder.count_tokens, chunking)
        except errors.DocumentTooLargeError as exc:
            raise PayloadTooLargeError(str(exc)) from None
        except errors.UnreadableDocumentError as exc:
            raise UnreadableDocumentError(str(exc)) from None
        except errors.UnsupportedTypeError as exc:
            raise UnsupportedMediaTypeError(str(exc)) from None
        except Exception:
            # A parser bug on hostile input must still answer as bad input, not as a crash.
            log.exception("parsing an upload failed unexpectedly")
            raise UnreadableDocumentError(
                "the file could not be parsed; it may be damaged"
            ) from None
        if not chunks:
            raise UnreadableDocumentError(
                f"cannot read {parsed.display_name!r}: no text to index"
            )
        drafts = tuple(
            ChunkDraft(ordinal=c.ordinal, text=c.text, char_start=c.char_start,
                       char_end=c.char_end, page=c.page)
            for c in chunks
        )
        return PreparedUpload(filename=parsed.display_name,
                              content_type=CONTENT_TYPES[parsed.kind], chunks=drafts)

    def _index(self, doc: StoredDocument, progress: IngestProgress) -> None:
        embedder, batch = self.retriever.embedder, self.retriever.config.embed_batch_size
        records = tuple(
            ChunkRecord(document_id=doc.document_id, ordinal=c.ordinal, text=c.text,
                        page=c.page, char_start=c.char_start, char_end=c.char_end)
            for c in doc.chunks
        )
        vectors = np.empty((len(records), embedder.dim), dtype=np.float32)  # (n, dim)
        progress(0, len(records))
        for start in range(0, len(records), batch):
            texts = [r.text for r in records[start : start + batch]]
            vectors[start : start + len(texts)] = embedder.embed(texts, batch)  # (b, dim)
            progress(start + len(texts), len(records))
        prepared = PreparedDocument(
            document_id=doc.document_id,
            display_name=doc.filename,
            kind=_KINDS.get(doc.content_type, "text"),
            num_chars=max((c.char_end for c in doc.chunks), default=0),
            records=records,
            vectors=vectors,
        )
        self.retriever.add(prepared, doc.chunk_ids, doc.user_id, doc.conversation_id,
                           doc.filename)
