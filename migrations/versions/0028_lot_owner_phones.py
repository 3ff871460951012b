"""lot owner phones: the number of each lot's owner, where a case's cattle are of more
than one owner

A table of one row per lot that names an owner with a number: the case, the lot's
place in the case's record, the number (indexed: an owner texting asks by it). Cases
recorded before have none: their owner's number stays on the case.

Downgrade drops the table.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lot_owner_phones",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=20), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
            name=op.f("fk_lot_owner_phones_case_id_cases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lot_owner_phones")),
    )
    op.create_index(
        op.f("ix_lot_owner_phones_case_id"), "lot_owner_phones", ["case_id"], unique=False
    )
    op.create_index(op.f("ix_lot_owner_phones_phone"), "lot_owner_phones", ["phone"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_lot_owner_phones_phone"), table_name="lot_owner_phones")
    op.drop_index(op.f("ix_lot_owner_phones_case_id"), table_name="lot_owner_phones")
    op.drop_table("lot_owner_phones")
