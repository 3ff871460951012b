"""the offices a user holds, and those an invite grants

Who acts under an Act is an office, not a name (``domain.profiles.Office``): a user
holds offices (the officer in charge of the police station, the District Magistrate,
the Secretary), and what is for an office goes to its holders. Stored as the offices'
values joined by commas; "" none declared: a keeper holds the pound-keeper's office, an
officer stands for the local authority (``bot.support.offices``), as every user did
before this revision.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 04:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("users", "invites"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("offices", sa.String(length=200), nullable=False, server_default="")
            )


def downgrade() -> None:
    for table in ("invites", "users"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("offices")
