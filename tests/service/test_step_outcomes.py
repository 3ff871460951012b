"""A step answers with its outcome, typed: the case after it, why it was refused, the
postings it wrote and the messages it queued — what a channel renders, without reading
the case again or guessing from the count of events."""

from __future__ import annotations

import dataclasses

from bot.conversation.reply import handle_text
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.stages import Stage

SEIZE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed 9847012345"


async def test_a_step_done_says_the_case_after_and_what_it_wrote(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    async with store.transaction() as tx:
        seized = await handle_text(tx, deps, keeper, SEIZE, sms=True)
    assert not seized.refused
    assert seized.loaded is not None
    assert seized.loaded.row.number == "KNM-1"
    assert seized.queued == ("intake:KNM-1",)  # the owner told by SMS (s.7)
    clock.advance(days=2)
    async with store.transaction() as tx:
        paid = await handle_text(tx, deps, keeper, "PAID KNM-1", sms=True)
    assert paid.refusal is None
    assert paid.loaded is not None
    assert paid.loaded.case.stage is Stage.RELEASED
    assert len(paid.postings) == 1
    legs = paid.postings[0].legs
    assert {leg.provision for leg in legs} >= {"s.12"}
    assert sum(leg.amount.paise for leg in legs) > 0


async def test_a_step_refused_says_why_and_wrote_nothing(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    async with store.transaction() as tx:
        await handle_text(tx, deps, keeper, SEIZE, sms=True)
    async with store.transaction() as tx:
        # Reported on the day of impounding: the seven days of s.13(1) have not run.
        early = await handle_text(tx, deps, keeper, "REPORT KNM-1", sms=True)
    assert early.refused
    assert early.refusal is not None
    assert early.refusal.provision == "s.13(1)"
    assert early.postings == ()
    assert early.queued == ()
    async with store.transaction() as tx:
        unknown = await handle_text(tx, deps, keeper, "PAID KNM-9", sms=True)
    assert unknown.refusal is not None
    assert unknown.refusal.code == "unknown_case"
    async with store.transaction() as tx:
        garbled = await handle_text(tx, deps, keeper, "PAIDX KNM-1", sms=True)
    assert garbled.refused
