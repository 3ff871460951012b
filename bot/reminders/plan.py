"""Planning: new or moved deadlines become reminder jobs at the configured local times.

A job is keyed by its deadline, the deadline's due date, the audience and the local day,
so planning twice, or two instances planning at once, makes one job; a cancelled job
comes back if its deadline moves back. A reminder whose morning is still to come waits
for that morning's *round* (one per audience, place and day), which sends everything
due that morning together; one whose time has passed is pending at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.config import Config
from bot.store import reminder_jobs as jobs
from bot.store.deadlines import OPEN
from bot.store.rows import flush
from bot.store.tx import Tx
from domain.deadlines import Deadline, DeadlineKind, Role
from domain.profiles import Profile
from domain.reminders import Audience, days_to_plan, fire_time, next_day, series_of

__all__ = ["ROUND", "DeadlineFacts", "local_today", "place_of", "plan_pending", "schedule"]

log = logging.getLogger("poundbot.reminders")

ROUND = "round"
_PLAN_BATCH = 200


def local_today(tx: Tx, config: Config) -> date:
    """The local date of the transaction's "now" in the configured time zone."""
    return tx.now.astimezone(config.reminders.timezone).date()


def place_of(config: Config, audience: Audience, pound: str) -> str:
    """The pound (for its keepers) or the authority running it (for its officers)."""
    return config.pounds[pound].authority if audience is Audience.OFFICERS else pound


@dataclass(frozen=True, slots=True)
class DeadlineFacts:
    """What planning and sending need of a deadline row (read as an entity or a row)."""

    id: int
    case_number: str
    pound_code: str
    kind: DeadlineKind
    who: Role
    provision: str
    due_on: date
    counts_from: date
    is_open: bool
    #: The impounding day of the case, when the row carries it (``deadline_rows``).
    impounded_on: date | None = None
    #: The Act the case is under, as the case keeps it, when read with the row
    #: (``Tx.case_acts``): what its reminder speaks in and whose office it goes to.
    act: Profile | None = None

    @classmethod
    def of(cls, row: Any) -> DeadlineFacts:
        """From a ``DeadlineRow`` or a row of the ``deadlines`` table (with its case's
        impounding day, if it has it)."""
        return cls(
            id=row.id,
            case_number=row.case_number,
            pound_code=row.pound_code,
            kind=DeadlineKind(row.kind),
            who=Role(row.who),
            provision=row.provision,
            due_on=row.due_on,
            counts_from=row.counts_from,
            is_open=row.status == OPEN,
            impounded_on=getattr(row, "impounded_on", None),
        )

    def as_deadline(self) -> Deadline:
        return Deadline(self.kind, self.due_on, self.provision, self.who, self.counts_from)

    def is_daily_for(self, audience: Audience) -> bool:
        """Whether ``audience`` is reminded of this deadline every morning."""
        return any(
            s.daily and s.audience is audience for s in series_of(self.kind, self.due_on, self.who)
        )


async def plan_pending(tx: Tx, config: Config, limit: int = _PLAN_BATCH) -> int:
    """Plan the reminders of up to ``limit`` deadlines marked ``needs_plan``; how many.

    The rows are locked while they are planned (skipped by another instance on
    PostgreSQL; SQLite has one writer at a time), so a change to the case waits for the
    plan and then cancels what it made stale.
    """
    rows = await jobs.deadlines_to_plan(tx, limit)
    today = local_today(tx, config)
    for row in rows:
        facts = DeadlineFacts.of(row)
        if facts.pound_code not in config.pounds:
            log.warning(
                "deadline %d of %s: pound not configured, not planned", row.id, row.case_number
            )
        elif facts.is_open:
            series = series_of(facts.kind, facts.due_on, facts.who)
            for one, day in days_to_plan(series, today):
                await schedule(tx, config, facts, one.audience, day, daily=one.daily)
        row.needs_plan = False
    await flush(tx)
    return len(rows)


async def schedule(
    tx: Tx, config: Config, row: DeadlineFacts, audience: Audience, day: date, *, daily: bool
) -> None:
    """Make (or bring back) the job that reminds ``audience`` of ``row`` on ``day``.

    When that day's job of a daily series has already gone out, the next day's is made.
    """
    for _ in range(3):  # a day already done moves a daily series on; never far
        key = f"d{row.id}:{row.due_on.isoformat()}:{audience.value}:{day.isoformat()}"
        status = await _upsert_item(tx, config, row, audience, day, key)
        if status in ("pending", "waiting", "cancelled") or not daily:
            return
        day = next_day(day, local_today(tx, config))


async def _upsert_item(
    tx: Tx, config: Config, row: DeadlineFacts, audience: Audience, day: date, key: str
) -> str:
    """Insert the job, or revive it if it was cancelled; the status it ends with."""
    settings = config.reminders
    place = place_of(config, audience, row.pound_code)
    fire_at, in_round = fire_time(day, settings.reminder_time, settings.timezone, tx.now)
    batch = None
    if in_round:
        batch = f"{ROUND}:{audience.value}:{place}:{day.isoformat()}"
        if await _join_round(tx, batch, audience, place, day, fire_at) != "pending":
            batch, fire_at = None, tx.now  # that morning's round has gone: go at once
    values = {
        "kind": row.kind.value,
        "audience": audience.value,
        "place": place,
        "deadline_id": row.id,
        "case_number": row.case_number,
        "provision": row.provision,
        "due_on": row.due_on,
        "day": day,
        "fire_at": fire_at,
        "batch": batch,
        "status": "waiting" if batch else "pending",
        "attempts": 0,
        "claimed_by": None,
        "claimed_until": None,
        "messages": 0,
        "last_error": None,
        "done_at": None,
    }
    if await jobs.upsert_job(tx, key, values):
        return str(values["status"])
    return await jobs.job_status(tx, key)


async def _join_round(
    tx: Tx, key: str, audience: Audience, place: str, day: date, fire_at: Any
) -> str:
    """Make sure the morning round ``key`` exists; its status (pending until it has run).

    The upsert locks the round's row until this transaction ends, and a round that runs
    first locks the row and marks itself done before it reads its items: an item joins
    a round that will still send it, or learns the round has gone.
    """
    return await jobs.join_round(tx, key, ROUND, audience.value, place, day, fire_at)
