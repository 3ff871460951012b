"""Benchmark: claiming due reminders with 10,000 and with 1,000,000 jobs in the table, and
the dispatch rate against Telegram's 30 messages a second.

1. The claim (``bot.reminders.dispatch.claim``) of the same 1,000 due jobs, in batches
   of 100, with 10,000 and then 1,000,000 rows in ``reminder_jobs`` (the others done or
   due later, as a table fills over the years). The due index ``(status, fire_at)``
   makes the claim read only the due rows: target ratio <= 2. Each round starts after
   the previous round's leases have run out (the clock is moved, nothing waits).
2. Reminders to the outbox and the outbox to a fake Telegram (no network): messages a
   second, against the 30 a second Telegram allows a bot.

Run: ``.venv/bin/python bench/reminders.py [--url URL]`` (default: a SQLite file in a
temporary directory; for PostgreSQL give an empty database's URL).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, text, update
from targets import verdict

from bot.adapters.outbox import deliver_once
from bot.bootstrap import open_app
from bot.reminders.dispatch import LEASE, TROUBLED_AFTER, claim, remind_once
from bot.services.runtime import App
from bot.store.models import CaseRow, DeadlineRow, ReminderJob, User
from bot.store.reminder_jobs import due_jobs
from bot.support.clock import FixedClock

SMALL, LARGE = 10_000, 1_000_000
DUE = 1_000
BATCH = 100
ROUNDS = 7
CHUNK = 20_000
SEND = 3_000
TELEGRAM_LIMIT = 30.0
START = datetime(2026, 3, 10, 2, 30, tzinfo=UTC)  # 08:00 in Kolkata
JOBS = ReminderJob.__table__


def _job(i: int, status: str, fire_at: datetime, deadline: int) -> dict[str, Any]:
    return {
        "key": f"bench:{i}",
        "kind": "auction_day",
        "audience": "officers",
        "place": "KNM-GP",
        "deadline_id": deadline,
        "case_number": f"KNM-{deadline}",
        "provision": "s.13(3)",
        "due_on": fire_at.date(),
        "day": fire_at.date(),
        "fire_at": fire_at,
        "status": status,
        "attempts": 1 if status == "done" else 0,
        "messages": 1 if status == "done" else 0,
        "created_at": START,
        "done_at": fire_at if status == "done" else None,
    }


def _filler(first: int, last: int, deadlines: list[int]) -> Iterator[dict[str, Any]]:
    """Jobs that are not due: nine in ten done in the past, one in ten due later."""
    for i in range(first, last):
        deadline = deadlines[i % len(deadlines)]
        if i % 10:
            yield _job(i, "done", START - timedelta(minutes=i % 500_000), deadline)
        else:
            yield _job(i, "pending", START + timedelta(days=1, minutes=i % 50_000), deadline)


async def _insert(app: App, rows: Iterator[dict[str, Any]], total: int = 0) -> None:
    """Bulk insert (executemany) in chunks; with ``total``, print progress every tenth."""
    chunk: list[dict[str, Any]] = []
    done, step = 0, max(total // 10, 1)
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            async with app.engine.begin() as conn:
                await conn.execute(insert(JOBS), chunk)
            done += len(chunk)
            if total and done % step < CHUNK:
                print(f"  inserted {done:,} of {total:,} jobs", flush=True)
            chunk = []
    if chunk:
        async with app.engine.begin() as conn:
            await conn.execute(insert(JOBS), chunk)


async def _cases(app: App, n: int) -> list[int]:
    """``n`` cases in the auction stage, each with its auction-day deadline, one officer;
    the deadlines' ids."""
    async with app.store.transaction() as tx:
        tx.session.add(
            User(role="officer", authority_code="KNM-GP", telegram_id=42, created_at=tx.now)
        )
        await tx.session.execute(
            insert(CaseRow),
            [
                {
                    "pound_code": "KNM",
                    "seq": i,
                    "number": f"KNM-{i}",
                    "stage": "selling",
                    "impounded_on": date(2026, 3, 1),
                    "place_seized": "market",
                    "created_at": tx.now,
                    "updated_at": tx.now,
                }
                for i in range(1, n + 1)
            ],
        )
        ids = dict((await tx.session.execute(select(CaseRow.seq, CaseRow.id))).all())
        await tx.session.execute(
            insert(DeadlineRow),
            [
                {
                    "case_id": ids[i],
                    "case_number": f"KNM-{i}",
                    "pound_code": "KNM",
                    "kind": "auction_day",
                    "who": "officer",
                    "provision": "s.13(3)",
                    "due_on": START.date(),
                    "counts_from": START.date(),
                    "status": "open",
                    "needs_plan": False,
                    "created_at": tx.now,
                    "updated_at": tx.now,
                }
                for i in range(1, n + 1)
            ],
        )
        found = await tx.session.execute(select(DeadlineRow.id).order_by(DeadlineRow.id))
        return list(found.scalars())


async def _claim_all(app: App, clock: FixedClock) -> list[float]:
    """Claim the due jobs, ROUNDS times; the seconds each claim statement took."""
    times: list[float] = []
    for _ in range(ROUNDS):
        clock.advance(seconds=LEASE.total_seconds() + 1)  # last round's leases ran out
        claimed: list[int] = []
        while len(claimed) < DUE:
            start = time.perf_counter()
            got = await claim(app.store, "bench", limit=BATCH)
            times.append(time.perf_counter() - start)
            claimed += got
            if not got:
                raise SystemExit(f"only {len(claimed)} of {DUE} due jobs could be claimed")
        # Each round claims jobs as fresh as the first: a job claimed TROUBLED_AFTER times
        # is claimed alone, as one that may be what stops the workers (not timed here).
        async with app.engine.begin() as conn:
            await conn.execute(update(JOBS).where(JOBS.c.id.in_(claimed)).values(attempts=0))
    return times


async def _plan(app: App) -> str:
    """How the database runs the claim's inner select."""
    query = due_jobs(START, BATCH, TROUBLED_AFTER)
    sql = str(query.compile(app.engine, compile_kwargs={"literal_binds": True}))
    explain = "EXPLAIN QUERY PLAN " if app.engine.dialect.name == "sqlite" else "EXPLAIN "
    async with app.engine.connect() as conn:
        rows = (await conn.execute(text(explain + sql))).all()
    return " | ".join(str(row[-1]) for row in rows)


class FakeTelegram:
    """Takes every message at once."""

    def __init__(self) -> None:
        self.sent = 0

    async def send(self, recipient: str, body: str, key: str) -> str:
        self.sent += 1
        return str(self.sent)


async def claims(url: str) -> float:
    clock = FixedClock(START)
    async with open_app(url=url, clock=clock, migrate=True) as app:
        deadlines = await _cases(app, DUE)
        due = START - timedelta(hours=1)
        await _insert(app, (_job(i, "pending", due, deadlines[i]) for i in range(DUE)))
        await _insert(app, _filler(DUE, SMALL, deadlines))
        small = await _claim_all(app, clock)
        started = time.perf_counter()
        await _insert(app, _filler(SMALL, LARGE, deadlines), total=LARGE - SMALL)
        filled = time.perf_counter() - started
        large = await _claim_all(app, clock)
        plan = await _plan(app)
    p_small, p_large = statistics.median(small), statistics.median(large)
    ratio = p_large / p_small
    print(f"claim of {BATCH} due jobs ({DUE} due, {ROUNDS} rounds), p50 per claim:")
    print(f"  {SMALL:>9,} jobs in the table: {p_small * 1e3:.2f} ms")
    print(
        f"  {LARGE:>9,} jobs in the table: {p_large * 1e3:.2f} ms  "
        f"(the {LARGE - SMALL:,} more inserted in {filled:.1f} s)"
    )
    print(f"  plan: {plan}")
    return ratio


async def rate(url: str) -> float:
    clock = FixedClock(START)
    async with open_app(url=url, clock=clock, migrate=True) as app:
        deadlines = await _cases(app, SEND)
        due = START - timedelta(minutes=5)
        await _insert(app, (_job(i, "pending", due, deadlines[i]) for i in range(SEND)))
        telegram = FakeTelegram()
        started = time.perf_counter()
        done = await remind_once(app.store, app.config, "bench", breather=0)
        queued = time.perf_counter() - started
        while await deliver_once(app.store, {"telegram": telegram}, "bench", limit=100):
            pass
        total = time.perf_counter() - started
    assert done.messages == telegram.sent == SEND, (done, telegram.sent)
    per_second = SEND / total
    print(f"dispatch of {SEND:,} reminders to a fake Telegram (one officer each):")
    print(
        f"  reminders -> outbox: {SEND / queued:,.0f} msgs/s; "
        f"outbox -> Telegram: {SEND / (total - queued):,.0f} msgs/s"
    )
    print(
        f"  end to end: {per_second:,.0f} msgs/s = {per_second / TELEGRAM_LIMIT:.0f}x "
        f"Telegram's {TELEGRAM_LIMIT:.0f} msg/s: the limit, not the engine, sets the pace"
    )
    return per_second


async def main(url: str | None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        base = url or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        other = url or f"sqlite+aiosqlite:///{Path(tmp) / 'rate.sqlite3'}"
        print(f"database: {base.split('://')[0]}")
        ratio = await claims(base)
        if url:  # one database given: clear it for the second part
            async with open_app(url=url, migrate=True) as app, app.engine.begin() as conn:
                for table in ("outbox", "reminder_jobs", "deadlines", "cases", "users"):
                    await conn.execute(text(f"DELETE FROM {table}"))
        per_second = await rate(other)
    met = verdict("claim time, 1M-row table / 10k-row table", ratio, "<=", 2.0)
    met &= verdict("reminders end to end, msgs/s", per_second, ">=", TELEGRAM_LIMIT, "{:,.0f}")
    return 0 if met else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="an empty database (default: SQLite in a temp dir)")
    sys.exit(asyncio.run(main(parser.parse_args().url)))
