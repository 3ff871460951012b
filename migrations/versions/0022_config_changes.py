"""config_changes: each value a configuration version written on the web desk changed

One row a field: of what entity and key, the old and the new value, and the authority it
belongs to (none: the state's), so that an authority's audit can be exported. Who, when
and why are the version's (config_versions).

Downgrade drops the table; the versions keep their whole text.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-10 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "config_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("authority_code", sa.String(length=32), nullable=True),
        sa.Column("entity", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("old", sa.Text(), nullable=True),
        sa.Column("new", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["config_versions.id"],
            name=op.f("fk_config_changes_version_id_config_versions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_config_changes")),
    )
    op.create_index(
        op.f("ix_config_changes_version_id"), "config_changes", ["version_id"], unique=False
    )
    op.create_index(
        op.f("ix_config_changes_authority_code"), "config_changes", ["authority_code"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_config_changes_authority_code"), table_name="config_changes")
    op.drop_index(op.f("ix_config_changes_version_id"), table_name="config_changes")
    op.drop_table("config_changes")
