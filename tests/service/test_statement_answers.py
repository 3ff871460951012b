"""DUES, STATUS, the s.15(3) account and REGISTER read one statement of the case, so they
agree on the paths few walk: a refused account whose rest is sold as unclaimed
(s.15(5), s.16(3)) and the time impounded of a head sold before the settlement
(s.15(3)(b))."""

from __future__ import annotations

import dataclasses

from bot.conversation.reply import handle_text
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.stages import Stage
from tests.service.test_disposal_and_deposits import Session, at, session

SEIZE_THREE = "SEIZE 3 cow AT Kunnamangalam market OWNER Kunhammed"


async def _sms(s: Session, who: Caller, text: str) -> str:
    async with s.store.transaction() as tx:
        reply = await handle_text(tx, s.deps, who, text, sms=True)
    return reply.text


def _rupees(paise: int) -> str:
    """Whole rupees with the thousands grouped as the replies write them (12,000)."""
    whole = paise // 100
    return f"{whole:,}"


async def _met_by_first_sale(s: Session) -> int:
    """The paise of the first sale that met the dues (s.15(2), s.16(1), s.16(2))."""
    ledger = await s.ledger()
    return sum(
        a
        for account, a, p in ledger
        if account in ("sale_expenses", "keeper_feeding") or (account, p) == ("fines", "s.16(1)")
    )


async def _refused_after_one_sold(s: Session) -> None:
    """Three cows in on 1 March; the owner refuses to pay on 2 March; one sold for
    Rs 12,000 on 5 March, settled with Rs 300 of expenses; on 6 March the owner refuses
    the account: the two others are deemed unclaimed (s.15(5))."""
    await s.keeper_says(SEIZE_THREE)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 12000 TO Mammu, Kunnamangalam DECLARED", 5)
    assert "sale settled" in await s.officer_says("SETTLE KNM-1 300")
    await s.officer_says("NORECEIPT KNM-1", 6)
    assert await s.stage() is Stage.DEEMED_UNCLAIMED


async def _rest_sold(s: Session) -> str:
    """The two others reported, noticed and sold as unclaimed (Rs 9,000 and Rs 9,500)."""
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 9000 TO Joseph Mathew, Chathamangalam DECLARED", 18)
    await s.officer_says("SOLD KNM-1 1 1 9500 TO Joseph Mathew, Chathamangalam DECLARED")
    return await s.officer_says("SETTLE KNM-1 300")


# --- after NORECEIPT, DUES owes only what the sale did not meet (s.15(5), s.15(2)) ------


async def test_dues_after_noreceipt_do_not_count_again_what_the_sale_met_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_after_one_sold(s)
    clock.set(at(31))
    for sms in (True, False):
        reply = await (_sms(s, s.owner, "DUES KNM-1") if sms else s.say(s.owner, "DUES KNM-1"))
        assert "deemed unclaimed" in reply, reply
        assert "(s.15(5))" in reply
        # The first sale met part of the dues (the fines, the feeding of the three cows
        # to 5 March, the expenses); the owner may pay the rest until a head of the
        # second sale is sold (s.12, s.13(3)).
        assert "10,623" not in reply, reply
        if not sms:
            assert _rupees(await _met_by_first_sale(s)) in reply, reply
        assert "(s.12)" in reply
        # The next step: the keeper's report of the rest (s.13(1)).
        assert "(s.13(1))" in reply


async def test_dues_after_noreceipt_in_malayalam_give_what_is_still_owed_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_after_one_sold(s)
    clock.set(at(31))
    owner = dataclasses.replace(s.owner, lang="ml")
    reply = await _sms(s, owner, "DUES KNM-1")
    assert "10,623" not in reply, reply
    # The dues less what the first sale met: what the owner may pay until a head of the
    # second sale is sold (s.12, s.13(3)).
    owed = 1062350 - await _met_by_first_sale(s)
    assert _rupees(owed) in reply, reply
    assert "15(5)" in reply
    assert "വകുപ്പ് 12" in reply


# --- after the second round, the account counts every round (s.15(3)(d), (e)) ----------


async def test_status_dues_and_account_after_the_second_round_count_every_round_s15_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_after_one_sold(s)
    settled = await _rest_sold(s)
    assert "(d) Number of cattle sold: 3\n" in settled, settled
    assert "(e) Proceeds of sale: ₹30,500" in settled
    case = await s.case()
    assert case.stage is Stage.IN_DEPOSIT
    held = _rupees(case.deposit_total.paise)
    assert f"Held in deposit by the local authority: ₹{held}" in settled, settled
    for text in ("STATUS KNM-1", "DUES KNM-1"):
        for reply in (await s.say(s.owner, text), await _sms(s, s.owner, text)):
            assert "2 of 3" not in reply, reply
            assert "18,500" not in reply, reply
            assert "3 of 3 head sold" in reply, reply
            assert "30,500" in reply, reply
            assert held in reply, reply


async def test_the_account_after_the_second_round_in_malayalam_counts_every_round_s15_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_after_one_sold(s)
    await _rest_sold(s)
    held = _rupees((await s.case()).deposit_total.paise)
    owner = dataclasses.replace(s.owner, lang="ml")
    for text in ("STATUS KNM-1", "DUES KNM-1"):
        reply = await s.say(owner, text)
        assert "18,500" not in reply, reply
        assert "30,500" in reply, reply
        assert held in reply, reply
        # The SMS may leave the account out within its budget, never give a wrong one.
        assert "18,500" not in await _sms(s, owner, text)


# --- the time impounded ends when the head leaves the pound (s.15(3)(b)) ---------------


async def test_the_time_impounded_ends_on_the_day_the_head_was_sold_s15_3_b(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    clock.set(at(11, 8))
    assert "KNM-1" in await s.keeper_says("SEIZE 1 buffalo AT Kunnamangalam market")
    await s.keeper_says("REPORT KNM-1", 19, 8)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 19, 8)
    await s.officer_says("AUCTION KNM-1 ON 27-08-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED", 27, 8)
    settled = await s.officer_says("SETTLE KNM-1 0", 31, 8)
    assert "(b) Time impounded: 11 Aug 2026 to 27 Aug 2026, 17 days" in settled, settled
    assert "17 days" in settled
    assert "21 days" not in settled


# --- the deposit register holds what a refused account put into deposit (s.16(3)) -----


async def test_register_holds_the_first_rounds_surplus_after_noreceipt_s16_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_after_one_sold(s)
    held = sum(a for account, a, _ in await s.ledger() if account == "surplus_deposit")
    assert held == 1200000 - await _met_by_first_sale(s)
    register = await s.officer_says("REGISTER", 9)
    assert "Nothing is held in deposit" not in register, register
    assert "KNM-1" in register
    assert f"₹{_rupees(held)}" in register, register
    # The three months run from the settlement of the rest (s.15(5), s.16(3)).
    assert "(s.15(5))" in register
    await s.keeper_says("REPORT KNM-1", 9)
    assert f"₹{_rupees(held)}" in await s.officer_says("REGISTER")
