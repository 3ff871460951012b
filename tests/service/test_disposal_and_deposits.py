"""Issue 12 (B, C): steps of the Act reachable through the dispatcher: other disposal
(s.13(3) proviso), a refused account sold as unclaimed (s.15(5)), the outcome of a
deposit under protest (s.14, s.19), a claim preferred to the deposit (s.16(3)), the
proclamation in the village and the market place (s.13(2)), fines to the fund (s.17(1))."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from sqlalchemy import select

from bot.caller import Caller
from bot.clock import FixedClock
from bot.dispatch import handle_text
from bot.services.base import Deps
from bot.store.models import DeadlineRow, LedgerEntry
from bot.store.tx import Store
from domain.calendar import LOCAL_TZ
from domain.case import Stage

SEIZE_ONE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed"
SEIZE_TWO = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed"


def at(day: int, month: int = 3, year: int = 2026) -> datetime:
    return datetime(year, month, day, 11, 0, tzinfo=LOCAL_TZ)


class Session:
    """Lines typed by a keeper, an officer and an owner, each in its own transaction."""

    def __init__(
        self, store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
    ) -> None:
        self.store, self.deps, self.clock = store, deps, clock
        self.keeper = dataclasses.replace(keeper, lang="en")
        self.officer = dataclasses.replace(officer, lang="en")
        self.owner = Caller.public("test", phone="+919847000111", lang="en")

    async def say(self, who: Caller, text: str, day: int | None = None, month: int = 3) -> str:
        if day is not None:
            self.clock.set(at(day, month))
        async with self.store.transaction() as tx:
            reply = await handle_text(tx, self.deps, who, text, sms=False)
        return reply.text

    async def keeper_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.keeper, text, day, month)

    async def officer_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.officer, text, day, month)

    async def stage(self, number: str = "KNM-1") -> Stage:
        async with self.store.transaction() as tx:
            return (await tx.load_case(number)).case.stage

    async def case(self, number: str = "KNM-1"):  # type: ignore[no-untyped-def]
        async with self.store.transaction() as tx:
            return (await tx.load_case(number)).case

    async def ledger(self) -> list[tuple[str, int, str]]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(select(LedgerEntry).order_by(LedgerEntry.id))
            return [(e.account, e.amount_paise, e.provision) for e in rows.scalars()]

    async def open_deadlines(self) -> dict[str, tuple[date, str, str]]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(
                select(DeadlineRow).where(DeadlineRow.status == "open")
            )
            return {r.kind: (r.due_on, r.who, r.provision) for r in rows.scalars()}


def session(store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller) -> Session:
    return Session(store, deps, clock, keeper, officer)


async def _unclaimed_to_auction(s: Session, seize: str = SEIZE_ONE) -> None:
    """Intake on 1 March, report on 9, notice on 10, auction fixed for 18 March."""
    assert "KNM-1" in await s.keeper_says(seize)
    assert "KNM-1" in await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 10)
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")


# --- 6. other disposal under the s.13(3) proviso ---------------------------------------


async def test_an_unsellable_cow_is_disposed_of_by_order_and_the_sale_settles_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    await s.officer_says("UNSOLD KNM-1 1 1", 18)
    refused = await s.officer_says("SETTLE KNM-1 0")
    assert "(s.13(3))" in refused
    assert await s.stage() is Stage.SELLING
    reply = await s.officer_says(
        "DISPOSE KNM-1 1 1 BY Director of Animal Husbandry REF DO-4/2026 HOW to the goshala"
    )
    assert "disposed of otherwise (to the goshala) by order of Director of Animal Husbandry" in (
        reply
    )
    assert "ref. DO-4/2026" in reply
    assert "(s.13(3) proviso)" in reply
    case = await s.case()
    assert case.heads_remaining == 0
    assert case.sale_outcome == "disposed_otherwise"
    settled = await s.officer_says("SETTLE KNM-1 0")
    assert "sale settled" in settled
    assert await s.stage() is Stage.CLOSED


async def test_dispose_needs_who_ordered_it_and_the_reference_and_changes_nothing_without(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    clock.set(at(18))
    no_ref = await s.officer_says("DISPOSE KNM-1 1 1 BY Director")
    assert "(s.13(3) proviso)" in no_ref
    too_many = await s.officer_says("DISPOSE KNM-1 1 2 BY Director REF DO-4")
    assert "(s.13(3))" in too_many
    early = await s.officer_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 17)
    assert "18 Mar 2026" in early
    as_keeper = await s.keeper_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 18)
    assert "role does not allow" in as_keeper
    assert (await s.case()).heads_remaining == 1


async def test_dispose_in_malayalam_with_proceeds_counts_them_in_the_sale(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    malayalam = dataclasses.replace(s.officer, lang=None)
    reply = await s.say(
        malayalam, "വിനിയോഗിച്ചു KNM-1 1 1 250 മുഖേന ഡയറക്ടർ നമ്പർ DO-4/2026 വിധം ഗോശാല", 18
    )
    assert "ഡയറക്ടർ" in reply and "DO-4/2026" in reply
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in reply.replace("ഡയറക്ടർ", ""))
    case = await s.case()
    assert case.proceeds.paise == 25000
    assert case.heads_remaining == 0


async def test_dispose_is_refused_on_the_owners_route_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    reply = await s.officer_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 5)
    assert "(s.13(3) proviso)" in reply
    assert (await s.case()).heads_remaining == 1


# --- 12. the proclamation in the village and at the market place (s.13(2)) -------------


async def test_a_notice_proclaimed_in_the_village_only_gets_the_configured_market_place(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    reply = await s.officer_says("NOTICE KNM-1 AT Kunnamangalam", 10)
    notice = (await s.case()).notice
    assert notice is not None
    market = deps.config.authorities["KNM-GP"].market_place
    configured = deps.config.authorities["KNM-GP"].market_place
    assert notice.proclaimed_at == ("Kunnamangalam", configured)


async def test_the_configured_market_place_typed_with_its_comma_is_one_place(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    market = deps.config.authorities["KNM-GP"].market_place
    assert "," in market
    await s.officer_says(f"NOTICE KNM-1 AT {market}", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == ("Kunnamangalam", market)

    assert market in reply


async def test_a_notice_with_no_place_named_is_proclaimed_at_both_configured_places(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    authority = deps.config.authorities["KNM-GP"]
    printed = await s.officer_says("NOTICE KNM-1", 10)
    assert await s.stage() is Stage.REPORTED  # NOTICE alone prints the notice
    assert "KNM-1" in printed
    await s.officer_says("NOTICE KNM-1 ON 10-03-2026")
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == (authority.village, authority.market_place)
    assert notice.on == date(2026, 3, 10)


async def test_a_market_place_named_alone_gets_the_configured_village_in_malayalam(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    malayalam = dataclasses.replace(s.officer, lang=None)
    market = "Kunnamangalam Town Market Kunnamangalam Angadi"
    reply = await s.say(malayalam, f"നോട്ടീസ് KNM-1 സ്ഥലം {market}", 10)
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in reply)
    notice = (await s.case()).notice
    assert notice is not None
    configured = deps.config.authorities["KNM-GP"].market_place
    assert notice.proclaimed_at == ("Kunnamangalam", configured)


async def test_the_configured_market_place_typed_with_its_comma_is_one_place(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    market = deps.config.authorities["KNM-GP"].market_place
    assert "," in market
    await s.officer_says(f"NOTICE KNM-1 AT {market}", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == ("Kunnamangalam", market)

