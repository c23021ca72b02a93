"""Chunk ids are never reused: AUTOINCREMENT on SQLite.

A chunk's id is its vector id in the retrieval index file. SQLite by default hands out
max(id) + 1, so after the newest chunks are deleted their ids come back, and an index file
that still held the old vectors (a crash between the database commit and the index save)
would pair a new chunk with an old vector. AUTOINCREMENT never reuses an id. PostgreSQL's
identity column never did, so nothing changes there.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _recreate_chunks(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table(
        "chunks", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass


def upgrade() -> None:
    _recreate_chunks(True)


def downgrade() -> None:
    _recreate_chunks(False)
