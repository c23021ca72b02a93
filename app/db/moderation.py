"""Moderation events (what the guardrails blocked, redacted or flagged)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.db.models import ModerationEvent

_clock = threading.Lock()
_last_time: datetime | None = None


class EventFields(Protocol):
    """What a guardrail event carries (app.hooks.GuardEvent)."""

    @property
    def stage(self) -> str: ...
    @property
    def rail(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def excerpt(self) -> str: ...


def event_time() -> datetime:
    """Now, but strictly later than every event stamped before in this process: the admin
    log pages with a `before` time cursor, and two events sharing a time could be split by a
    page edge and one of them never shown."""
    global _last_time
    with _clock:
        now = utcnow()
        if _last_time is not None and now <= _last_time:
            now = _last_time + timedelta(microseconds=1)
        _last_time = now
        return now


async def add_event(session: AsyncSession, **values: object) -> ModerationEvent:
    event = ModerationEvent(created_at=event_time(), **values)
    session.add(event)
    await session.flush()
    return event


async def add_events(
    session: AsyncSession,
    events: Iterable[EventFields],
    *,
    user_id: str,
    conversation_id: str | None = None,
    message_id: str | None = None,
) -> None:
    """One row per event, in the caller's transaction (the one that writes the message the
    events concern)."""
    for e in events:
        session.add(ModerationEvent(
            created_at=event_time(), user_id=user_id, conversation_id=conversation_id,
            message_id=message_id, stage=e.stage, rail=e.rail, action=e.action,
            reason=e.reason, excerpt=e.excerpt,
        ))
    await session.flush()


async def list_events(
    session: AsyncSession,
    *,
    stage: str | None,
    rail: str | None,
    user_id: str | None,
    limit: int,
    before: datetime | None,
    action: str | None = None,
) -> Sequence[ModerationEvent]:
    query = select(ModerationEvent)
    if stage is not None:
        query = query.where(ModerationEvent.stage == stage)
    if rail is not None:
        query = query.where(ModerationEvent.rail == rail)
    if action is not None:
        query = query.where(ModerationEvent.action == action)
    if user_id is not None:
        query = query.where(ModerationEvent.user_id == user_id)
    if before is not None:
        query = query.where(ModerationEvent.created_at < before)
    query = query.order_by(ModerationEvent.created_at.desc(), ModerationEvent.id.desc()).limit(
        limit
    )
    return (await session.execute(query)).scalars().all()
