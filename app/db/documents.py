"""Documents and their chunks (the retrieval index mirrors the chunk ids)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Chunk, Document
from app.errors import NotFoundError
from app.textcheck import is_id


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


async def chunk_ids(session: AsyncSession, document_id: str) -> list[int]:
    query = select(Chunk.id).where(Chunk.document_id == document_id).order_by(Chunk.ordinal)
    return list((await session.execute(query)).scalars().all())


async def delete_document(session: AsyncSession, user_id: str, document_id: str) -> list[int]:
    """Delete the user's document; returns the ids of its chunks (to drop from the index)."""
    await get_document(session, user_id, document_id)
    ids = await chunk_ids(session, document_id)
    await session.execute(delete(Document).where(Document.id == document_id))
    return ids
