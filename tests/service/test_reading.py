"""A transaction opened only to read (``Store.reading``): it reads what is committed,
ends without a commit, and refuses to be given anything to write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from sqlalchemy import func, insert, select

from bot.channels.limits import admit
from bot.config import SenderLimits
from bot.services import keeper as keeper_steps
from bot.services.base import Deps
from bot.store.models import CaseRow, Contact, SenderCount
from bot.store.tx import ReadOnlyError, Store, Tx
from bot.support.caller import Caller
from tests.service.helpers import seizure


async def test_a_reading_transaction_reads_what_is_committed(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    async with store.reading() as tx:
        assert await tx.session.scalar(select(func.count()).select_from(CaseRow)) == 0
    async with store.transaction() as tx:
        await keeper_steps.record_seizure(tx, deps, keeper, seizure())
    async with store.reading() as tx:
        assert await tx.session.scalar(select(CaseRow.number)) == "KNM-1"
        loaded = await tx.load_case("KNM-1")
    assert loaded.case.seizure.pound == "KNM"


PHONE = "+919847000041"


async def _added(tx: Tx) -> None:
    tx.session.add(Contact(phone=PHONE, updated_at=tx.now))


async def _added_then_read(tx: Tx) -> None:  # the query's autoflush would write it
    tx.session.add(Contact(phone=PHONE, updated_at=tx.now))
    await tx.session.execute(select(Contact))


async def _inserted(tx: Tx) -> None:
    await tx.session.execute(insert(Contact).values(phone=PHONE, updated_at=tx.now))


async def _counted(tx: Tx) -> None:  # a Core statement that writes (INSERT ... RETURNING)
    await admit(tx, SenderLimits(window=timedelta(minutes=10), public=10), "sms", PHONE, "public")


async def _queued(tx: Tx) -> None:
    tx.queued.append("a message")


@pytest.mark.parametrize("write", [_added, _added_then_read, _inserted, _counted, _queued])
async def test_a_reading_transaction_refuses_what_it_is_given_to_write(
    store: Store, write: Callable[[Tx], Awaitable[None]]
) -> None:
    with pytest.raises(ReadOnlyError):
        async with store.reading() as tx:
            await write(tx)
    async with store.transaction() as tx:  # and nothing of it was written
        assert await tx.session.get(Contact, PHONE) is None
        assert await tx.session.scalar(select(func.count()).select_from(SenderCount)) == 0
