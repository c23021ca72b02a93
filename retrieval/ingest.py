"""Upload -> parse -> chunk -> embed, ready for the app to store and the index to take.

The app owns the database and retrieval owns the index, so ingestion is two steps with the
database write between them:

1. `prepare_document(...)` (worker thread): the slow part; touches neither database nor index.
2. The app stores `prepared.records` as chunk rows and gets their ids.
3. `Retriever.add(prepared, chunk_ids, ...)` (worker thread): vectors into the index.

If the process dies between 2 and 3, the index lacks those ids and `load_or_rebuild` at the
next start embeds them from the database rows, so the database stays the source of truth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from retrieval.chunking import ChunkingSettings, chunk_document
from retrieval.embedder import Embedder
from retrieval.errors import InvalidSettingError, UnreadableDocumentError
from retrieval.limits import ParseLimits
from retrieval.parsing import parse_document
from retrieval.types import ChunkRecord

Progress = Callable[[int, int], None]  # (chunks embedded so far, total chunks)


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    """A parsed, chunked and embedded upload. vectors[i] belongs to records[i]."""

    document_id: str
    display_name: str
    kind: str
    num_chars: int
    records: tuple[ChunkRecord, ...]
    vectors: np.ndarray  # (len(records), dim) float32, unit rows


def effective_chunking(settings: ChunkingSettings, embedder: Embedder) -> ChunkingSettings:
    """The settings capped to what the embedder reads in one pass, so no chunk is truncated
    when embedded (the app's 256-token default becomes 254 for MiniLM)."""
    if settings.max_tokens <= embedder.max_chunk_tokens:
        return settings
    cap = embedder.max_chunk_tokens
    return ChunkingSettings(max_tokens=cap, overlap_tokens=min(settings.overlap_tokens, cap // 2))


def prepare_document(
    data: bytes,
    filename: str | None,
    document_id: str,
    embedder: Embedder,
    chunking: ChunkingSettings | None = None,
    limits: ParseLimits | None = None,
    batch_size: int = 32,
    progress: Progress | None = None,
) -> PreparedDocument:
    """Parse, chunk and embed one upload. Raises the parsing errors (UnsupportedTypeError,
    UnreadableDocumentError, DocumentTooLargeError); calls progress(done, total) after each
    embedding batch, starting with (0, total)."""
    if batch_size <= 0:
        raise InvalidSettingError(f"batch_size must be positive, got {batch_size}")
    doc = parse_document(data, filename, limits)
    settings = effective_chunking(chunking or ChunkingSettings(), embedder)
    chunks = chunk_document(doc, embedder.count_tokens, settings)
    if not chunks:
        raise UnreadableDocumentError(doc.display_name, "no text to index")
    records = tuple(
        ChunkRecord(
            document_id=document_id,
            ordinal=c.ordinal,
            text=c.text,
            page=c.page,
            char_start=c.char_start,
            char_end=c.char_end,
        )
        for c in chunks
    )
    vectors = np.empty((len(records), embedder.dim), dtype=np.float32)
    if progress is not None:
        progress(0, len(records))
    for start in range(0, len(records), batch_size):
        batch = records[start : start + batch_size]
        vectors[start : start + len(batch)] = embedder.embed([r.text for r in batch], batch_size)
        if progress is not None:
            progress(start + len(batch), len(records))
    return PreparedDocument(
        document_id=document_id,
        display_name=doc.display_name,
        kind=doc.kind,
        num_chars=len(doc.text),
        records=records,
        vectors=vectors,
    )
