"""The keeper's CASES lists the cases with cattle still in the pound, each with the
cattle remaining, what is still owed and the days impounded, as the case's figures
(``domain.figures``) have them: the same figures DUES, STATUS and FIND give; the
notice, the board and the charts count the cattle left by the same figures."""

from __future__ import annotations

from bot.services import board as boards
from bot.services import charts
from bot.services.base import Deps, figures_for
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.stages import Stage
from tests.service.test_disposal_and_deposits import Session, at, session

SEIZE_THREE = "SEIZE 3 cow AT Kunnamangalam market OWNER Kunhammed"
SEIZE_GOAT = "SEIZE 1 goat AT Pathimangalam junction"


def _line(listing: str, number: str) -> str:
    return next((x for x in listing.splitlines() if x.startswith(f"{number}:")), "")


async def test_cases_after_a_refused_account_gives_the_cattle_left_and_what_remains_owed(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """Three cows; the owner refuses to pay; one sold for more than the dues and settled;
    the owner refuses the account (s.15(5)): CASES says 2 cows, what remains unmet (the
    feeding since), and the days impounded, as FIND and DUES do."""
    s: Session = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_THREE)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 6000 TO Mammu, Kunnamangalam DECLARED", 5)
    assert "sale settled" in await s.officer_says("SETTLE KNM-1 300")
    await s.officer_says("NORECEIPT KNM-1", 6)
    clock.set(at(8))
    assert (await s.case()).stage is Stage.DEEMED_UNCLAIMED
    async with store.transaction() as tx:
        figures = figures_for(deps, (await tx.load_case("KNM-1")).case)
    assert figures.remaining == 2
    assert figures.days_impounded == 8
    unmet = figures.unmet
    assert unmet.paise > 0
    listing = await s.keeper_says("CASES")
    line = _line(listing, "KNM-1")
    assert line.startswith("KNM-1: 2 cows, 8 days in the pound"), listing
    rupees = f"₹{unmet.paise // 100:,}"
    assert f"dues {rupees}" in line, (line, unmet)
    assert "2 cow" in await s.say(s.owner, "FIND cow")
    assert rupees in await s.say(s.owner, "DUES KNM-1")


async def test_cases_lists_no_case_whose_cattle_have_all_left_the_pound(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """A goat sold unclaimed and the sale settled is not an open case of the pound, nor
    is a case released on payment; a case with cattle in the pound is."""
    s: Session = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_GOAT, 1)
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 5000 TO Joseph Mathew, Chathamangalam DECLARED", 18)
    assert "sale settled" in await s.officer_says("SETTLE KNM-1 300")
    await s.keeper_says(SEIZE_THREE, 19)
    await s.keeper_says(SEIZE_GOAT)
    await s.keeper_says("PAID KNM-3", 20)
    assert (await s.case("KNM-1")).stage is not Stage.SELLING
    assert "sold" in await s.say(s.owner, "STATUS KNM-1")
    listing = await s.keeper_says("CASES", 23)
    assert not _line(listing, "KNM-1"), listing
    assert not _line(listing, "KNM-3"), listing
    assert _line(listing, "KNM-2").startswith("KNM-2: 3 cows, 5 days in the pound"), listing
    assert listing.startswith("1 open case:"), listing


async def test_a_part_sale_leaves_the_notice_the_board_and_the_charts_with_the_cattle_left(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    """Three cows unclaimed, one sold at the auction: the notice printed again (item (a),
    s.13(2)) and the public board name the two still in the pound, as FIND does; once
    the other two are sold too (the sale not yet settled), CASES and the board leave the
    case out and the charts count it as gone from the pound."""
    s: Session = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_THREE, 1)
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 9000 TO Joseph Mathew, Chathamangalam DECLARED", 18)
    printed = await s.officer_says("NOTICE KNM-1")
    item = next(x for x in printed.splitlines() if x.startswith("(a)"))
    assert item.startswith("(a) Number and description of the cattle: 2 cows"), printed
    assert "2 cows" in await s.say(s.owner, "FIND cow")
    async with store.transaction() as tx:
        (board,) = await boards.notice_board(tx, deps, "KNM-GP")
    assert sum(lot.count for lot in board.facts.lots) == 2
    await s.officer_says("SOLD KNM-1 1 2 19000 TO Joseph Mathew, Chathamangalam DECLARED")
    assert (await s.case()).stage is Stage.SELLING
    assert not _line(await s.keeper_says("CASES"), "KNM-1")
    async with store.transaction() as tx:
        assert await boards.notice_board(tx, deps, "KNM-GP") == []
        year = await charts.year_figures(tx, deps, officer, 2026)
    stays = {series.key: sum(series.values) for series in year.stays}
    assert stays == {"left": 1, "still": 0}, year.stays
