"""The embedded SQLite (SQLAlchemy's stock aiosqlite dialect) never stalls the event loop
on a lock.

Another connection (here a plain ``sqlite3`` one, as the admin CLI or a second instance
would hold) takes the write lock; poundbot's transaction waits for it in SQLite's busy
handler on the driver's thread, the loop meanwhile serving others, and goes ahead as
soon as the lock is free; past ``BUSY_DEADLINE`` it gives up with an error and has
written nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import engine as store_engine
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.models import Authority, Base
from bot.store.tx import Store
from bot.support import budget
from bot.support.budget import WaitBudgetExceeded

NOW = datetime(2026, 3, 1, 5, 0, tzinfo=UTC)


class Clock:
    def now(self) -> datetime:
        return NOW


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "locks.sqlite3"


@pytest.fixture
async def engine(path: Path) -> AsyncIterator[AsyncEngine]:
    eng = make_engine(f"sqlite+aiosqlite:///{path}")
    async with eng.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    yield eng
    await eng.dispose()


@pytest.fixture
def store(engine: AsyncEngine) -> Store:
    return Store(make_sessionmaker(engine), Clock(), serialize=True)


@pytest.fixture
def other(path: Path, engine: AsyncEngine) -> Iterator[sqlite3.Connection]:
    """Another connection to the same file, which can hold the write lock."""
    conn = sqlite3.connect(path, isolation_level=None)
    yield conn
    conn.close()


async def _count(store: Store) -> int:
    async with store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(Authority)) or 0)


async def _add(store: Store, code: str) -> None:
    async with store.transaction() as tx:
        tx.session.add(Authority(code=code, name=f"Panchayat {code}"))


async def test_the_file_is_in_wal_mode_with_foreign_keys_on_the_stock_dialect(
    engine: AsyncEngine,
) -> None:
    assert engine.dialect.driver == "aiosqlite"
    assert type(engine.dialect).__module__ == "sqlalchemy.dialects.sqlite.aiosqlite"
    async with engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        # SQLite's own busy handler waits only for a BEGIN that found the file held.
        assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 0


async def test_a_lock_held_elsewhere_is_awaited_while_the_loop_serves_others(
    store: Store, other: sqlite3.Connection
) -> None:
    other.execute("BEGIN IMMEDIATE")
    writer = asyncio.create_task(_add(store, "KNM-GP"))
    ticks = 0
    for _ in range(30):  # 0.3 s of a ticker that only runs if the loop is free
        await asyncio.sleep(0.01)
        ticks += 1
    assert not writer.done()  # still waiting for the lock...
    assert ticks == 30  # ...without holding up the loop
    other.execute("COMMIT")
    await asyncio.wait_for(writer, timeout=5)
    assert await _count(store) == 1


async def test_a_lock_held_past_the_deadline_is_an_error_and_writes_nothing(
    store: Store, other: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_engine, "BUSY_DEADLINE", 0.2)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(OperationalError, match="locked"):
        await _add(store, "KNM-GP")
    other.execute("ROLLBACK")
    assert await _count(store) == 0
    await _add(store, "KNM-GP")  # the connection it used is none the worse
    assert await _count(store) == 1


async def test_database_errors_keep_their_sqlalchemy_types(store: Store) -> None:
    await _add(store, "KNM-GP")
    with pytest.raises(IntegrityError):
        await _add(store, "KNM-GP")
    assert await _count(store) == 1


async def test_a_failed_transaction_leaves_nothing_behind(store: Store) -> None:
    async def crash() -> None:
        async with store.transaction() as tx:
            tx.session.add(Authority(code="KNM-GP", name="Kunnamangalam"))
            await tx.session.flush()
            raise RuntimeError("crash between the write and the commit")

    with pytest.raises(RuntimeError):
        await crash()
    assert await _count(store) == 0


# -- the wait budget of a request (issue 13: Twilio drops an answer after 15 s) ------------


async def test_a_request_waits_for_a_lock_elsewhere_only_as_long_as_its_budget(
    store: Store, other: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lock's own deadline an hour away: only the budget can end the wait in time.
    monkeypatch.setattr(store_engine, "BUSY_DEADLINE", 3600.0)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with budget.within(0.3), pytest.raises(OperationalError, match="locked"):
        await asyncio.wait_for(_add(store, "KNM-GP"), timeout=600)
    assert time.monotonic() - started >= 0.3  # it did wait, as long as the budget allows
    other.execute("ROLLBACK")
    assert await _count(store) == 0


async def test_the_queue_counts_in_the_budget_not_only_the_lock(
    store: Store, other: sqlite3.Connection
) -> None:
    # Ten requests queue behind one another while another process holds the file: each
    # gives up within its own budget, not one budget after another.
    other.execute("BEGIN IMMEDIATE")

    async def request(code: str) -> float:
        started = time.monotonic()
        with budget.within(0.3), contextlib.suppress(OperationalError, WaitBudgetExceeded):
            await _add(store, code)
        return time.monotonic() - started

    waits = await asyncio.gather(*(request(f"GP-{i}") for i in range(10)))
    other.execute("ROLLBACK")
    assert max(waits) < 0.6
    assert await _count(store) == 0


async def test_a_turn_holds_the_database_for_several_transactions_of_one_task(
    store: Store,
) -> None:
    order: list[str] = []

    async def two_in_a_row() -> None:
        async with store.turn():
            await _add(store, "A-1")
            order.append("A-1")
            await asyncio.sleep(0.05)  # another task's transaction may not come in between
            await _add(store, "A-2")
            order.append("A-2")

    async def one() -> None:
        await asyncio.sleep(0.01)
        await _add(store, "B-1")
        order.append("B-1")

    await asyncio.gather(two_in_a_row(), one())
    assert order == ["A-1", "A-2", "B-1"]
    assert await _count(store) == 3
