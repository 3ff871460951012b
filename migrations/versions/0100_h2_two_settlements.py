"""a case may have two settlements (s.15(5): the rest sold as unclaimed)

The owner who refuses the account leaves the remaining cattle to be sold as unclaimed,
so a case can be settled twice: ``settlements.case_id`` is no longer unique; each
settlement is that of one closing event.

Cases stranded "in deposit" by a refused account that left cattle in the pound are
moved to the stage the Act gives them (deemed unclaimed, s.15(5)); their deadlines are
derived again (the keeper's s.13(1) report instead of the deposit's three months).

Revision ID: h2_two_settlements
Revises: 0006
Create Date: 2026-12-01 11:40:00
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "h2_two_settlements"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_settlements_case_id"), type_="unique")
        batch_op.create_index(batch_op.f("ix_settlements_case_id"), ["case_id"], unique=False)
        batch_op.create_unique_constraint(batch_op.f("uq_settlements_event_id"), ["event_id"])
    _unstrand_refused_accounts()


def _unstrand_refused_accounts() -> None:
    """Cases in deposit whose replay now gives another stage take that stage and its
    deadlines; reminders of deadlines no longer due are cancelled."""
    from bot.store.codec import load_event
    from domain.case import Case
    from domain.deadlines import deadlines

    bind = op.get_bind()
    cases = sa.table(
        "cases", sa.column("id"), sa.column("number"), sa.column("pound_code"), sa.column("stage")
    )
    events = sa.table(
        "case_events", sa.column("case_id"), sa.column("seq"), sa.column("type"),
        sa.column("payload", sa.JSON()),
    )
    rows = sa.table(
        "deadlines", sa.column("id"), sa.column("case_id"), sa.column("case_number"),
        sa.column("pound_code"), sa.column("kind"), sa.column("who"), sa.column("provision"),
        sa.column("due_on"), sa.column("counts_from"), sa.column("status"),
        sa.column("closed_reason"), sa.column("needs_plan"),
        sa.column("created_at", bot.store.models.UtcDateTime()),
        sa.column("updated_at", bot.store.models.UtcDateTime()),
        sa.column("closed_at", bot.store.models.UtcDateTime()),
    )
    jobs = sa.table("reminder_jobs", sa.column("deadline_id"), sa.column("status"))
    now = datetime.now(UTC)
    found = bind.execute(
        sa.select(cases.c.id, cases.c.number, cases.c.pound_code).where(
            cases.c.stage == "in_deposit"
        )
    ).all()
    for case_id, number, pound in found:
        log = bind.execute(
            sa.select(events.c.type, events.c.payload)
            .where(events.c.case_id == case_id)
            .order_by(events.c.seq)
        ).all()
        case = Case.replay(number, [load_event(kind, payload) for kind, payload in log])
        if case.stage.value == "in_deposit":
            continue
        bind.execute(
            cases.update().where(cases.c.id == case_id).values(stage=case.stage.value)
        )
        stale = [
            r.id
            for r in bind.execute(
                sa.select(rows.c.id).where(rows.c.case_id == case_id, rows.c.status == "open")
            )
        ]
        if stale:
            bind.execute(
                rows.update()
                .where(rows.c.id.in_(stale))
                .values(status="closed", closed_reason="s.15(5) deemed unclaimed",
                        closed_at=now, updated_at=now)
            )
            bind.execute(
                jobs.update()
                .where(jobs.c.deadline_id.in_(stale), jobs.c.status.in_(["pending", "waiting"]))
                .values(status="cancelled")
            )
        for d in deadlines(case):
            facts = {
                "who": d.who.value, "provision": d.provision, "due_on": d.due_on,
                "counts_from": d.counts_from, "status": "open", "closed_reason": None,
                "closed_at": None, "needs_plan": True, "updated_at": now,
            }
            where = (rows.c.case_id == case_id) & (rows.c.kind == d.kind.value)
            if bind.execute(sa.select(rows.c.id).where(where)).first() is not None:
                bind.execute(rows.update().where(where).values(**facts))
            else:
                bind.execute(
                    rows.insert().values(
                        case_id=case_id, case_number=number, pound_code=pound,
                        kind=d.kind.value, created_at=now, **facts,
                    )
                )


def downgrade() -> None:
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_settlements_event_id"), type_="unique")
        batch_op.drop_index(batch_op.f("ix_settlements_case_id"))
        batch_op.create_unique_constraint(batch_op.f("uq_settlements_case_id"), ["case_id"])
