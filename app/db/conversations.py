"""Conversations and their messages. Every query is scoped by the owning user's id."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import new_id, utcnow
from app.db.models import Conversation, Message
from app.errors import NotFoundError
from app.textcheck import is_id


async def list_conversations(
    session: AsyncSession, user_id: str, limit: int, before: datetime | None
) -> Sequence[Conversation]:
    query = select(Conversation).where(Conversation.user_id == user_id)
    if before is not None:
        query = query.where(Conversation.updated_at < before)
    query = query.order_by(Conversation.updated_at.desc(), Conversation.id.desc()).limit(limit)
    return (await session.execute(query)).scalars().all()


async def create_conversation(
    session: AsyncSession, user_id: str, title: str, system_prompt: str | None,
    conversation_id: str | None = None,
) -> Conversation:
    """`conversation_id`: an id chosen earlier (`new_id()`); by default a fresh one."""
    now = utcnow()
    conv = Conversation(
        id=conversation_id or new_id(), user_id=user_id, title=title,
        system_prompt=system_prompt, created_at=now, updated_at=now,
    )
    session.add(conv)
    await session.flush()
    return conv


async def get_conversation(
    session: AsyncSession, user_id: str, conversation_id: str
) -> Conversation:
    """The user's conversation; someone else's looks exactly like a missing one."""
    conv = await session.get(Conversation, conversation_id) if is_id(conversation_id) else None
    if conv is None or conv.user_id != user_id:
        raise NotFoundError(f"conversation {conversation_id!r} not found")
    return conv


async def touch_conversation(session: AsyncSession, conversation_id: str) -> None:
    await session.execute(
        update(Conversation).where(Conversation.id == conversation_id).values(updated_at=utcnow())
    )


async def delete_conversation(session: AsyncSession, user_id: str, conversation_id: str) -> None:
    await get_conversation(session, user_id, conversation_id)
    await session.execute(delete(Conversation).where(Conversation.id == conversation_id))


async def list_messages(session: AsyncSession, conversation_id: str) -> Sequence[Message]:
    query = (
        select(Message)
        .where(Message.conversation_id == conversation_id)
        .order_by(Message.created_at, Message.id)
    )
    return (await session.execute(query)).scalars().all()


async def add_message(session: AsyncSession, **values: Any) -> Message:
    now = utcnow()
    message = Message(created_at=now, updated_at=now, **values)
    session.add(message)
    await session.flush()
    return message


async def get_message(session: AsyncSession, user_id: str, message_id: str) -> Message:
    message = await session.get(Message, message_id) if is_id(message_id) else None
    if message is None or message.user_id != user_id:
        raise NotFoundError(f"message {message_id!r} not found")
    return message


async def update_message(session: AsyncSession, message_id: str, **values: Any) -> None:
    await session.execute(
        update(Message).where(Message.id == message_id).values(updated_at=utcnow(), **values)
    )
