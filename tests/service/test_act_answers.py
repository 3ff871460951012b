"""A case under the Cattle-trespass Act, 1871, through the dispatcher as SMS and Telegram
bring it (``handle_text``): its refusals and its deadlines cite that Act's sections, and
the owner's refusal of the account (Kerala's s.15(5), which that Act lacks) is refused
with what the Act does instead, nothing written and nothing queued."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.conversation.reply import Reply, handle_text
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, DEFAULT_ACT
from domain.stages import Stage
from tests.service.helpers import open_as_given, seizure
from tests.unit.test_render_reasons import NO_S15_5

UNDER_1871 = CATTLE_TRESPASS_1871.key


def at(day: int) -> datetime:
    return datetime(2026, 3, day, 11, 0, tzinfo=LOCAL_TZ)


async def _say(store: Store, deps: Deps, who: Caller, text: str, *, sms: bool = False) -> Reply:
    async with store.transaction() as tx:
        return await handle_text(tx, deps, who, text, sms=sms)


async def _seize(store: Store, deps: Deps, keeper: Caller, act: str) -> None:
    """KNM-1: three heads brought in on 1 March 2026, under ``act``."""
    async with store.transaction() as tx:
        await open_as_given(tx, deps, keeper, dataclasses.replace(seizure(), act=act))


async def _account_due(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """Under the 1871 Act: the owner refuses to pay on 2 March, a cow is sold on 5 March,
    the sale settled; the account is due to the owner."""
    await _seize(store, deps, keeper, UNDER_1871)
    clock.set(at(2))
    await _say(store, deps, keeper, "REFUSED KNM-1")
    await _say(store, deps, officer, "AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    clock.set(at(5))
    await _say(store, deps, officer, "SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED")
    settled = await _say(store, deps, officer, "SETTLE KNM-1 500")
    assert not settled.refused, settled.text
    assert await _stage(store) is Stage.ACCOUNT_DUE


async def _stage(store: Store) -> Stage:
    async with store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case.stage


async def _events(store: Store) -> int:
    async with store.transaction() as tx:
        return len((await tx.load_case("KNM-1")).case.events)


async def test_noreceipt_under_the_1871_act_is_refused_by_sms_and_telegram_changing_nothing(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    await _account_due(store, deps, clock, keeper, officer)
    clock.set(at(6))
    events = await _events(store)
    by_sms = dataclasses.replace(officer, channel="sms", lang="en")
    refused = await _say(store, deps, by_sms, "NORECEIPT KNM-1", sms=True)
    assert refused.refused
    assert refused.refusal is not None
    assert (refused.refusal.reason, refused.refusal.provision) == ("no_counterpart", "s.15(5)")
    assert refused.text == NO_S15_5["en"]
    assert refused.queued == ()
    on_telegram = dataclasses.replace(officer, channel="telegram", lang="ml")
    in_malayalam = await _say(store, deps, on_telegram, "NORECEIPT KNM-1")
    assert in_malayalam.text == NO_S15_5["ml"]
    assert in_malayalam.queued == ()
    assert await _stage(store) is Stage.ACCOUNT_DUE
    assert await _events(store) == events
    # The account is delivered, as under any Act (s.16 of 1871; Kerala's s.15(4)).
    english = dataclasses.replace(officer, lang="en")
    receipt = await _say(store, deps, english, "RECEIPT KNM-1 BY Kunhammed")
    assert not receipt.refused, receipt.text
    assert await _stage(store) is Stage.CLOSED


async def test_a_refusal_by_sms_cites_the_section_of_the_cases_own_act(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    """A report made too early (before the 1871 Act's s.14, first paragraph, allows it):
    the refusal read from the case's Act, though the SMS carried no case but a number."""
    keeper = dataclasses.replace(keeper, lang="en")
    await _seize(store, deps, keeper, UNDER_1871)
    clock.set(at(3))
    early = await _say(store, deps, keeper, "REPORT KNM-1", sms=True)
    assert early.refused
    assert early.text.endswith("(s.14, para 1)"), early.text
    assert "s.13(1)" not in early.text


async def test_a_kerala_case_refused_the_same_way_cites_the_kerala_act(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    await _seize(store, deps, keeper, DEFAULT_ACT)
    clock.set(at(3))
    early = await _say(store, deps, keeper, "REPORT KNM-1", sms=True)
    assert early.refused
    assert early.text.endswith("(s.13(1))"), early.text


async def test_deadlines_lists_a_deadline_under_the_1871_act_with_its_paragraph(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    await _seize(store, deps, keeper, UNDER_1871)
    clock.set(at(10))  # the report was due on 9 March
    due = await _say(store, deps, dataclasses.replace(officer, lang="en"), "DEADLINES")
    assert not due.refused, due.text
    line = next(line for line in due.text.splitlines() if "KNM-1" in line)
    assert "(s.14, para 1)" in line, due.text
