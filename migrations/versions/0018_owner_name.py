"""owner_name: the owner's name of each case, for the desk's search

The web desk's search box finds a case by its owner's name, for keepers, officers and
admins within the pounds they see (never the public: the notice board and ``FIND`` read
no name). ``cases.owner_name`` keeps the name of the case's latest seizure facts, as
``owner_phone`` and ``place_seized`` are kept: set on intake, set again by a
correction. Each case recorded before this revision takes it from its events: the name
of its last correction, else of its intake (none named: empty).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-08 09:00:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Cases read and written at a time: a large database is filled in bounded steps.
BATCH = 500


def upgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.add_column(sa.Column("owner_name", sa.String(length=200), nullable=True))
    _fill_owner_names()


def _fill_owner_names() -> None:
    """Each case's owner's name from the seizure facts of its last intake or correction
    event (``payload["seizure"]["owner"]["name"]``), as the desk's search keeps it."""
    from bot.support.spelling import searchable_name

    bind = op.get_bind()
    cases = sa.table("cases", sa.column("id"), sa.column("owner_name"))
    events = sa.table(
        "case_events",
        sa.column("case_id"),
        sa.column("seq"),
        sa.column("type"),
        sa.column("payload", sa.JSON()),
    )
    named = (
        cases.update()
        .where(cases.c.id == sa.bindparam("case_id"))
        .values(owner_name=sa.bindparam("name"))
    )
    last = 0
    while True:
        ids = list(
            bind.execute(
                sa.select(cases.c.id).where(cases.c.id > last).order_by(cases.c.id).limit(BATCH)
            ).scalars()
        )
        if not ids:
            return
        last = ids[-1]
        names: dict[int, str | None] = {}
        found = bind.execute(
            sa.select(events.c.case_id, events.c.payload)
            .where(
                events.c.case_id.in_(ids),
                events.c.type.in_(("Impounded", "SeizureCorrected")),
            )
            .order_by(events.c.case_id, events.c.seq)
        )
        for case_id, payload in found:  # the last facts of a case stand
            names[case_id] = searchable_name(_owner_of(payload))
        rows = [{"case_id": k, "name": v} for k, v in names.items() if v is not None]
        if rows:
            bind.execute(named, rows)


def _owner_of(payload: Any) -> str:
    """The owner's name in an intake's or a correction's payload ("" when none)."""
    seizure = payload.get("seizure") if isinstance(payload, dict) else None
    owner = seizure.get("owner") if isinstance(seizure, dict) else None
    name = owner.get("name") if isinstance(owner, dict) else None
    return name if isinstance(name, str) else ""


def downgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.drop_column("owner_name")
