"""user_changes: every change to a user, and invites for an existing user

Each change to a user is kept: who made it, when, the old and new value, why; an invite
may bind a Telegram account to an existing user.

An administrator edits, disables and enables users and invites them again; each change
is a row of ``user_changes`` (one field a row), read by ``poundbot users history`` and
exported per authority. An invite with ``for_user`` binds the account that accepts it to
that user instead of making a new one. Users changed before this revision have no rows.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 05:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("authority_code", sa.String(length=16), nullable=True),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("field", sa.String(length=32), nullable=False),
        sa.Column("old", sa.String(length=200), nullable=True),
        sa.Column("new", sa.String(length=200), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_user_changes_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["authority_code"],
            ["authorities.code"],
            name=op.f("fk_user_changes_authority_code_authorities"),
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_user_changes_by_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_changes")),
    )
    with op.batch_alter_table("user_changes") as batch:
        batch.create_index(batch.f("ix_user_changes_user_id"), ["user_id"], unique=False)
    with op.batch_alter_table("invites") as batch:
        batch.add_column(sa.Column("for_user", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("invites") as batch:
        batch.drop_column("for_user")
    op.drop_table("user_changes")
