"""The SQL of the reminder jobs (``bot.reminders``): the claim under a lease (``FOR
UPDATE SKIP LOCKED``), the taking of a claimed batch and of a morning round's items, the
outcomes written, the upserts that plan a job or a round, and what ``poundbot
deadlines`` lists. The engine's logic (what is due to whom, the backoff, the troubled
jobs) stays in ``bot.reminders``."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Select, Table, func, or_, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Row

from bot.store.instances import taken_over
from bot.store.models import CaseRow, DeadlineRow, OutboxRow, ReminderJob
from bot.store.rows import dialect
from bot.store.tx import Tx

__all__ = [
    "JobRow",
    "deadline_rows",
    "deadlines_to_plan",
    "due_jobs",
    "job",
    "job_status",
    "jobs_counted",
    "jobs_listed",
    "join_round",
    "lease_due",
    "leased_unfinished",
    "open_deadlines",
    "pass_has_work",
    "reminder_outbox",
    "retry_later",
    "set_jobs",
    "take_claimed",
    "take_round_items",
    "upsert_job",
]

#: A row of the ``reminder_jobs`` table (its columns as attributes).
JobRow = Row[Any]

_JOBS = cast(Table, ReminderJob.__table__)
_J = _JOBS.c
_DEADLINES = cast(Table, DeadlineRow.__table__)
_CASES = cast(Table, CaseRow.__table__)


def due_jobs(
    now: datetime, limit: int, troubled_after: int, *, troubled: bool = False
) -> Select[tuple[int]]:
    """The ids of up to ``limit`` jobs due at ``now`` and not leased, earliest first: a
    range of the index ``(status, fire_at)``, however many jobs are done. Not leased:
    no lease, a lease run out, or (not troubled) claimed by an instance whose heartbeat
    stopped (``bot.store.instances``). Only the troubled ones (``troubled_after`` claims
    or more) when ``troubled``, the least tried first (so that one cannot hold up the
    others), else the others."""
    tried = _J.attempts >= troubled_after if troubled else _J.attempts < troubled_after
    order = (_J.attempts, _J.fire_at) if troubled else (_J.fire_at,)
    free = [_J.claimed_until.is_(None), _J.claimed_until < now]
    if not troubled:  # a troubled job waits out its lease: it may be what killed them
        free.append(taken_over(_J.claimed_by, now))
    return (
        select(_J.id)
        .where(_J.status == "pending", _J.fire_at <= now, or_(*free), tried)
        .order_by(*order)
        .limit(limit)
    )


async def lease_due(
    tx: Tx,
    worker: str,
    until: datetime,
    limit: int,
    troubled_after: int,
    *,
    troubled: bool = False,
) -> list[tuple[int, int]]:
    """Lease up to ``limit`` due jobs (``due_jobs``) to ``worker`` until ``until``, one
    attempt more each, skipping the rows another transaction has locked: (id, attempts)."""
    due = due_jobs(tx.now, limit, troubled_after, troubled=troubled)
    result = await tx.session.execute(
        update(_JOBS)
        .where(_J.id.in_(due.with_for_update(skip_locked=True).scalar_subquery()))
        .values(claimed_by=worker, claimed_until=until, attempts=_J.attempts + 1)
        .returning(_J.id, _J.attempts)
    )
    return [(int(job_id), int(attempts)) for job_id, attempts in result.all()]


async def take_claimed(tx: Tx, ids: Sequence[int], worker: str) -> list[JobRow]:
    """Mark done those of the jobs ``ids`` still claimed by ``worker`` and pending; they,
    by time of firing."""
    taken = (
        (
            await tx.session.execute(
                update(_JOBS)
                .where(_J.id.in_(ids), _J.claimed_by == worker, _J.status == "pending")
                .values(status="done", done_at=tx.now, claimed_until=None)
                .returning(_J.id)
            )
        )
        .scalars()
        .all()
    )
    if not taken:
        return []
    rows = await tx.session.execute(
        select(_JOBS).where(_J.id.in_(taken)).order_by(_J.fire_at, _J.id)
    )
    return list(rows.all())


async def take_round_items(tx: Tx, round_key: str) -> list[JobRow]:
    """Take (mark done) the items waiting for the morning round ``round_key``; they."""
    ids = (
        (
            await tx.session.execute(
                update(_JOBS)
                .where(_J.batch == round_key, _J.status == "waiting")
                .values(status="done", done_at=tx.now)
                .returning(_J.id)
            )
        )
        .scalars()
        .all()
    )
    if not ids:
        return []
    rows = await tx.session.execute(select(_JOBS).where(_J.id.in_(ids)).order_by(_J.id))
    return list(rows.all())


async def deadline_rows(tx: Tx, ids: Collection[int]) -> list[Row[Any]]:
    """The rows of the ``deadlines`` table with these ids, each with the impounding day
    of its case (``impounded_on``: the day that tells the Act of the case)."""
    if not ids:
        return []
    found = (
        select(_DEADLINES, _CASES.c.impounded_on)
        .join(_CASES, _CASES.c.id == _DEADLINES.c.case_id)
        .where(_DEADLINES.c.id.in_(ids))
    )
    return list((await tx.session.execute(found)).all())


async def job(tx: Tx, job_id: int) -> JobRow:
    """The job ``job_id``."""
    return (await tx.session.execute(select(_JOBS).where(_J.id == job_id))).one()


async def set_jobs(tx: Tx, ids: Sequence[int], **values: object) -> None:
    """Set ``values`` on the jobs ``ids``."""
    await tx.session.execute(update(_JOBS).where(_J.id.in_(ids)).values(**values))


async def retry_later(tx: Tx, job_id: int, worker: str, error: str, until: datetime) -> None:
    """The job ``job_id``, if still claimed by ``worker``, back to pending after
    ``until``, with its error."""
    await tx.session.execute(
        update(_JOBS)
        .where(_J.id == job_id, _J.claimed_by == worker)
        .values(last_error=error, status="pending", done_at=None, claimed_until=until)
    )


# -- planning -----------------------------------------------------------------------------


def _insert(tx: Tx) -> Any:
    return (postgresql.insert if dialect(tx) == "postgresql" else sqlite.insert)(ReminderJob)


async def deadlines_to_plan(tx: Tx, limit: int) -> Sequence[DeadlineRow]:
    """Up to ``limit`` deadlines marked ``needs_plan``, locked (skipped when another
    transaction holds them), by id."""
    return (
        (
            await tx.session.execute(
                select(DeadlineRow)
                .where(DeadlineRow.needs_plan == true())
                .order_by(DeadlineRow.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
        )
        .scalars()
        .all()
    )


async def upsert_job(tx: Tx, key: str, values: dict[str, Any]) -> bool:
    """Insert the job ``key`` with ``values``, or give a cancelled one these values;
    whether either was done (else the job is there and not cancelled)."""
    stmt = _insert(tx).values(key=key, created_at=tx.now, **values)
    revived = await tx.session.execute(
        stmt.on_conflict_do_update(
            index_elements=["key"], set_=values, where=_J.status == "cancelled"
        ).returning(_J.id)
    )
    return revived.first() is not None


async def job_status(tx: Tx, key: str) -> str:
    """The status of the job ``key``."""
    found = await tx.session.execute(select(_J.status).where(_J.key == key))
    return str(found.scalar_one())


async def join_round(
    tx: Tx, key: str, kind: str, audience: str, place: str, day: date, fire_at: Any
) -> str:
    """Insert the round ``key`` if it is not there, locking its row until the
    transaction ends; its status."""
    stmt = _insert(tx).values(
        key=key,
        kind=kind,
        audience=audience,
        place=place,
        day=day,
        fire_at=fire_at,
        status="pending",
        attempts=0,
        messages=0,
        created_at=tx.now,
    )
    result = await tx.session.execute(
        stmt.on_conflict_do_update(
            index_elements=["key"], set_={"key": stmt.excluded.key}
        ).returning(_J.status)
    )
    return str(result.scalar_one())


async def leased_unfinished(tx: Tx) -> int:
    """How many due jobs are claimed under a lease that has not run out."""
    query = select(func.count()).where(
        _J.status == "pending", _J.fire_at <= tx.now, _J.claimed_until >= tx.now
    )
    return int(await tx.session.scalar(query) or 0)


async def pass_has_work(tx: Tx) -> bool:
    """Whether a reminder pass at ``tx.now`` has anything to do: a deadline to plan, or
    a pending job due."""
    planned = select(DeadlineRow.id).where(DeadlineRow.needs_plan == true()).limit(1)
    due = select(_J.id).where(_J.status == "pending", _J.fire_at <= tx.now).limit(1)
    return (await tx.session.scalar(planned)) is not None or (
        await tx.session.scalar(due)
    ) is not None


async def jobs_counted(tx: Tx, statuses: Sequence[str]) -> int:
    """How many jobs are in one of ``statuses``."""
    query = select(func.count()).where(_J.status.in_(statuses))
    return int(await tx.session.scalar(query) or 0)


# -- what ``poundbot deadlines`` lists ------------------------------------------------------


async def open_deadlines(tx: Tx, pounds: Collection[str], status: str) -> list[DeadlineRow]:
    """The deadlines of ``pounds`` with ``status``, by due date, case and kind."""
    rows = await tx.session.execute(
        select(DeadlineRow)
        .where(DeadlineRow.status == status, DeadlineRow.pound_code.in_(pounds))
        .order_by(DeadlineRow.due_on, DeadlineRow.case_number, DeadlineRow.kind)
    )
    return list(rows.scalars())


async def jobs_listed(tx: Tx, places: Collection[str], since: datetime) -> list[ReminderJob]:
    """The jobs of ``places`` still to go, or fired since ``since``, by time."""
    rows = await tx.session.execute(
        select(ReminderJob)
        .where(
            ReminderJob.place.in_(places),
            or_(ReminderJob.status.in_(("pending", "waiting")), ReminderJob.fire_at >= since),
        )
        .order_by(ReminderJob.fire_at, ReminderJob.id)
    )
    return list(rows.scalars())


async def reminder_outbox(tx: Tx, since: datetime) -> list[tuple[str, str]]:
    """(key, status) of every reminder message queued since ``since``."""
    rows = await tx.session.execute(
        select(OutboxRow.idempotency_key, OutboxRow.status).where(
            OutboxRow.idempotency_key.like("rem:%"), OutboxRow.created_at >= since
        )
    )
    return [(str(key), str(status)) for key, status in rows.all()]
