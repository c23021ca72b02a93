"""Alembic environment: async engines (aiosqlite, asyncpg), batch mode for SQLite.

When the app migrates on start it passes its own connection in `config.attributes`;
the `alembic` command line builds an engine from the settings instead.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.db.models import Base

target_metadata = Base.metadata


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_with_new_engine(url: str, schema: str | None) -> None:
    from app.db.session import make_engine

    engine = make_engine(url, schema)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_configure_and_run)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    schema = None
    if not url:
        from app.settings import Settings

        settings = Settings()
        url, schema = settings.resolved_database_url, settings.database_schema
    asyncio.run(_run_with_new_engine(url, schema))


def run_migrations_offline() -> None:
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url") or "sqlite://",
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
