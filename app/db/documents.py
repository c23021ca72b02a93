"""Documents and their chunks (the retrieval index mirrors the chunk ids).

A document's status moves `processing` -> `ready` | `failed`. Its chunk rows are stored with it,
in one transaction, before embedding starts, so a `processing` document always has all of its
chunks and a restart can ingest it again from the rows. A failed document keeps no chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Chunk, Document
from app.errors import NotFoundError
from app.hooks import ChunkDraft, PreparedUpload, StoredDocument
from app.textcheck import is_id


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """A stored chunk with its document's owner scope, as the index is built from it."""

    chunk_id: int
    document_id: str
    user_id: str
    conversation_id: str | None
    filename: str
    ordinal: int
    text: str
    page: int | None


async def list_documents(session: AsyncSession, user_id: str) -> Sequence[Document]:
    query = (
        select(Document)
        .where(Document.user_id == user_id)
        .order_by(Document.created_at.desc(), Document.id.desc())
    )
    return (await session.execute(query)).scalars().all()


async def get_document(session: AsyncSession, user_id: str, document_id: str) -> Document:
    document = await session.get(Document, document_id) if is_id(document_id) else None
    if document is None or document.user_id != user_id:
        raise NotFoundError(f"document {document_id!r} not found")
    return document


async def create_document(
    session: AsyncSession,
    *,
    user_id: str,
    conversation_id: str | None,
    upload: PreparedUpload,
    size_bytes: int,
    sha256: str,
) -> tuple[Document, list[int]]:
    """Store a `processing` document with its chunk rows; returns it and the chunk ids in
    the order of `upload.chunks`."""
    doc = Document(
        user_id=user_id, conversation_id=conversation_id, filename=upload.filename[:255],
        content_type=upload.content_type[:100], size_bytes=size_bytes, sha256=sha256,
        status="processing", num_chunks=len(upload.chunks),
    )
    session.add(doc)
    await session.flush()
    rows = [
        Chunk(document_id=doc.id, ordinal=c.ordinal, text=c.text, page=c.page,
              char_start=c.char_start, char_end=c.char_end)
        for c in upload.chunks
    ]
    session.add_all(rows)
    await session.flush()
    return doc, [row.id for row in rows]


async def chunk_ids(session: AsyncSession, document_id: str) -> list[int]:
    query = select(Chunk.id).where(Chunk.document_id == document_id).order_by(Chunk.ordinal)
    return list((await session.execute(query)).scalars().all())


async def delete_document(session: AsyncSession, user_id: str, document_id: str) -> list[int]:
    """Delete the user's document; returns the ids of its chunks (to drop from the index)."""
    await get_document(session, user_id, document_id)
    ids = await chunk_ids(session, document_id)
    await session.execute(delete(Document).where(Document.id == document_id))
    return ids


async def conversation_documents(
    session: AsyncSession, conversation_id: str
) -> tuple[list[str], list[int]]:
    """Ids of the documents scoped to a conversation and of their chunks (deleting the
    conversation deletes them by cascade; the index must drop them too)."""
    doc_ids = list((await session.execute(
        select(Document.id).where(Document.conversation_id == conversation_id)
    )).scalars().all())
    if not doc_ids:
        return [], []
    ids = (await session.execute(
        select(Chunk.id).where(Chunk.document_id.in_(doc_ids))
    )).scalars().all()
    return doc_ids, list(ids)


async def mark_ready(session: AsyncSession, document_id: str) -> bool:
    """`processing` -> `ready`; False when the document is gone (deleted meanwhile)."""
    result = await session.execute(
        update(Document)
        .where(Document.id == document_id, Document.status == "processing")
        .values(status="ready", error=None)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def mark_failed(session: AsyncSession, document_id: str, reason: str) -> bool:
    """`processing` -> `failed` with a reason, dropping its chunk rows; False when gone."""
    result = await session.execute(
        update(Document)
        .where(Document.id == document_id, Document.status == "processing")
        .values(status="failed", error=reason[:2000])
    )
    if not result.rowcount:  # type: ignore[attr-defined]
        return False
    await session.execute(delete(Chunk).where(Chunk.document_id == document_id))
    return True


async def indexed_chunks(session: AsyncSession) -> list[ChunkRow]:
    """Every chunk of a `ready` document, all users, by id: what the index must hold."""
    query = (
        select(Chunk.id, Chunk.document_id, Document.user_id, Document.conversation_id,
               Document.filename, Chunk.ordinal, Chunk.text, Chunk.page)
        .join(Document, Document.id == Chunk.document_id)
        .where(Document.status == "ready")
        .order_by(Chunk.id)
    )
    return [ChunkRow(*row) for row in (await session.execute(query)).all()]


async def processing_documents(session: AsyncSession) -> list[StoredDocument]:
    """Documents left `processing` (by a crash or a stop), with their stored chunks, oldest
    first: ingestion picks them up again at start."""
    docs = (await session.execute(
        select(Document).where(Document.status == "processing").order_by(Document.created_at)
    )).scalars().all()
    if not docs:
        return []
    rows = (await session.execute(
        select(Chunk).where(Chunk.document_id.in_([d.id for d in docs]))
        .order_by(Chunk.document_id, Chunk.ordinal)
    )).scalars().all()
    chunks: dict[str, list[Chunk]] = {}
    for row in rows:
        chunks.setdefault(row.document_id, []).append(row)
    return [
        StoredDocument(
            document_id=d.id, user_id=d.user_id, conversation_id=d.conversation_id,
            filename=d.filename, content_type=d.content_type,
            chunks=tuple(ChunkDraft(ordinal=c.ordinal, text=c.text, char_start=c.char_start,
                                    char_end=c.char_end, page=c.page)
                         for c in chunks.get(d.id, ())),
            chunk_ids=tuple(c.id for c in chunks.get(d.id, ())),
        )
        for d in docs
    ]
