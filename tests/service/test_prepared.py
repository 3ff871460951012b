"""A statement run on the driver (``bot.store.prepared``) answers as SQLAlchemy would:
the same row, read by name and by place, the same types; its errors raised as
SQLAlchemy raises them; and it is seen by whoever counts the statements."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import (
    BigInteger,
    Integer,
    bindparam,
    event,
    func,
    literal_column,
    select,
    union_all,
)
from sqlalchemy.engine import Row
from sqlalchemy.exc import DBAPIError, NoResultFound, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.channels.limits import admit
from bot.config import SenderLimits
from bot.store.engine import make_sessionmaker
from bot.store.models import SenderCount
from bot.store.prepared import Prepared
from bot.store.tx import Store
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ)
_COUNTS = select(SenderCount.__table__).where(SenderCount.__table__.c.sender == bindparam("who"))
COUNTS = Prepared.select(_COUNTS)


def _store(engine: AsyncEngine) -> Store:
    return Store(
        make_sessionmaker(engine), FixedClock(NOW), serialize=engine.dialect.name == "sqlite"
    )


async def test_a_row_read_on_the_driver_is_the_row_sqlalchemy_reads(engine: AsyncEngine) -> None:
    store = _store(engine)
    limits = SenderLimits(window=timedelta(minutes=10), public=10)
    async with store.transaction() as tx:
        allowed = await admit(tx, limits, "sms", "+919847000001", "public")
        assert allowed.answer
        assert allowed.until == NOW + timedelta(minutes=10)  # a datetime, in its zone
    async with store.transaction() as tx:
        await tx.session.execute(select(1))  # begun: the driver is used
        row = await COUNTS.one(tx, {"who": "+919847000001"})
        expected = (await tx.session.execute(_COUNTS, {"who": "+919847000001"})).one()
    assert not isinstance(row, Row)  # read on the driver, not through SQLAlchemy
    assert tuple(row) == tuple(expected)
    assert row.window_start == expected.window_start == NOW
    assert row.count == 1
    assert row.told is False


async def test_a_statement_on_the_driver_is_counted_with_the_others(engine: AsyncEngine) -> None:
    store = _store(engine)
    seen: list[str] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        seen.append(statement)

    limits = SenderLimits(window=timedelta(minutes=10), public=10)
    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        async with store.transaction() as tx:
            await tx.session.execute(select(1))
            await admit(tx, limits, "sms", "+919847000002", "public")
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    assert any("sender_counts" in statement for statement in seen), seen


async def test_an_error_on_the_driver_is_raised_as_sqlalchemy_raises_it(
    engine: AsyncEngine,
) -> None:
    store = _store(engine)
    sqlite = engine.dialect.name == "sqlite"
    # An integer overflow on SQLite, a division by zero on PostgreSQL: both refused.
    failing = Prepared.select(
        select(func.abs(bindparam("n", type_=BigInteger)).label("x"))
        if sqlite
        else select((literal_column("1") / bindparam("n", type_=Integer)).label("x"))
    )

    async def refused() -> None:
        async with store.transaction() as tx:
            await tx.session.execute(select(1))  # begun: the driver is used
            await failing.one(tx, {"n": -(2**63) if sqlite else 0})

    with pytest.raises(OperationalError if sqlite else DBAPIError):
        await refused()


async def test_no_row_on_the_driver_is_refused_as_sqlalchemy_refuses_it(
    engine: AsyncEngine,
) -> None:
    store = _store(engine)
    async with store.transaction() as tx:
        await tx.session.execute(select(1))  # begun: the driver is used
        with pytest.raises(NoResultFound):
            await COUNTS.one(tx, {"who": "+919847000009"})


async def test_statements_after_the_first_run_in_the_transaction_the_session_holds(
    engine: AsyncEngine,
) -> None:
    """The second and later statements on the driver go to the connection the first one
    found: in the same transaction (rolled back with it), a savepoint's rollback between
    them included."""
    store = _store(engine)
    limits = SenderLimits(window=timedelta(minutes=10), public=10)

    async def counted_then_rolled_back() -> None:
        async with store.transaction() as tx:
            await tx.session.execute(select(1))
            await admit(tx, limits, "sms", "+919847000003", "public")  # finds the driver
            assert tx.driver is not None
            async with tx.session.begin_nested() as savepoint:
                await admit(tx, limits, "sms", "+919847000003", "public")
                await savepoint.rollback()
            counted = await COUNTS.one(tx, {"who": "+919847000003"})
            assert counted.count == 1  # the count in the savepoint was rolled back
            assert counted == (await tx.session.execute(_COUNTS, {"who": "+919847000003"})).one()
            raise RuntimeError("roll the transaction back")

    with pytest.raises(RuntimeError):
        await counted_then_rolled_back()
    async with store.transaction() as tx:
        await tx.session.execute(select(1))
        with pytest.raises(NoResultFound):  # nothing of it was committed
            await COUNTS.one(tx, {"who": "+919847000003"})


_SENDERS = SenderCount.__table__.c
#: A list bound to IN twice (once in each half of a UNION), with a value between them.
_SOME_COUNTS = select(_SENDERS.sender, _SENDERS.window_start, _SENDERS.count).where(
    _SENDERS.sender.in_(bindparam("who", expanding=True))
)
SOME_COUNTS = Prepared.select(
    union_all(
        _SOME_COUNTS,
        _SOME_COUNTS.with_only_columns(
            _SENDERS.sender, _SENDERS.window_start, _SENDERS.count + bindparam("more")
        ),
    ).order_by("sender", "count")
)


async def test_a_list_bound_to_in_reads_the_rows_sqlalchemy_reads_whatever_its_length(
    engine: AsyncEngine,
) -> None:
    store = _store(engine)
    limits = SenderLimits(window=timedelta(minutes=10), public=10)
    senders = [f"+91984700002{n}" for n in range(3)]
    async with store.transaction() as tx:
        for n, sender in enumerate(senders):
            for _ in range(n + 1):
                await admit(tx, limits, "sms", sender, "public")
    async with store.transaction() as tx:
        await tx.session.execute(select(1))  # begun: the driver is used
        # Each length once, then again (its SQL kept), in another order.
        for who in ([], senders[:1], senders[1:], senders, senders[::-1], senders[2:]):
            params = {"who": who, "more": 10}
            rows = await SOME_COUNTS.all(tx, params)
            expected = (await tx.session.execute(SOME_COUNTS.statement, params)).all()
            assert [tuple(row) for row in rows] == [tuple(row) for row in expected]
            assert len(rows) == 2 * len(who)
            assert all(row.window_start == NOW for row in rows)  # a datetime, in its zone
    assert [row.count for row in rows] == [3, 13]


async def test_rows_the_session_holds_unflushed_are_read_as_sqlalchemy_reads_them(
    engine: AsyncEngine,
) -> None:
    """As SQLAlchemy's autoflush does before a statement, what was added is written first."""
    store = _store(engine)
    async with store.transaction() as tx:
        await tx.session.execute(select(1))  # begun: the driver is used
        assert await COUNTS.all(tx, {"who": "+919847000031"}) == []
        tx.session.add(
            SenderCount(
                channel="sms", sender="+919847000031", window_start=NOW, count=4, told=False
            )
        )
        row = await COUNTS.one(tx, {"who": "+919847000031"})
    assert row.count == 4
