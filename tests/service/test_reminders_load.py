"""Exactly once under load: two dispatchers in one process over 10,000 due reminders (a
slow test, ``make test-slow``), and over 1,000 in ``make test``.

The jobs are written straight into the tables (as the planner would have made them:
one-off auction-day reminders to the one officer of KNM-GP), so that the test measures
the claim and the send, not the use cases.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Config
from bot.reminders.dispatch import Pass, dispatch_batch
from bot.store.engine import make_sessionmaker
from bot.store.models import CaseRow, DeadlineRow, OutboxRow, ReminderJob, User
from bot.store.tx import Store, sync_places
from bot.support.clock import FixedClock

JOBS = 10_000
JOBS_SMALL = 1_000
CASES = 1_000
DUE = date(2026, 3, 25)
PAST = datetime(2026, 3, 1, 2, 30, tzinfo=UTC)


async def seed_due_jobs(
    store: Store, jobs: int, *, prefix: str = "load", first_case: int = 1
) -> int:
    """``jobs`` due reminders over ``CASES`` cases; returns the officer's user id."""
    async with store.transaction() as tx:
        officer = await tx.session.scalar(select(User.id).where(User.telegram_id == 9_000_001))
        if officer is None:
            user = User(
                role="officer", authority_code="KNM-GP", telegram_id=9_000_001, created_at=tx.now
            )
            tx.session.add(user)
            await tx.session.flush()
            officer = user.id
        cases = min(CASES, jobs)
        numbers = range(first_case, first_case + cases)
        await tx.session.execute(
            insert(CaseRow),
            [
                {
                    "pound_code": "KNM",
                    "seq": n,
                    "number": f"KNM-{n}",
                    "stage": "selling",
                    "impounded_on": date(2026, 3, 1),
                    "place_seized": "market",
                    "created_at": tx.now,
                    "updated_at": tx.now,
                }
                for n in numbers
            ],
        )
        case_ids = dict(
            (
                await tx.session.execute(
                    select(CaseRow.number, CaseRow.id).where(
                        CaseRow.seq.in_(list(numbers)), CaseRow.pound_code == "KNM"
                    )
                )
            ).all()
        )
        await tx.session.execute(
            insert(DeadlineRow),
            [
                {
                    "case_id": case_ids[f"KNM-{n}"],
                    "case_number": f"KNM-{n}",
                    "pound_code": "KNM",
                    "kind": "auction_day",
                    "who": "officer",
                    "provision": "s.13(3)",
                    "due_on": DUE,
                    "counts_from": DUE,
                    "status": "open",
                    "needs_plan": False,
                    "created_at": tx.now,
                    "updated_at": tx.now,
                }
                for n in numbers
            ],
        )
        deadline_ids = dict(
            (await tx.session.execute(select(DeadlineRow.case_number, DeadlineRow.id))).all()
        )
        rows: list[dict[str, Any]] = []
        for i in range(jobs):
            number = f"KNM-{first_case + i % cases}"
            rows.append(
                {
                    "key": f"{prefix}:{i}",
                    "kind": "auction_day",
                    "audience": "officers",
                    "place": "KNM-GP",
                    "deadline_id": deadline_ids[number],
                    "case_number": number,
                    "provision": "s.13(3)",
                    "due_on": DUE,
                    "day": DUE,
                    "fire_at": PAST,
                    "status": "pending",
                    "attempts": 0,
                    "messages": 0,
                    "created_at": tx.now,
                }
            )
        await tx.session.execute(insert(ReminderJob), rows)
    return int(officer)


@pytest.fixture
async def store(engine: AsyncEngine, config: Config, clock: FixedClock) -> Store:
    """The store as ``open_app`` builds it: on SQLite, this process's transactions take
    turns (the two dispatchers would otherwise poll SQLite's busy handler)."""
    store = Store(make_sessionmaker(engine), clock, serialize=engine.dialect.name == "sqlite")
    async with store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    return store


async def test_two_dispatchers_queue_each_of_1000_reminders_exactly_once(
    store: Store, config: Config
) -> None:
    await two_dispatchers_queue_each_once(store, config, JOBS_SMALL)


@pytest.mark.slow
async def test_two_dispatchers_queue_each_of_10000_reminders_exactly_once(
    store: Store, config: Config
) -> None:
    await two_dispatchers_queue_each_once(store, config, JOBS)


async def two_dispatchers_queue_each_once(store: Store, config: Config, jobs_due: int) -> None:
    """Two dispatchers drain ``jobs_due`` due reminders, a batch of 100 at a time each:
    every reminder is queued once, by one of them, each claimed once and never re-leased."""
    officer = await seed_due_jobs(store, jobs_due)
    passes: dict[str, Pass] = {"a": Pass(), "b": Pass()}

    async def drain(name: str) -> None:
        while (done := await dispatch_batch(store, config, name, limit=100)) is not None:
            passes[name].add(done)

    await asyncio.gather(drain("a"), drain("b"))

    assert passes["a"].reminders + passes["b"].reminders == jobs_due  # each job fired once ...
    assert passes["a"].reminders > 0  # ... by one or the other
    assert passes["b"].reminders > 0
    async with store.transaction() as tx:
        keys = (await tx.session.execute(select(OutboxRow.idempotency_key))).scalars().all()
        jobs = (
            await tx.session.execute(
                select(ReminderJob.status, ReminderJob.attempts, func.count()).group_by(
                    ReminderJob.status, ReminderJob.attempts
                )
            )
        ).all()
        by = Counter((await tx.session.execute(select(ReminderJob.claimed_by))).scalars().all())
    assert sorted(keys) == sorted(f"rem:load:{i}:u{officer}" for i in range(jobs_due))
    assert [tuple(row) for row in jobs] == [("done", 1, jobs_due)]  # claimed once, never re-leased
    assert by["a"] == passes["a"].reminders
    assert by["b"] == passes["b"].reminders
