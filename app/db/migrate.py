"""Run the Alembic migrations programmatically (the only way the schema is made)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url)
    return config


def upgrade_to_head(connection: Connection) -> None:
    """Upgrade on an open (sync-facing) connection; called through `AsyncConnection.run_sync`."""
    run_on_connection(connection, "upgrade", "head")


def run_on_connection(connection: Connection, action: str, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    if action == "upgrade":
        command.upgrade(config, revision)
    elif action == "downgrade":
        command.downgrade(config, revision)
    else:
        raise ValueError(f"unknown migration action {action!r}")
