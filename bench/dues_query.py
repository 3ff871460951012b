"""Benchmark: the owner's "dues on a case" query against a bare primary-key read.

Counts the SQL statements the query issues (target: at most 3) with SQLAlchemy
events, and times both in the same run on the same database, reporting the ratio.
Run: ``make bench`` (or ``.venv/bin/python bench/dues_query.py``).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from sqlalchemy import event, select
from targets import verdict

from bot.bootstrap import open_app
from bot.services import keeper, public
from bot.store.models import CaseRow
from bot.support.caller import KEEPER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.s07_seizure import Lot, Seizure

CASES = 2_000
ROUNDS = 2_000
MAX_STATEMENTS = 3


async def main() -> int:
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        async with open_app(url=url, clock=clock) as app:
            caller = Caller(role=KEEPER, channel="bench", pound="KNM", authority="KNM-GP")
            lots = (Lot("cow", 2, "brown"), Lot("goat", 3, "black"), Lot("buffalo", 1, ""))
            for _ in range(CASES // 100):
                async with app.store.transaction() as tx:
                    for _ in range(100):
                        seizure = Seizure(
                            "KNM", lots, "Kunnamangalam market", datetime(2026, 3, 1, 9, 0)
                        )
                        await keeper.record_seizure(tx, app.deps, caller, seizure)
            clock.set(datetime(2026, 3, 20, 10, 0, tzinfo=LOCAL_TZ))

            statements: list[str] = []

            def count(*args: object) -> None:
                statements.append(str(args[2]))

            event.listen(app.engine.sync_engine, "before_cursor_execute", count)
            async with app.store.transaction() as tx:
                statements.clear()
                await public.dues_today(tx, app.deps, "KNM-1000")
                issued = [s for s in statements if not s.startswith(("BEGIN", "COMMIT"))]
            event.remove(app.engine.sync_engine, "before_cursor_execute", count)

            async def dues(i: int) -> None:
                async with app.store.transaction() as tx:
                    await public.dues_today(tx, app.deps, f"KNM-{i % CASES + 1}")

            async def bare(i: int) -> None:
                async with app.store.transaction() as tx:
                    await tx.session.execute(select(CaseRow).where(CaseRow.id == i % CASES + 1))

            results = {}
            for name, fn in (("bare primary-key read", bare), ("dues on a case", dues)):
                times = []
                for i in range(ROUNDS):
                    start = time.perf_counter()
                    await fn(i)
                    times.append(time.perf_counter() - start)
                results[name] = times
    for s in issued:
        print("   ", " ".join(s.split())[:110])
    for name, times in results.items():
        times.sort()
        print(
            f"{name:>22}: p50 {statistics.median(times) * 1e3:.3f} ms, "
            f"p99 {times[int(len(times) * 0.99)] * 1e3:.3f} ms"
        )
    ratio = statistics.median(results["dues on a case"]) / statistics.median(
        results["bare primary-key read"]
    )
    print(f"ratio (dues / bare read, p50): {ratio:.2f}x")
    statements = len(issued)
    met = verdict("SQL statements for 'dues on a case'", statements, "<=", MAX_STATEMENTS, "{:.0f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
