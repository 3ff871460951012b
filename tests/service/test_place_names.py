"""A place an officer names — where the notice was proclaimed, where the auction is held —
is read in the reader's language when it is one of the configured names (in any of its
forms, in any case), and is kept as it was typed: the record says what the officer said."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Config
from bot.config.names import PlaceNames, local
from bot.i18n import render
from bot.i18n.catalogs import translator
from bot.i18n.public.next_step import auction_steps
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.engine import make_sessionmaker
from bot.store.models import CaseEvent
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from tests.service.helpers import to_notice

ML, EN = translator("ml"), translator("en")


async def _noticed(
    store: Store,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    places: tuple[str, ...] = (),
) -> str:
    """KNM-1 up to its notice posted; the officer's reply in Malayalam."""
    recorded = await to_notice(store, deps, keeper, officer, clock, places)
    return render.notice_recorded(recorded.case, ML)


async def _payloads(store: Store, kind: str) -> list[dict[str, object]]:
    async with store.transaction() as tx:
        found = await tx.session.execute(select(CaseEvent.payload).where(CaseEvent.type == kind))
        return [dict(p) for (p,) in found]


def test_a_place_is_found_by_any_of_its_forms_and_keeps_the_text_typed(config: Config) -> None:
    places = config.place_names
    for typed in ("Pathimangalam Chantha", "pathimangalam  CHANTHA", "പതിമംഗലം ചന്ത"):
        found = places(typed)
        assert str(found) == typed
        assert local(found, "ml") == "പതിമംഗലം ചന്ത"
        assert local(found, "en") == "Pathimangalam Chantha"
    assert local(places("the old school ground"), "ml") == "the old school ground"
    assert local(places(""), "ml") == ""
    assert len(PlaceNames(["plain text, no forms"])) == 0


async def test_the_notice_read_in_malayalam_names_the_office_and_places_in_malayalam(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    reply = await _noticed(store, deps, keeper, officer, clock)
    assert "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് ഓഫീസ്" in reply, reply
    assert "കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്" in reply, reply
    assert "Kunnamangalam" not in reply, reply
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
    english = render.notice_recorded(loaded.case, EN)
    assert "Kunnamangalam Grama Panchayat Office" in english, english
    assert "Kunnamangalam Town Market" in english, english
    # Stored in English, the names of the configuration as they are.
    (stored,) = await _payloads(store, "NoticePosted")
    assert stored["proclaimed_at"] == [
        "Kunnamangalam",
        "Kunnamangalam Town Market, Kunnamangalam Angadi",
    ]


async def test_places_typed_are_stored_as_typed_and_read_in_malayalam(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    typed = ("pathimangalam", "Pathimangalam chantha")
    reply = await _noticed(store, deps, keeper, officer, clock, typed)
    assert "പതിമംഗലം ചന്ത" in reply, reply
    (stored,) = await _payloads(store, "NoticePosted")
    assert stored["proclaimed_at"] == list(typed)


async def test_the_auction_place_reaches_a_malayalam_owner_in_malayalam_after_a_restart(
    engine: AsyncEngine,
    store: Store,
    config: Config,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
) -> None:
    await _noticed(store, deps, keeper, officer, clock)
    async with store.transaction() as tx:
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 18), place="chathamangalam market"
        )
    sms = render.auction_sms(
        "KNM-1", date(2026, 3, 18), config.place_names("chathamangalam market"), ML
    )
    assert "ചാത്തമംഗലം മാർക്കറ്റ്" in sms, sms
    # A new server (nothing cached) reads the stored text and finds the name again.
    fresh = Store(make_sessionmaker(engine), clock, places=config.place_names)
    async with fresh.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    (malayalam, *_) = auction_steps(case, ML)
    assert "ചാത്തമംഗലം മാർക്കറ്റ്" in malayalam, malayalam
    (english, *_) = auction_steps(case, EN)
    assert "Chathamangalam Market" in english, english
    (stored,) = await _payloads(store, "AuctionScheduled")
    assert stored["place"] == "chathamangalam market"


async def test_a_place_that_is_no_configured_name_reads_as_typed_in_every_language(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await _noticed(store, deps, keeper, officer, clock)
    async with store.transaction() as tx:
        recorded = await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 18), place="Old school ground"
        )
    for tr in (ML, EN, translator("ta"), translator("kn")):
        (line, *_) = auction_steps(recorded.case, tr)
        assert "Old school ground" in line, line


def test_a_configured_name_that_holds_a_comma_is_one_place(config: Config) -> None:
    regroup = config.place_names.regroup
    market = ("Kunnamangalam Town Market", "Kunnamangalam Angadi")
    assert regroup(("Kunnamangalam", *market)) == (
        "Kunnamangalam",
        "Kunnamangalam Town Market, Kunnamangalam Angadi",
    )
    assert regroup(("കുന്ദമംഗലം", "കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്", "കുന്ദമംഗലം അങ്ങാടി")) == (
        "കുന്ദമംഗലം",
        "കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി",
    )
    assert regroup(("a school", "a temple ground")) == ("a school", "a temple ground")
    assert regroup(()) == ()


async def test_the_places_the_web_desk_fills_in_are_the_village_and_the_market(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """The NOTICE form starts with "village, market"; the market's name holds a comma."""
    typed = ("Kunnamangalam", "Kunnamangalam Town Market", "Kunnamangalam Angadi")
    reply = await _noticed(store, deps, keeper, officer, clock, typed)
    assert "കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി" in reply, reply
    assert "Angadi" not in reply, reply
    (stored,) = await _payloads(store, "NoticePosted")
    assert stored["proclaimed_at"] == [
        "Kunnamangalam",
        "Kunnamangalam Town Market, Kunnamangalam Angadi",
    ]
