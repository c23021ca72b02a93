"""The database handle: async engine, session factory, migration to head, crash recovery."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, update
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.db.base import utcnow
from app.db.migrate import upgrade_to_head
from app.db.models import Message


class DatabaseUrlError(ValueError):
    """A database URL Hearth cannot use."""


def make_engine(url: str, schema: str | None = None) -> AsyncEngine:
    """An async engine for SQLite (aiosqlite) or PostgreSQL (asyncpg)."""
    connect_args: dict[str, Any] = {}
    if url.startswith("sqlite"):
        if not url.startswith("sqlite+aiosqlite://"):
            raise DatabaseUrlError(f"SQLite URLs must use the aiosqlite driver, got {url!r}")
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connect_args["timeout"] = 30
    elif url.startswith("postgresql"):
        if not url.startswith("postgresql+asyncpg://"):
            raise DatabaseUrlError(f"PostgreSQL URLs must use the asyncpg driver, got {url!r}")
        if schema:
            connect_args["server_settings"] = {"search_path": schema}
    else:
        raise DatabaseUrlError(f"unsupported database URL {url!r} (SQLite or PostgreSQL)")
    engine = create_async_engine(url, connect_args=connect_args, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Cascades need foreign keys on; WAL lets readers and the streaming writer overlap.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Database:
    """Owns the engine and the session factory for one app instance."""

    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        self.engine = make_engine(url, schema)
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error."""
        async with self.sessionmaker() as session, session.begin():
            yield session

    async def migrate(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(upgrade_to_head)

    async def recover_interrupted(self) -> int:
        """Mark every message still `streaming` as interrupted (the process that wrote it died)."""
        async with self.session() as session:
            result = await session.execute(
                update(Message)
                .where(Message.status == "streaming")
                .values(status="interrupted", finish_reason="error", updated_at=utcnow())
            )
            return int(result.rowcount or 0)  # type: ignore[attr-defined]

    async def dispose(self) -> None:
        await self.engine.dispose()
