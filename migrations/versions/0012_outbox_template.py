"""the DLT template of an outbound SMS

An SMS to an Indian number goes under a content template registered on a DLT portal
(``bot.support.dlt``); the outbox records which (``kind.lang``) when it sends one, so that a
message refused for want of a template or an id can be listed with its template.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("template", sa.String(length=80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("template")
