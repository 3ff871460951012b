"""Nothing twice, nothing lost: concurrent reports, repeated messages, crashes halfway."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from bot.conversation.commands import parse
from bot.conversation.reply import Refusal, run_command
from bot.services import keeper as k
from bot.services.base import Deps
from bot.store.messages import Inbound, enqueue, process_inbound
from bot.store.models import CaseEvent, CaseLot, CaseRow, InboxRow, OutboxRow, Payment, Pound
from bot.store.tx import LoadedCase, Store, Tx
from bot.support.caller import Caller
from domain.stages import Stage
from tests.service.helpers import seizure


async def _count(store: Store, model: type) -> int:
    async with store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


async def test_twenty_concurrent_seizures_get_twenty_consecutive_numbers(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    async def report() -> str:
        async with store.transaction() as tx:
            return (await k.record_seizure(tx, deps, keeper, seizure())).case.number

    numbers = await asyncio.gather(*(report() for _ in range(20)))
    assert sorted(numbers, key=lambda n: int(n.split("-")[1])) == [f"KNM-{i}" for i in range(1, 21)]
    assert await _count(store, CaseRow) == 20


async def test_the_same_message_five_times_at_once_has_one_effect_and_one_answer(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    async def handle(tx: Tx) -> str:
        recorded = await k.record_seizure(tx, deps, keeper, seizure())
        return f"recorded {recorded.case.number}"

    message = Inbound("sms", "SM0001", "+919847000002", "SEIZE 2 cow AT market", {"Body": "x"})
    replies = await asyncio.gather(*(process_inbound(store, message, handle) for _ in range(5)))
    assert replies == ["recorded KNM-1"] * 5
    assert await _count(store, CaseRow) == 1
    assert await _count(store, InboxRow) == 1
    async with store.transaction() as tx:  # stored as received, with its answer
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
    assert (row.channel, row.provider_id, row.sender) == ("sms", "SM0001", "+919847000002")
    assert (row.body, row.raw) == ("SEIZE 2 cow AT market", {"Body": "x"})
    assert row.reply == "recorded KNM-1"
    assert row.received_at <= row.processed_at
    again = await process_inbound(store, message, handle)
    assert again == "recorded KNM-1"
    assert await _count(store, CaseRow) == 1


async def test_a_crash_inside_the_transaction_leaves_no_half_made_record(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    class Crash(Exception):
        pass

    async def crashing(tx: Tx) -> str:
        await k.record_seizure(tx, deps, keeper, seizure())
        raise Crash

    message = Inbound("sms", "SM0002", "+919847000002", "SEIZE 2 cow AT market", {})
    with pytest.raises(Crash):
        await process_inbound(store, message, crashing)
    for model in (CaseRow, CaseLot, CaseEvent):
        assert await _count(store, model) == 0
    async with store.transaction() as tx:
        pound = await tx.session.get(Pound, "KNM")
        inbox = (await tx.session.execute(select(InboxRow))).scalar_one()
    assert pound is not None
    assert pound.last_case_seq == 0
    assert inbox.processed_at is None  # kept, to be retried: nothing lost

    async def working(tx: Tx) -> str:
        return (await k.record_seizure(tx, deps, keeper, seizure())).case.number

    assert await process_inbound(store, message, working) == "KNM-1"


async def test_an_outbound_message_is_queued_once_per_idempotency_key(store: Store) -> None:
    async def queue() -> bool:
        async with store.transaction() as tx:
            return await enqueue(
                tx,
                key="intake:KNM-1:owner",
                channel="sms",
                recipient="+919847000001",
                body="Your cattle ...",
            )

    results = await asyncio.gather(*(queue() for _ in range(5)))
    assert sorted(results) == [False, False, False, False, True]
    assert await _count(store, OutboxRow) == 1


async def test_a_step_on_a_case_read_before_another_step_is_refused_and_writes_nothing(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    """A step reads its case locked, so a step taken meanwhile is in what it reads. One
    given a case read before another step was recorded (nothing does that now) finds
    its place in the case's history taken: it is refused, to be sent again, and the
    transaction goes on; not a database error."""
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    async with store.transaction() as tx:
        before = (await tx.load_case("KNM-1")).case
    async with store.transaction() as tx:
        await k.record_payment(tx, deps, keeper, "KNM-1")  # the other step, first
    paid = parse("PAID KNM-1", deps.config, deps.today())
    async with store.transaction() as tx:
        row = (await tx.load_case("KNM-1", for_update=True)).row
        stale = LoadedCase(row, before)
        reply = await run_command(tx, deps, keeper, paid, "en", sms=True, loaded=stale)
        assert reply.refusal == Refusal("case_changed")
        assert reply.text == (
            "Not recorded: another step on this case was recorded at the same moment. "
            "Check the case, and send it again if it is still needed."
        )
        assert (reply.postings, reply.queued) == ((), ())
        assert (await tx.load_case("KNM-1")).case.stage is Stage.RELEASED
    assert await _count(store, CaseEvent) == 2
    assert await _count(store, Payment) == 1
