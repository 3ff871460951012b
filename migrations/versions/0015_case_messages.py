"""what a message about a case is: its kind, the case, the language, what it names

A message to an owner or an officer about a case (the intake SMS, the auction, the
account, the keeper's report) is kept as what it is, so that it is rendered from the
case's statement on the day it is sent, or dropped when the case has moved past it
(``bot.notifications.case_messages``). A row queued before this revision has none: it is sent
as it was queued.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 04:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("case_number", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("lang", sa.String(length=2), nullable=True))
        batch.add_column(sa.Column("ref", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("ref")
        batch.drop_column("lang")
        batch.drop_column("case_number")
        batch.drop_column("kind")
