"""the checks a message passes when it is sent: why it is sent, and the answers counted

An outbound message records why it is sent (``purpose``: ``answer``, ``notice`` or
``staff``), so that the checks made when it is sent (``bot.adapters.outbox``: a STOP
since it was queued, the ceiling of answers to numbers that are not staff) know what it
is. ``send_counts`` counts those answers by hour, by day and by number. A row queued
before this revision has none: the outbox reads its purpose from its key
(``bot.adapters.outbox.purpose_of``).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("purpose", sa.String(length=16), nullable=True))
    op.create_table(
        "send_counts",
        sa.Column("window", sa.String(length=96), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("window", name=op.f("pk_send_counts")),
    )


def downgrade() -> None:
    op.drop_table("send_counts")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("purpose")
