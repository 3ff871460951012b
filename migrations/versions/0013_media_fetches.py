"""media_fetches: the pictures of an MMS or WhatsApp message, fetched after the message
is answered (outside its transaction, under a lease) and told in a follow-up

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "media_fetches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("recipient", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=2), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("lot", sa.Integer(), nullable=True),
        sa.Column("added_by", sa.Integer(), nullable=True),
        sa.Column("urls", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(length=120), nullable=True),
        sa.Column("claimed_until", bot.store.models.UtcDateTime(timezone=True), nullable=True),
        sa.Column("created_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("done_at", bot.store.models.UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"], ["cases.id"], name=op.f("fk_media_fetches_case_id_cases")
        ),
        sa.ForeignKeyConstraint(
            ["added_by"], ["users.id"], name=op.f("fk_media_fetches_added_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_fetches")),
        sa.UniqueConstraint("key", name=op.f("uq_media_fetches_key")),
    )
    with op.batch_alter_table("media_fetches", schema=None) as batch_op:
        batch_op.create_index(
            "ix_media_fetches_due", ["status", "claimed_until"], unique=False
        )


def downgrade() -> None:
    op.drop_table("media_fetches")
