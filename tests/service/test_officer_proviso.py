"""s.13(3) proviso through the officer's use case ``record_other_disposal``: the order of
another disposal is the office's that the case's Act gives the power to. Under the
Cattle-trespass Act, 1871 (s.14 para 3 proviso) an order BY the Director is refused,
naming the District Magistrate, and one BY DM is recorded under the Magistrate's name;
under the Kerala Act as enacted nothing changes. On the fake in memory and on each
database (``case_store``)."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest

from bot.config import Config, parse_config, sample_config_path
from bot.conversation.reply import handle_text
from bot.services import officer as o
from bot.services.base import Deps, proviso_offices_of
from bot.services.keeper import Recorded
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.errors import TransitionRefusedError
from domain.events import DisposedOtherwise
from domain.money import Money
from tests.service.helpers import to_notice

#: KNM-GP applies the Cattle-trespass Act, 1871 from 1 February 2026, before the intake
#: of 1 March (``to_notice``); no [[proviso_offices]] table names its District Magistrate.
CENTRAL = """
[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2026-02-01
"""
#: The same, with the power to order another disposal transferred by a s.31 notification.
TRANSFERRED = CENTRAL + 'transferred = ["order_disposal"]\nnotification = "G.O.(P) No. 9/2026"\n'
KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'


def under(acts: str) -> Config:
    """The sample, with KNM-GP applying ``acts``."""
    sample = sample_config_path().read_text(encoding="utf-8")
    assert KNM_GP_END in sample
    return parse_config(sample.replace(KNM_GP_END, KNM_GP_END + acts, 1), "acts.toml")


def at(day: int) -> datetime:
    return datetime(2026, 3, day, 11, 0, tzinfo=LOCAL_TZ)


async def dispose(store: Store | MemoryStore, deps: Deps, officer: Caller, by: str) -> Recorded:
    """One head of KNM-1's first lot disposed of to a goshala by an order ``by``."""
    async with store.transaction() as tx:
        return await o.record_other_disposal(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=0,
            count=1,
            manner="goshala",
            ordered_by=by,
            order_reference="DO-4/2026",
            proceeds=Money.zero(),
        )


async def to_disposal_day(
    store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """KNM-1 reported unclaimed, its notice posted on 10 March; the 18th, when another
    disposal may be ordered (seven days from the notice)."""
    await to_notice(store, deps, keeper, officer, clock)
    clock.set(at(18))


def ordered_by(recorded: Recorded) -> str:
    event = recorded.case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    return event.ordered_by


async def test_under_the_1871_act_the_director_is_refused_and_the_district_magistrate_orders(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
) -> None:
    deps = dataclasses.replace(deps, config=under(CENTRAL))
    await to_disposal_day(case_store, deps, keeper, officer, clock)
    for by in ("DIRECTOR", "Director of Animal Husbandry", "ഡയറക്ടർ", "Collector"):
        with pytest.raises(TransitionRefusedError) as refused:
            await dispose(case_store, deps, officer, by)
        assert (refused.value.reason, refused.value.provision) == (
            "not_director",
            "s.13(3) proviso",
        )
    async with case_store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.profile.key == "cattle-trespass-1871"
    assert case.heads_remaining == 3  # nothing recorded
    assert [office.code for office in proviso_offices_of(deps, case)] == ["DM"]
    recorded = await dispose(case_store, deps, officer, "dm")
    assert ordered_by(recorded) == "District Magistrate"
    assert recorded.case.heads_remaining == 2
    # By its name in any language, whole.
    assert ordered_by(await dispose(case_store, deps, officer, "ജില്ലാ മജിസ്ട്രേറ്റ്")) == (
        "District Magistrate"
    )


async def test_a_s31_transfer_gives_the_order_to_the_local_authority(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
) -> None:
    deps = dataclasses.replace(deps, config=under(TRANSFERRED))
    await to_disposal_day(case_store, deps, keeper, officer, clock)
    for by in ("DM", "DIRECTOR"):
        with pytest.raises(TransitionRefusedError):
            await dispose(case_store, deps, officer, by)
    recorded = await dispose(case_store, deps, officer, "LOCAL-AUTHORITY")
    assert ordered_by(recorded) == "Local authority"


async def test_under_the_kerala_act_the_configured_director_orders_as_before(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
) -> None:
    await to_disposal_day(case_store, deps, keeper, officer, clock)
    for by in ("DM", "District Magistrate", "Local authority", "Deputy Director of Panchayats"):
        with pytest.raises(TransitionRefusedError) as refused:
            await dispose(case_store, deps, officer, by)
        assert refused.value.reason == "not_director"
    recorded = await dispose(case_store, deps, officer, "director")
    assert recorded.case.profile.key == "kerala-1961"
    assert ordered_by(recorded) == "Director of Animal Husbandry"
    assert recorded.case.heads_remaining == 2


async def test_the_refusal_names_the_office_of_the_cases_act_and_its_code(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """Through the dispatcher: the refusal names the District Magistrate (the office the
    1871 Act gives the power to), not the configured Director; the answer, the office
    that ordered it."""
    deps = dataclasses.replace(deps, config=under(CENTRAL))
    await to_disposal_day(store, deps, keeper, officer, clock)
    officer = dataclasses.replace(officer, lang="en")

    async def says(text: str) -> str:
        async with store.transaction() as tx:
            return (await handle_text(tx, deps, officer, text, sms=False)).text

    refused = await says("DISPOSE KNM-1 1 1 BY DIRECTOR REF DO-4/2026 HOW goshala")
    assert "by the order of District Magistrate alone" in refused, refused
    assert "'DIRECTOR' is not that office. Write BY DM." in refused, refused
    assert "Director of Animal Husbandry" not in refused
    done = await says("DISPOSE KNM-1 1 1 BY DM REF DO-4/2026 HOW goshala")
    assert "by order of District Magistrate" in done, done
