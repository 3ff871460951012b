"""Cattle of two owners on the Act's routes: the notice and board after one owner paid
(s.13(2), s.13(3)); one owner's s.15 sale, account and receipt (s.15(1), s.15(3), s.15(4))."""

from __future__ import annotations

from bot.services import board as boards
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.stages import Stage
from tests.service.test_disposal_and_deposits import Session, session
from tests.service.test_two_owners import TWO_OWNERS


async def test_after_one_owner_pays_the_notice_and_board_list_the_other_owners_cattle_only(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """The notice posted for both owners' cattle; the goat's owner pays for it: the notice
    printed again and the public board name the cow alone, and the s.13(3) auction of the
    cow goes on from that notice; the goat's case carries the notice it was offered on."""
    s: Session = session(store, deps, clock, keeper, officer)
    await s.keeper_says(TWO_OWNERS, 1)
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 10)
    await s.keeper_says("PAID KNM-1 LOT 2", 12)
    printed = await s.officer_says("NOTICE KNM-1")
    item = next(x for x in printed.splitlines() if x.startswith("(a)"))
    assert item.startswith("(a) Number and description of the cattle: 1 cow"), printed
    assert "goat" not in item
    async with store.transaction() as tx:
        (board,) = await boards.notice_board(tx, deps, "KNM-GP")
    assert board.facts.number == "KNM-1"
    assert [(lot.kind, lot.count) for lot in board.facts.lots] == [("cow", 1)]
    assert (await s.case("KNM-2")).notice is not None
    assert (await s.case("KNM-2")).stage is Stage.RELEASED
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 9000 TO Joseph Mathew, Chathamangalam DECLARED", 18)
    assert (await s.case("KNM-1")).heads_remaining == 0


async def test_a_refusing_owners_sale_sells_their_cattle_only_and_their_account_is_theirs(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """Kunhammed refuses to pay for his cow (s.15(1)): his cow alone is sold and settled,
    the s.15(3) account and the s.15(4) receipt are his case's; Ayisha's goat stays in the
    pound on the s.13 way, its dues untouched."""
    s: Session = session(store, deps, clock, keeper, officer)
    await s.keeper_says(TWO_OWNERS, 1)
    await s.keeper_says("REFUSED KNM-1 LOT 1", 2)
    await s.officer_says("AUCTION KNM-2 ON 04-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-2 1 1 9000 TO Joseph Mathew, Chathamangalam DECLARED", 4)
    settled = await s.officer_says("SETTLE KNM-2 0")
    assert "KNM-2" in settled
    await s.officer_says("RECEIPT KNM-2 BY Kunhammed")
    cow, goat = await s.case("KNM-2"), await s.case("KNM-1")
    assert cow.stage is Stage.CLOSED
    assert [lot.kind for lot in cow.seizure.lots] == ["cow"]
    assert goat.stage is Stage.IMPOUNDED
    assert [lot.kind for lot in goat.seizure.lots] == ["goat"]
    assert goat.heads_remaining == 1
