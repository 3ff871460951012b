"""The deadlines of a case as rows, derived in the transaction of every change to the case.

``Tx.append_events`` (through which ``Tx.add_case`` also goes) calls ``derive_deadlines``
after writing the events, so a deadline row can never disagree with the case it belongs
to: a corrected date of impounding moves the s.13(1) deadline, a claim, release or sale
closes what is no longer due, and the reminders of a closed or moved deadline that have
not gone out are cancelled in the same transaction. Planning the new reminders needs
the configured local times, so it is left to the reminder engine (``plan``), which picks
up every row marked ``needs_plan``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import CaseRow, DeadlineRow, ReminderJob
from domain.case import Case
from domain.deadlines import Deadline, deadlines

__all__ = ["OPEN", "UNSENT", "derive_deadlines"]

OPEN = "open"
CLOSED = "closed"
#: Job statuses of a reminder that has not gone out.
UNSENT = ("pending", "waiting")


async def derive_deadlines(session: AsyncSession, row: CaseRow, case: Case, now: datetime) -> None:
    """Make the deadline rows of ``row`` match ``domain.deadlines.deadlines(case)``."""
    wanted = {d.kind.value: d for d in deadlines(case)}
    existing = {
        r.kind: r
        for r in (
            await session.execute(select(DeadlineRow).where(DeadlineRow.case_id == row.id))
        ).scalars()
    }
    last = case.events[-1]
    reason = f"{type(last).__name__} {case.provisions[-1]} on {last.on.isoformat()}"
    stale: list[int] = []  # rows whose unsent reminders no longer hold
    for kind, deadline in wanted.items():
        found = existing.get(kind)
        if found is None:
            session.add(_new_row(row, deadline, now))
            continue
        moved = found.due_on != deadline.due_on or found.who != deadline.who.value
        if found.status == OPEN and not moved:
            found.provision, found.counts_from = deadline.provision, deadline.counts_from
            continue
        if found.status == OPEN:
            stale.append(found.id)
        _set(found, deadline, now)
    for kind, found in existing.items():
        if kind not in wanted and found.status == OPEN:
            found.status, found.closed_reason, found.closed_at = CLOSED, reason[:80], now
            found.updated_at = now
            stale.append(found.id)
    # The deadline rows are written (and, on PostgreSQL, locked) before the jobs are read,
    # so a planner holding a row cannot slip a job in behind this cancellation.
    await session.flush()
    if stale:
        await session.execute(
            update(ReminderJob)
            .where(ReminderJob.deadline_id.in_(stale), ReminderJob.status.in_(UNSENT))
            .values(status="cancelled", done_at=now, last_error=f"no longer due: {reason}"[:500])
            .execution_options(synchronize_session=False)
        )


def _new_row(row: CaseRow, deadline: Deadline, now: datetime) -> DeadlineRow:
    found = DeadlineRow(
        case_id=row.id,
        case_number=row.number,
        pound_code=row.pound_code,
        kind=deadline.kind.value,
        created_at=now,
    )
    _set(found, deadline, now)
    return found


def _set(found: DeadlineRow, deadline: Deadline, now: datetime) -> None:
    """Open ``found`` with the facts of ``deadline``, to be planned again."""
    found.who = deadline.who.value
    found.provision = deadline.provision
    found.due_on = deadline.due_on
    found.counts_from = deadline.counts_from
    found.status = OPEN
    found.closed_reason = None
    found.closed_at = None
    found.needs_plan = True
    found.updated_at = now
