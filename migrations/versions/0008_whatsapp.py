"""WhatsApp: a contact's channels and window, templates on the outbox

``contacts`` gains the channel a number last wrote on, a channel an administrator
chose, the time of its last WhatsApp message (the 24-hour window) and its WhatsApp
STOP; ``outbox`` gains the WhatsApp template (Content SID and variables) a message
is sent as outside the window.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 12:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("contacts") as batch:
        batch.add_column(sa.Column("last_channel", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("channel", sa.String(length=16), nullable=True))
        batch.add_column(
            sa.Column("whatsapp_at", bot.store.models.UtcDateTime(timezone=True), nullable=True)
        )
        batch.add_column(
            sa.Column(
                "whatsapp_stopped_at", bot.store.models.UtcDateTime(timezone=True), nullable=True
            )
        )
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("content_sid", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("content_variables", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("content_variables")
        batch.drop_column("content_sid")
    with op.batch_alter_table("contacts") as batch:
        batch.drop_column("whatsapp_stopped_at")
        batch.drop_column("whatsapp_at")
        batch.drop_column("channel")
        batch.drop_column("last_channel")
