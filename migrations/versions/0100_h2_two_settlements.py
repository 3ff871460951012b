"""a case may have two settlements (s.15(5): the rest sold as unclaimed)

The owner who refuses the account leaves the remaining cattle to be sold as unclaimed,
so a case can be settled twice: ``settlements.case_id`` is no longer unique; each
settlement is that of one closing event.

Revision ID: h2_two_settlements
Revises: 0004
Create Date: 2026-12-01 11:40:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "h2_two_settlements"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_settlements_case_id"), type_="unique")
        batch_op.create_index(batch_op.f("ix_settlements_case_id"), ["case_id"], unique=False)
        batch_op.create_unique_constraint(batch_op.f("uq_settlements_event_id"), ["event_id"])


def downgrade() -> None:
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_settlements_event_id"), type_="unique")
        batch_op.drop_index(batch_op.f("ix_settlements_case_id"))
        batch_op.create_unique_constraint(batch_op.f("uq_settlements_case_id"), ["case_id"])
