"""A message counted against its sender (``bot.channels.limits.admit``): one statement,
its row read back as written (a datetime in its zone), undone with the savepoint or the
transaction it was made in, and counted over what the session holds unflushed."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import bindparam, event, select
from sqlalchemy.exc import NoResultFound
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.channels.limits import admit
from bot.config import SenderLimits
from bot.store.engine import make_sessionmaker
from bot.store.models import SenderCount
from bot.store.tx import Store, Tx
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ)
_COUNTS = select(SenderCount.__table__).where(SenderCount.__table__.c.sender == bindparam("who"))
LIMITS = SenderLimits(window=timedelta(minutes=10), public=10)


def _store(engine: AsyncEngine) -> Store:
    return Store(
        make_sessionmaker(engine), FixedClock(NOW), serialize=engine.dialect.name == "sqlite"
    )


async def _counted(tx: Tx, who: str) -> Any:
    return (await tx.session.execute(_COUNTS, {"who": who})).one()


async def test_a_message_is_counted_in_a_row_read_back_as_written(engine: AsyncEngine) -> None:
    store = _store(engine)
    async with store.transaction() as tx:
        allowed = await admit(tx, LIMITS, "sms", "+919847000001", "public")
        assert allowed.answer
        assert allowed.until == NOW + timedelta(minutes=10)  # a datetime, in its zone
    async with store.transaction() as tx:
        row = (await tx.session.execute(_COUNTS, {"who": "+919847000001"})).one()
    assert row.window_start == NOW
    assert row.count == 1
    assert row.told is False


async def test_a_message_is_counted_in_one_statement_seen_with_the_others(
    engine: AsyncEngine,
) -> None:
    store = _store(engine)
    seen: list[str] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        seen.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        async with store.transaction() as tx:
            await tx.session.execute(select(1))
            seen.clear()
            await admit(tx, LIMITS, "sms", "+919847000002", "public")
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    assert len(seen) == 1, seen
    assert "sender_counts" in seen[0]


async def test_a_count_is_undone_with_its_savepoint_and_with_its_transaction(
    engine: AsyncEngine,
) -> None:
    """Counted in a transaction, counted again in a savepoint rolled back: one; the
    transaction rolled back: none."""
    store = _store(engine)

    async def counted_then_rolled_back() -> None:
        async with store.transaction() as tx:
            await admit(tx, LIMITS, "sms", "+919847000003", "public")
            async with tx.session.begin_nested() as savepoint:
                await admit(tx, LIMITS, "sms", "+919847000003", "public")
                assert (await _counted(tx, "+919847000003")).count == 2
                await savepoint.rollback()
            counted = await _counted(tx, "+919847000003")
            assert counted.count == 1  # the count in the savepoint was undone
            assert (await admit(tx, LIMITS, "sms", "+919847000003", "public")).answer
            assert (await _counted(tx, "+919847000003")).count == 2
            raise RuntimeError("roll the transaction back")

    with pytest.raises(RuntimeError):
        await counted_then_rolled_back()
    async with store.transaction() as tx:
        with pytest.raises(NoResultFound):  # nothing of it was committed
            await _counted(tx, "+919847000003")


async def test_a_count_the_session_holds_unflushed_is_counted_on(engine: AsyncEngine) -> None:
    """What was added to the session is written first (SQLAlchemy's autoflush)."""
    store = _store(engine)
    async with store.transaction() as tx:
        tx.session.add(
            SenderCount(
                channel="sms", sender="+919847000031", window_start=NOW, count=4, told=False
            )
        )
        admitted = await admit(tx, LIMITS, "sms", "+919847000031", "public")
        assert admitted.answer
        assert (await _counted(tx, "+919847000031")).count == 5
