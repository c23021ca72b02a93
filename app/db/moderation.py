"""Moderation events (what the guardrails blocked, redacted or flagged)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ModerationEvent


async def add_event(session: AsyncSession, **values: object) -> ModerationEvent:
    event = ModerationEvent(**values)
    session.add(event)
    await session.flush()
    return event


async def list_events(
    session: AsyncSession,
    *,
    stage: str | None,
    rail: str | None,
    user_id: str | None,
    limit: int,
    before: datetime | None,
) -> Sequence[ModerationEvent]:
    query = select(ModerationEvent)
    if stage is not None:
        query = query.where(ModerationEvent.stage == stage)
    if rail is not None:
        query = query.where(ModerationEvent.rail == rail)
    if user_id is not None:
        query = query.where(ModerationEvent.user_id == user_id)
    if before is not None:
        query = query.where(ModerationEvent.created_at < before)
    query = query.order_by(ModerationEvent.created_at.desc(), ModerationEvent.id.desc()).limit(
        limit
    )
    return (await session.execute(query)).scalars().all()
