"""authority indexes: an authority's open deadlines and its staff, without the state's

The open deadlines by (status, pound_code, kind, due_on): the web desk's Today reads
those of the caller's pounds, each section by kind, not every authority's due by the
day. The users by pound_code and by authority_code: a pound's keepers and an
authority's officers (the reminders' audience, Today's numbers that said STOP and
pounds without a keeper) without reading every user of the state.

Downgrade drops the three indexes.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-12 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_deadlines_open_pound",
        "deadlines",
        ["status", "pound_code", "kind", "due_on"],
        unique=False,
    )
    op.create_index("ix_users_pound", "users", ["pound_code"], unique=False)
    op.create_index("ix_users_authority", "users", ["authority_code"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_users_authority", table_name="users")
    op.drop_index("ix_users_pound", table_name="users")
    op.drop_index("ix_deadlines_open_pound", table_name="deadlines")
