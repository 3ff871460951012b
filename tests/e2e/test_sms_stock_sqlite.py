"""The embedded SQLite on SQLAlchemy's stock aiosqlite dialect: no warning at start, the
SMS rig's app runs on it (so ``tests/e2e/test_sms.py`` runs on it: it is the only SQLite
driver), and a database held by another process is refused within the wait budget
(SQLite's busy handler, asked to wait only when a BEGIN found the file held, and then no
longer than what is left of the budget)."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from bot.bootstrap import open_app
from bot.observe.metrics import REGISTRY
from bot.store.engine import BUSY_DEADLINE, make_engine
from bot.store.models import CaseRow, InboxRow
from bot.support import budget
from tests.e2e.sms_harness import KEEPER_PHONE, sms_rig
from tests.e2e.test_sms import SEIZE, count, message_of


def is_stock(engine: Any) -> bool:
    """Whether ``engine`` runs on SQLAlchemy's own aiosqlite dialect and DBAPI adapter."""
    return type(engine.dialect).__module__ == "sqlalchemy.dialects.sqlite.aiosqlite" and (
        type(engine.dialect.dbapi).__module__ == "sqlalchemy.dialects.sqlite.aiosqlite"
    )


# -- the dialect ---------------------------------------------------------------------


async def test_the_embedded_sqlite_is_the_stock_aiosqlite_dialect_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    engines = [make_engine(f"sqlite+aiosqlite:///{tmp_path / f'{i}.sqlite3'}") for i in range(3)]
    try:
        assert all(is_stock(engine) for engine in engines)
        for engine in engines:
            async with engine.begin() as conn:
                assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    finally:
        for engine in engines:
            await engine.dispose()


# -- a database held by another process: SQLite's busy timeout, within the budget ------


async def hold(path: Path) -> sqlite3.Connection:
    """Another process's write transaction on the file (taken off the event loop: the
    loop must go on serving poundbot while SQLite waits for its own lock)."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    return other


def turns_refused() -> float:
    """Requests refused their turn on the database (the Store's lock) within the budget."""
    return REGISTRY.get_sample_value("poundbot_db_wait_refused_total", {"wait": "turn"}) or 0.0


@contextmanager
def busy_waits(engine: Any) -> Iterator[list[int]]:
    """The busy timeouts (ms) poundbot hands SQLite as it begins a transaction that found
    the file held (none else: SQLite's busy handler is off otherwise): how
    long SQLite may wait for another process's lock, read from what was asked of it, not
    from the wall clock (a loaded machine must not fail the test)."""
    waits: list[int] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if found := re.fullmatch(r"PRAGMA busy_timeout=(\d+)", statement):
            waits.append(int(found[1]))

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        yield waits
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", seen)


async def test_a_database_held_by_another_process_gets_try_again_within_the_budget(
    tmp_path: Path,
) -> None:
    budget = 1.0
    async with sms_rig(tmp_path, wait_budget=budget) as rig:
        assert is_stock(rig.app.engine)
        other = await hold(tmp_path / "sms.sqlite3")
        refused_before = turns_refused()
        try:
            with busy_waits(rig.app.engine) as waits:
                results = await asyncio.gather(
                    *(
                        rig.sms(KEEPER_PHONE, f"SEIZE 1 cow AT Beypore {i}", f"SM-s-{i}")
                        for i in range(4)
                    )
                )
        finally:
            other.execute("ROLLBACK")
            other.close()
        # Each request waited within its budget, never SQLite's 5 s: either for its turn
        # (refused when the budget ran out) or in SQLite's busy handler, cut to what was
        # left. (Background work, which has no budget, may wait BUSY_DEADLINE and hold
        # the turn meanwhile.)
        within = [wait for wait in waits if wait <= budget * 1000]
        assert len(within) + (turns_refused() - refused_before) >= 4, waits
        assert all(wait in within or wait == BUSY_DEADLINE * 1000 for wait in waits), waits
        assert all("send it again" in message_of(r.text) for r in results)
        assert await count(rig, InboxRow) == 0  # nothing half-made
        assert await count(rig, CaseRow) == 0
        again = await rig.sms(KEEPER_PHONE, SEIZE, "SM-s-again")  # sent again: recorded
        assert "KNM-1" in message_of(again.text)
        assert await count(rig, CaseRow) == 1


async def test_sqlites_own_busy_timeout_is_cut_to_what_is_left_of_the_wait_budget(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'held.sqlite3'}"
    async with open_app(url=url) as app:
        assert is_stock(app.engine)
        other = await hold(tmp_path / "held.sqlite3")
        try:
            with (
                busy_waits(app.engine) as waits,
                budget.within(0.4),
                pytest.raises(OperationalError, match="locked"),
            ):
                async with app.store.transaction() as tx:
                    await tx.session.execute(text("SELECT 1"))
        finally:
            other.execute("ROLLBACK")
            other.close()
        async with app.store.transaction() as tx:  # released: on again, no budget needed
            assert await tx.session.scalar(text("SELECT 1")) == 1
    # SQLite was asked to wait what was left of the 0.4 s, not BUSY_DEADLINE's 5 s.
    assert waits
    assert all(0 < wait <= 400 for wait in waits), waits
