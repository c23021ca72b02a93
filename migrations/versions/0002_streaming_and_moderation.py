"""Streaming bookkeeping on messages and the moderation events table.

Adds to messages: finish_reason, citations, context (retrieved text rendered into the prompt),
token_ids (the answer's generated ids) and stream_offsets (delta boundaries for resume).
SQLite cannot ALTER much, so the columns go through batch mode there.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.db.base import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = sa.String(32)


def upgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.add_column(sa.Column("finish_reason", sa.String(16), nullable=True))
        batch.add_column(sa.Column("citations", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("context", sa.Text(), nullable=True))
        batch.add_column(sa.Column("token_ids", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("stream_offsets", sa.JSON(), nullable=True))
    op.create_table(
        "moderation_events",
        sa.Column("id", ID, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("user_id", ID, nullable=True),
        sa.Column("conversation_id", ID, nullable=True),
        sa.Column("message_id", ID, nullable=True),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("rail", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.CheckConstraint(
            "action IN ('block', 'redact', 'flag')", name=op.f("ck_moderation_events_action")
        ),
        sa.CheckConstraint(
            "stage IN ('input', 'output')", name=op.f("ck_moderation_events_stage")
        ),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["conversations.id"],
            name=op.f("fk_moderation_events_conversation_id_conversations"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["messages.id"],
            name=op.f("fk_moderation_events_message_id_messages"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_moderation_events_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_events")),
    )
    op.create_index("ix_moderation_events_created", "moderation_events", ["created_at"])
    op.create_index(op.f("ix_moderation_events_user_id"), "moderation_events", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_moderation_events_user_id"), table_name="moderation_events")
    op.drop_index("ix_moderation_events_created", table_name="moderation_events")
    op.drop_table("moderation_events")
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("stream_offsets")
        batch.drop_column("token_ids")
        batch.drop_column("context")
        batch.drop_column("citations")
        batch.drop_column("finish_reason")
