"""Migrations are the only way the schema is made: they round-trip with data and match the
models (the equivalent of `alembic check`), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app.db.migrate import run_on_connection
from app.db.models import Base
from app.db.session import Database


def _run(coro):
    return asyncio.run(coro)


async def _seed(db: Database) -> None:
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC).replace(tzinfo=None)
    async with db.engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO users (id, username, password_hash, role, created_at) "
            "VALUES ('u1', 'alice', 'scrypt$x', 'admin', :t)"), {"t": now})
        await conn.execute(text(
            "INSERT INTO tokens (id, user_id, token_hash, created_at, expires_at) "
            "VALUES ('t1', 'u1', 'abc', :t, :t)"), {"t": now})
        await conn.execute(text(
            "INSERT INTO conversations (id, user_id, title, created_at, updated_at) "
            "VALUES ('c1', 'u1', 'hello', :t, :t)"), {"t": now})
        await conn.execute(text(
            "INSERT INTO messages (id, conversation_id, user_id, role, content, status, "
            "created_at, updated_at) VALUES ('m1', 'c1', 'u1', 'user', 'hi', 'complete', :t, :t)"),
            {"t": now})
        await conn.execute(text(
            "INSERT INTO documents (id, user_id, filename, content_type, size_bytes, sha256, "
            "status, num_chunks, created_at) VALUES "
            "('d1', 'u1', 'a.txt', 'text/plain', 3, 'ff', 'ready', 1, :t)"), {"t": now})
        await conn.execute(text(
            "INSERT INTO chunks (document_id, ordinal, text, char_start, char_end) "
            "VALUES ('d1', 0, 'abc', 0, 3)"))


async def _snapshot(db: Database) -> dict[str, list[tuple]]:
    async with db.engine.connect() as conn:
        return {
            "users": (await conn.execute(text("SELECT id, username, role FROM users"))).all(),
            "tokens": (await conn.execute(text("SELECT id, token_hash FROM tokens"))).all(),
            "conversations": (await conn.execute(text("SELECT id, title FROM conversations"))).all(),
            "messages": (await conn.execute(text("SELECT id, content FROM messages"))).all(),
            "documents": (await conn.execute(text("SELECT id, filename FROM documents"))).all(),
            "chunks": (await conn.execute(text("SELECT document_id, text FROM chunks"))).all(),
        }


async def _columns(db: Database, table: str) -> set[str]:
    async with db.engine.connect() as conn:
        return await conn.run_sync(
            lambda c: {col["name"] for col in inspect(c).get_columns(table)}
        )


async def _migrate(db: Database, action: str, revision: str) -> None:
    async with db.engine.begin() as conn:
        await conn.run_sync(lambda c: run_on_connection(c, action, revision))


def test_upgrade_downgrade_upgrade_keeps_data(db_target) -> None:
    async def scenario() -> None:
        db = Database(db_target.url, db_target.schema)
        try:
            await _seed(db)
            before = await _snapshot(db)
            assert before["users"] == [("u1", "alice", "admin")]
            await _migrate(db, "downgrade", "0001")
            assert "token_ids" not in await _columns(db, "messages")
            assert await _snapshot(db) == before
            await _migrate(db, "upgrade", "head")
            assert {"finish_reason", "token_ids", "stream_offsets"} <= await _columns(
                db, "messages")
            assert await _snapshot(db) == before
        finally:
            await db.dispose()

    _run(scenario())


def test_models_and_migrations_do_not_drift(db_target) -> None:
    async def scenario() -> list:
        db = Database(db_target.url, db_target.schema)
        try:
            async with db.engine.connect() as conn:
                return await conn.run_sync(lambda c: compare_metadata(
                    MigrationContext.configure(c, opts={"compare_type": True}), Base.metadata))
        finally:
            await db.dispose()

    assert _run(scenario()) == []


def test_crash_recovery_marks_streaming_messages_interrupted(db_target) -> None:
    async def scenario() -> tuple[int, list]:
        db = Database(db_target.url, db_target.schema)
        try:
            await _seed(db)
            now = datetime.now(UTC).replace(tzinfo=None)
            async with db.engine.begin() as conn:
                await conn.execute(text(
                    "INSERT INTO messages (id, conversation_id, user_id, parent_id, role, "
                    "content, status, created_at, updated_at) VALUES "
                    "('m2', 'c1', 'u1', 'm1', 'assistant', 'half an ans', 'streaming', :t, :t)"),
                    {"t": now})
            count = await db.recover_interrupted()
            async with db.engine.connect() as conn:
                rows = (await conn.execute(text(
                    "SELECT id, status, finish_reason, content FROM messages ORDER BY id"))).all()
            return count, rows
        finally:
            await db.dispose()

    count, rows = _run(scenario())
    assert count == 1
    assert rows == [("m1", "complete", None, "hi"),
                    ("m2", "interrupted", "error", "half an ans")]
