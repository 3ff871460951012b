"""inbox case: each message received says which case it was about, for the log

``inbox.case_number`` holds the case a message received was about, as acting on it
found it: the case it named, or the sender's own case a question without a number was
taken to ask of (``DUES`` from the number a case names). The web desk's Messages page
and Today's counts show an authority's staff the messages received about the cases of
its pounds, as they show the messages sent about them; ``ix_inbox_case_log`` reads them
by index. A message received before this revision takes the case its text names, when
a case has that number and the message was acted on and not purged (a question
without a number stays about no case: what it was taken to ask of is not kept).

Downgrade drops the index and the column.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-14 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Messages read and written at a time: a large database is filled in bounded steps.
BATCH = 5000


def upgrade() -> None:
    with op.batch_alter_table("inbox") as batch:
        batch.add_column(sa.Column("case_number", sa.String(length=20), nullable=True))
    _fill()
    op.create_index(
        "ix_inbox_case_log", "inbox", ["case_number", "received_at", "id"], unique=False
    )


def _fill() -> None:
    """The case each message acted on and not purged names, when a case has that number."""
    from bot.store.tx import case_named

    bind = op.get_bind()
    inbox = sa.table(
        "inbox",
        sa.column("id"),
        sa.column("body"),
        sa.column("processed_at"),
        sa.column("purged_at"),
        sa.column("case_number"),
    )
    cases = sa.table("cases", sa.column("number"))
    named = (
        inbox.update()
        .where(inbox.c.id == sa.bindparam("row_id"))
        .values(case_number=sa.bindparam("number"))
    )
    last = 0
    while True:
        found = bind.execute(
            sa.select(inbox.c.id, inbox.c.body)
            .where(
                inbox.c.id > last,
                inbox.c.processed_at.is_not(None),
                inbox.c.purged_at.is_(None),
            )
            .order_by(inbox.c.id)
            .limit(BATCH)
        ).all()
        if not found:
            return
        last = found[-1][0]
        guessed = {}
        for row_id, body in found:
            case = case_named(body or "")
            if case is not None:
                guessed[row_id] = f"{case[0]}-{case[1]}"
        known = set(
            bind.execute(
                sa.select(cases.c.number).where(cases.c.number.in_(set(guessed.values())))
            ).scalars()
        )
        rows = [{"row_id": k, "number": v} for k, v in guessed.items() if v in known]
        if rows:
            bind.execute(named, rows)


def downgrade() -> None:
    op.drop_index("ix_inbox_case_log", table_name="inbox")
    with op.batch_alter_table("inbox") as batch:
        batch.drop_column("case_number")
