"""config_versions: the configuration in the database, a version a row

The whole TOML document of the configuration, as imported, with when, by whom, why and
from where. The version with the highest id is in force on every instance; the first
server started on a database without one imports its configuration file.

Downgrade drops the table: the configuration is then read from the file again.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-09 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "config_versions",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("created_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_config_versions_by_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_config_versions")),
    )


def downgrade() -> None:
    op.drop_table("config_versions")
