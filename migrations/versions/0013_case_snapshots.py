"""case snapshots: the folded case kept with its row, written with each event, so that
an answer about a case reads one row instead of replaying its history (made lazily:
nothing is backfilled; a case without one is replayed and gets one)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 21:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.add_column(sa.Column("snapshot", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.drop_column("snapshot")
