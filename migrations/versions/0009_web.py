"""web desk: single-use sign-in links and sessions (hashes of their tokens only), and
the indexes of its lists

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _table(name: str, *columns: sa.Column) -> None:  # type: ignore[type-arg]
    op.create_table(
        name,
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        *columns,
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f(f"fk_{name}_user_id_users")
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f(f"pk_{name}")),
    )
    op.create_index(op.f(f"ix_{name}_user_id"), name, ["user_id"], unique=False)


def upgrade() -> None:
    # The web desk's lists (bot.services.desk): cases newest first; open deadlines by day.
    op.create_index("ix_cases_impounded", "cases", ["impounded_on", "id"], unique=False)
    op.create_index(
        "ix_deadlines_open_due",
        "deadlines",
        ["status", "due_on", "pound_code", "who"],
        unique=False,
    )
    op.create_index(
        "ix_deadlines_open_kind", "deadlines", ["status", "kind", "due_on"], unique=False
    )
    _table(
        "web_links",
        sa.Column("used_at", bot.store.models.UtcDateTime(timezone=True), nullable=True),
    )
    _table(
        "web_sessions",
        sa.Column("ended_at", bot.store.models.UtcDateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_index("ix_deadlines_open_kind", table_name="deadlines")
    op.drop_index("ix_deadlines_open_due", table_name="deadlines")
    op.drop_index("ix_cases_impounded", table_name="cases")
    op.drop_index(op.f("ix_web_sessions_user_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    op.drop_index(op.f("ix_web_links_user_id"), table_name="web_links")
    op.drop_table("web_links")
