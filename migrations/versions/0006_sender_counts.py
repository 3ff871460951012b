"""sender counts: messages answered per sender in the current window (limits)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sender_counts",
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("sender", sa.String(length=64), nullable=False),
        sa.Column("window_start", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("told", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("channel", "sender", name=op.f("pk_sender_counts")),
    )


def downgrade() -> None:
    op.drop_table("sender_counts")
