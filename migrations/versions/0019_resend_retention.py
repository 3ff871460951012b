"""a failed message sent again once, and the personal data of old messages purged

A failed outbound message may be sent again from the web desk, once: the failed row
records who sent it again and when (``resent_by``, ``resent_at``), the new row which row
it sends again (``resend_of``). After the retention period (``[retention]
messages_days``) the body and the number of a message in or out are purged, the row
kept for the counts: ``purged_at`` says when.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-08 05:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _moment(name: str) -> sa.Column[object]:
    return sa.Column(name, bot.store.models.UtcDateTime(timezone=True), nullable=True)


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("resent_by", sa.Integer(), nullable=True))
        batch.add_column(_moment("resent_at"))
        batch.add_column(sa.Column("resend_of", sa.Integer(), nullable=True))
        batch.add_column(_moment("purged_at"))
        batch.create_foreign_key(
            batch.f("fk_outbox_resent_by_users"), "users", ["resent_by"], ["id"]
        )
        batch.create_foreign_key(
            batch.f("fk_outbox_resend_of_outbox"), "outbox", ["resend_of"], ["id"]
        )
        batch.create_index(batch.f("ix_outbox_resend_of"), ["resend_of"], unique=False)
    with op.batch_alter_table("inbox") as batch:
        batch.add_column(_moment("purged_at"))


def downgrade() -> None:
    with op.batch_alter_table("inbox") as batch:
        batch.drop_column("purged_at")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index(batch.f("ix_outbox_resend_of"))
        batch.drop_constraint(batch.f("fk_outbox_resend_of_outbox"), type_="foreignkey")
        batch.drop_constraint(batch.f("fk_outbox_resent_by_users"), type_="foreignkey")
        batch.drop_column("purged_at")
        batch.drop_column("resend_of")
        batch.drop_column("resent_at")
        batch.drop_column("resent_by")
