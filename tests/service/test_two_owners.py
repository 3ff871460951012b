"""Cattle of two owners in one case, through the dispatcher every channel shares: an
owner per lot, each owner's step on their own lots (s.7, s.12, s.14, s.15(1))."""

from __future__ import annotations

from datetime import date

from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.accounts import FINES, FUND, KEEPER_FEEDING
from domain.events import ClaimedAndPaid, LotsSeparated
from domain.money import Money
from domain.stages import Stage
from tests.service.test_owner_answers import at, en, say, stage_of

KUNHAMMED = "+919847012345"
AYISHA = "+919847012346"
TWO_OWNERS = (
    "SEIZE 1 cow (brown) OWNER Kunhammed 9847012345 1 goat (white) OWNER Ayisha 9847012346 "
    "AT Kunnamangalam market"
)


async def seize_two(store: Store, deps: Deps, keeper: Caller) -> str:
    return await say(store, deps, en(keeper), TWO_OWNERS)


async def test_an_owner_per_lot_is_recorded_with_each_owners_number(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    reply = await seize_two(store, deps, keeper)
    assert "KNM-1" in reply
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        owners = [lot.owner.name if lot.owner else "" for lot in loaded.case.seizure.lots]
        assert owners == ["Kunhammed", "Ayisha"]
        assert await tx.lot_phones(loaded) == (KUNHAMMED, AYISHA)
        assert loaded.row.owner_phone is None
        assert (await tx.open_cases_naming(KUNHAMMED, 5))[0] == ["KNM-1"]
        assert (await tx.open_cases_naming(AYISHA, 5))[0] == ["KNM-1"]


async def test_one_owner_pays_for_their_own_lot_on_its_own_dues(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    reply = await say(store, deps, en(keeper), "PAID KNM-1 LOT 2")
    assert reply.startswith(
        "New case KNM-2 for the owner of the 1 goat of case KNM-1; case KNM-1 goes on for the "
        "rest.\nCase KNM-2: "
    )
    assert "1 goat released (s.12)" in reply
    assert await stage_of(store, "KNM-2") is Stage.RELEASED
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED
    async with store.transaction() as tx:
        first = await tx.load_case("KNM-1")
        part = await tx.load_case("KNM-2")
        assert [lot.kind for lot in first.case.seizure.lots] == ["cow"]
        assert isinstance(first.case.events[-1], LotsSeparated)
        # Each case now one owner's, with that owner's number.
        assert first.row.owner_phone == KUNHAMMED
        assert part.row.owner_phone == AYISHA
        assert (await tx.open_cases_naming(AYISHA, 5))[0] == []
        assert (await tx.open_cases_naming(KUNHAMMED, 5))[0] == ["KNM-1"]
    # The goat's dues alone: what the owner of the cow owes is untouched.
    cow = await say(store, deps, en(keeper), "DUES KNM-1")
    assert "(fines Rs 750," in cow  # a cow's fine; the goat's is paid on KNM-2


async def test_a_wrong_amount_for_a_lot_is_refused_and_nothing_is_separated(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    reply = await say(store, deps, en(keeper), "PAID KNM-1 LOT 2 5")
    assert "Rs 5" in reply
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        assert len(loaded.case.seizure.lots) == 2
        assert await tx.lot_phones(loaded) == (KUNHAMMED, AYISHA)
    # The number was not taken: the next case is KNM-2.
    assert "KNM-2" in await say(store, deps, en(keeper), "SEIZE 1 ox AT Mavoor road")


async def test_an_owner_deposits_for_their_lot_and_the_other_refuses_for_theirs(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "DEPOSITED KNM-1 LOT 1")
    assert await stage_of(store, "KNM-2") is Stage.ON_DEPOSIT
    # The goat is all that is left of KNM-1, Ayisha's: her refusal is the case's.
    reply = await say(store, deps, en(keeper), "REFUSED KNM-1 LOT 1")
    assert "New case" not in reply
    assert await stage_of(store, "KNM-1") is Stage.OWNER_REFUSED
    assert await stage_of(store, "KNM-2") is Stage.ON_DEPOSIT


async def test_a_refusal_for_one_lot_starts_s15_for_that_owners_lots_only(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "REFUSED KNM-1 LOT 1")
    assert await stage_of(store, "KNM-2") is Stage.OWNER_REFUSED
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED
    # The s.13 days run on for Ayisha's goat: reported on the 9th.
    at(clock, date(2026, 3, 9))
    await say(store, deps, en(keeper), "REPORT KNM-1")
    assert await stage_of(store, "KNM-1") is Stage.REPORTED


async def test_the_money_of_each_lot_is_kept_apart_and_the_sums_meet(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    whole = await say(store, deps, en(keeper), "DUES KNM-1")
    await say(store, deps, en(keeper), "PAID KNM-1 LOT 2")
    await say(store, deps, en(keeper), "PAID KNM-1")
    async with store.transaction() as tx:
        goat, cow = await tx.load_case("KNM-2"), await tx.load_case("KNM-1")
        ledger = await tx.ledger_of("KNM-GP")
    goat_paid, cow_paid = goat.case.events[-1], cow.case.events[-1]
    assert isinstance(goat_paid, ClaimedAndPaid)
    assert isinstance(cow_paid, ClaimedAndPaid)
    # Each case's entries are its own lot's money; together, what the whole case owed.
    by_case: dict[int, int] = {}
    for entry in ledger:
        if entry.account in (FINES, FUND, KEEPER_FEEDING):  # the fines move on to the fund
            by_case[entry.case_id] = by_case.get(entry.case_id, 0) + entry.amount_paise
    assert by_case == {goat.row.id: goat_paid.paid.paise, cow.row.id: cow_paid.paid.paise}
    assert whole.startswith("Case KNM-1: Rs 1,431.50 due on 3 Mar 2026")
    assert goat_paid.paid + cow_paid.paid == Money.rupees("1431.50")


async def test_a_lot_the_case_has_not_is_refused(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    reply = await say(store, deps, en(keeper), "PAID KNM-1 LOT 3")
    assert "lot 3" in reply.lower()
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED


async def test_without_lot_a_step_is_the_whole_cases(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    reply = await say(store, deps, en(keeper), "PAID KNM-1")
    assert "New case" not in reply
    assert await stage_of(store, "KNM-1") is Stage.RELEASED


async def test_the_keepers_reply_numbers_each_lot_with_its_owner(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    reply = await say(store, deps, en(keeper), TWO_OWNERS, sms=False)
    assert "Lot 1: 1 cow, owner Kunhammed.\nLot 2: 1 goat, owner Ayisha.\n" in reply
    one = await say(store, deps, en(keeper), "SEIZE 2 cow OWNER Ravi AT Mavoor", sms=False)
    assert "Lot 1" not in one
    unknown = await say(
        store, deps, en(keeper), "SEIZE 1 cow OWNER Ravi 1 goat AT Mavoor", sms=False
    )
    assert "Lot 1: 1 cow, owner Ravi.\nLot 2: 1 goat, owner not known.\n" in unknown


async def test_correct_sets_one_lots_owner_and_a_lot_the_case_has_not_is_refused(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    await seize_two(store, deps, keeper)
    refused = await say(
        store, deps, en(keeper), "CORRECT KNM-1 OWNER LOT 3 Ayisha 9847012347 BECAUSE typo"
    )
    assert "There is no lot 3 in this case." in refused
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        assert await tx.lot_phones(loaded) == (KUNHAMMED, AYISHA)
        assert len(loaded.case.events) == 1
    await say(
        store, deps, en(keeper), "CORRECT KNM-1 OWNER LOT 2 Ayisha K 9847012347 BECAUSE new phone"
    )
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        owners = [lot.owner.name if lot.owner else "" for lot in loaded.case.seizure.lots]
        assert owners == ["Kunhammed", "Ayisha K"]
        assert await tx.lot_phones(loaded) == (KUNHAMMED, "+919847012347")
