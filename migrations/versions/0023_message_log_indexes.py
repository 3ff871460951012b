"""message log indexes: the log of messages read newest first by its key, at any depth

The outbox by (created_at, id) and by (case_number, created_at, id), the inbox by
(received_at, id): the web desk's log pages from the message shown last, and the
retention's purge reads the oldest first, without reading every message.

Downgrade drops the three indexes.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-11 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_outbox_log", "outbox", ["created_at", "id"], unique=False)
    op.create_index(
        "ix_outbox_case_log", "outbox", ["case_number", "created_at", "id"], unique=False
    )
    op.create_index("ix_inbox_log", "inbox", ["received_at", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_inbox_log", table_name="inbox")
    op.drop_index("ix_outbox_case_log", table_name="outbox")
    op.drop_index("ix_outbox_log", table_name="outbox")
