"""instances: each running poundbot's heartbeat, so that the outbox messages and reminder
jobs claimed by a process that died are taken over within seconds, not when their
2-minute leases run out

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "instances",
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("beat_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_instances")),
    )


def downgrade() -> None:
    op.drop_table("instances")
