"""The port of the cases (``bot.store.port.CaseStore``): one contract, kept alike by the
fake in memory (``bot.store.memory``), SQLite and PostgreSQL (``bot.store.tx``)."""

from __future__ import annotations

import ast
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.services.base import Deps
from bot.store.port import CaseStore
from bot.store.tx import Recorder
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from bot.support.errors import BadInputError, CaseChangedError, UnknownCaseError
from domain.case import Case
from domain.events import ReportedUnclaimed, SeizureCorrected
from domain.ledger import postings_for
from domain.money import Money
from domain.s07_seizure import Lot, Person, Seizure

KEEPER_OF = Caller(role=KEEPER, channel="test", user_id=None, pound="KNM", authority="KNM-GP")
FIRST = date(2026, 3, 1)
EIGHTH_DAY = date(2026, 3, 9)


def seizure(
    pound: str = "KNM",
    place: str = "Kunnamangalam market",
    lots: tuple[Lot, ...] = (Lot("cow", 2, "brown, white patch"), Lot("buffalo", 1, "cut ear")),
    day: int = 1,
) -> Seizure:
    return Seizure(
        pound=pound,
        lots=lots,
        place_seized=place,
        brought_at=datetime(2026, 3, day, 9, 15),
        seizer=Person("Rajan K.", "Pathimangalam"),
        owner=Person("Kunhammed P.", "Chathamangalam"),
    )


async def opened(
    cases: Any, config: Config, report: Seizure | None = None, phone: str | None = None
) -> Case:
    """A case opened on ``report`` (the default seizure) in a transaction of its own."""
    report = report or seizure()
    async with cases.transaction() as tx:
        seq = await tx.next_case_seq(report.pound)
        case = Case.open(f"{report.pound}-{seq}", report, config.kinds, report.impounded_on)
        await tx.add_case(case, seq, KEEPER_OF, phone)
    return case


async def step(cases: Any, number: str, make: Any) -> Case:
    """``make(case)`` appended to case ``number`` in a transaction of its own."""
    async with cases.transaction() as tx:
        loaded = await tx.load_case(number, for_update=True)
        after: Case = make(loaded.case)
        await tx.append_events(loaded, after, KEEPER_OF)
    return after


def reported(case: Case) -> Case:
    return case.apply(ReportedUnclaimed(on=EIGHTH_DAY), EIGHTH_DAY)


def voided(case: Case) -> Case:
    return case.void("entered twice", EIGHTH_DAY, EIGHTH_DAY)


def numbers(loaded: list[Any]) -> list[str]:
    return [one.row.number for one in loaded]


async def test_numbers_run_per_pound_without_gaps(cases: Any) -> None:
    async with cases.transaction() as tx:
        firsts = [await tx.next_case_seq("KNM"), await tx.next_case_seq("KNM")]
        other = await tx.next_case_seq("ENM")
    async with cases.transaction() as tx:
        third = await tx.next_case_seq("KNM")
    assert (firsts, other, third) == ([1, 2], 1, 3)


async def test_an_unknown_pound_has_no_numbers(cases: Any) -> None:
    async with cases.transaction() as tx:
        with pytest.raises(BadInputError):
            await tx.next_case_seq("XYZ")


async def test_a_transaction_that_fails_leaves_nothing(cases: Any, config: Config) -> None:
    async def refused() -> None:
        async with cases.transaction() as tx:
            seq = await tx.next_case_seq("KNM")
            case = Case.open(f"KNM-{seq}", seizure(), config.kinds, FIRST)
            await tx.add_case(case, seq, KEEPER_OF, None)
            raise RuntimeError("the use case refused")

    with pytest.raises(RuntimeError):
        await refused()
    async with cases.transaction() as tx:
        assert await tx.next_case_seq("KNM") == 1
        with pytest.raises(UnknownCaseError):
            await tx.load_case("KNM-1")


async def test_a_case_added_is_loaded_as_it_was_opened(cases: Any, config: Config) -> None:
    case = await opened(cases, config, phone="+919847000001")
    async with cases.transaction() as tx:
        for number in ("KNM-1", "knm 1", "KNM1"):
            loaded = await tx.load_case(number)
            assert loaded.case == case
            assert (loaded.row.number, loaded.pound, loaded.row.owner_phone) == (
                "KNM-1",
                "KNM",
                "+919847000001",
            )
        assert (await tx.load_case("KNM-1", for_update=True)).case == case


async def test_an_unknown_or_malformed_number_is_refused(cases: Any, config: Config) -> None:
    await opened(cases, config)
    async with cases.transaction() as tx:
        with pytest.raises(UnknownCaseError):
            await tx.load_case("KNM-2")
        with pytest.raises(UnknownCaseError):
            await tx.load_case("ENM-1", for_update=True)
        with pytest.raises(BadInputError):
            await tx.load_case("17")


async def test_events_appended_are_folded_back_into_the_same_case(
    cases: Any, config: Config
) -> None:
    await opened(cases, config)
    after = await step(cases, "KNM-1", reported)
    async with cases.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        assert loaded.case == after
        assert loaded.row.stage == "reported"
        last = await tx.last_event_row(loaded)
        assert (last.seq, last.type) == (1, "ReportedUnclaimed")
        assert await tx.recorded_by(loaded) == Recorder(None, KEEPER)


async def test_the_recorder_is_the_actor_of_the_first_event_not_of_the_last(
    cases: Any, config: Config
) -> None:
    officer = Caller(role=OFFICER, channel="web", authority="KNM-GP")
    report = seizure()
    async with cases.transaction() as tx:
        seq = await tx.next_case_seq(report.pound)
        case = Case.open(f"KNM-{seq}", report, config.kinds, report.impounded_on)
        await tx.add_case(case, seq, officer, None)
    await step(cases, "KNM-1", reported)  # by the keeper
    async with cases.transaction() as tx:
        assert await tx.recorded_by(await tx.load_case("KNM-1")) == Recorder(None, OFFICER)


async def test_a_step_taken_first_elsewhere_is_a_changed_case(cases: Any, config: Config) -> None:
    await opened(cases, config)

    async def twice() -> None:
        async with cases.transaction() as tx:
            stale = await tx.load_case("KNM-1")
            await tx.append_events(stale, reported(stale.case), KEEPER_OF)
            await tx.append_events(stale, voided(stale.case), KEEPER_OF)

    with pytest.raises(CaseChangedError):
        await twice()
    async with cases.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
    assert len(loaded.case.events) == 1


async def test_open_cases_of_a_pound_oldest_first(cases: Any, config: Config) -> None:
    for report in (seizure(), seizure("ENM"), seizure(), seizure()):
        await opened(cases, config, report)
    await step(cases, "KNM-2", voided)
    async with cases.transaction() as tx:
        knm, enm = await tx.open_cases("KNM"), await tx.open_cases("ENM")
    assert (numbers(knm), numbers(enm)) == (["KNM-1", "KNM-3"], ["ENM-1"])
    assert all(len(one.case.events) == 1 for one in knm)


async def test_cases_in_a_stage_by_pound_and_number(cases: Any, config: Config) -> None:
    for report in (seizure("ENM"), seizure(), seizure(), seizure("ENM")):
        await opened(cases, config, report)
    for number in ("KNM-2", "ENM-1", "ENM-2"):
        await step(cases, number, reported)
    async with cases.transaction() as tx:
        both = await tx.cases_in_stage(["KNM", "ENM"], ["reported"])
        knm = await tx.cases_in_stage(["KNM"], ["impounded", "voided"])
    assert numbers(both) == ["ENM-1", "ENM-2", "KNM-2"]
    assert [one.case.stage.value for one in both] == ["reported"] * 3
    assert numbers(knm) == ["KNM-1"]


async def test_cases_impounded_within_days(cases: Any, config: Config) -> None:
    for day in (1, 3, 5):
        await opened(cases, config, seizure(day=day))
    await opened(cases, config, seizure("ENM", day=3))
    async with cases.transaction() as tx:
        found = await tx.cases_impounded(["KNM", "ENM"], date(2026, 3, 3), date(2026, 3, 5))
        everything = await tx.cases_impounded(["KNM"], FIRST, date(2026, 4, 1))
    assert numbers(found) == ["ENM-1", "KNM-2"]
    assert numbers(everything) == ["KNM-1", "KNM-2", "KNM-3"]


async def test_open_cases_naming_an_owner_newest_first(cases: Any, config: Config) -> None:
    phone = "+919847000001"
    for day in (1, 2, 3, 4):
        await opened(cases, config, seizure(day=day), phone=phone)
    await opened(cases, config, seizure(day=5), phone="+919847000002")
    await step(cases, "KNM-3", voided)
    async with cases.transaction() as tx:
        assert await tx.open_cases_naming(phone, 2) == (["KNM-4", "KNM-2"], 3)
        assert await tx.open_cases_naming("+919847000009", 2) == ([], 0)


async def test_search_matches_every_word_on_kind_description_or_place(
    cases: Any, config: Config
) -> None:
    await opened(cases, config)
    await opened(cases, config, seizure(place="Mavoor road", lots=(Lot("goat", 3, "black"),)))
    await opened(cases, config, seizure(place="Kunnamangalam temple", lots=(Lot("goat", 1, ""),)))
    async with cases.transaction() as tx:
        assert numbers(await tx.search_open(["goat"])) == ["KNM-3", "KNM-2"]
        assert numbers(await tx.search_open(["GOAT", "mavoor"])) == ["KNM-2"]
        assert numbers(await tx.search_open(["white patch"])) == ["KNM-1"]
        assert numbers(await tx.search_open(["kunnamangalam"], limit=1)) == ["KNM-3"]
        assert numbers(await tx.search_open([("sheep", "buffalo")])) == ["KNM-1"]
        assert numbers(await tx.search_open(["camel"])) == []


async def test_search_keeps_to_open_cases_or_the_stages_asked(cases: Any, config: Config) -> None:
    for _ in range(3):
        await opened(cases, config)
    await step(cases, "KNM-1", voided)
    await step(cases, "KNM-2", reported)
    async with cases.transaction() as tx:
        assert numbers(await tx.search_open(["cow"])) == ["KNM-3", "KNM-2"]
        assert numbers(await tx.search_open(["cow"], stages=["voided"])) == ["KNM-1"]


async def test_search_reads_the_public_description_only(cases: Any, config: Config) -> None:
    await opened(cases, config, seizure(lots=(Lot("cow", 1, "Kunhammed's red cow"),)))
    async with cases.transaction() as tx:
        assert numbers(await tx.search_open(["red"])) == ["KNM-1"]
        assert numbers(await tx.search_open(["kunhammed"])) == []


async def test_a_correction_moves_the_search_and_the_row(cases: Any, config: Config) -> None:
    await opened(cases, config)
    moved = seizure(place="Mavoor road", lots=(Lot("goat", 2, "black"),))
    correction = SeizureCorrected(on=FIRST, seizure=moved, reason="typo")
    await step(
        cases,
        "KNM-1",
        lambda c: c.apply(correction, FIRST),
    )
    async with cases.transaction() as tx:
        assert numbers(await tx.search_open(["mavoor", "goat"])) == ["KNM-1"]
        assert numbers(await tx.search_open(["cow"])) == []
        loaded = await tx.load_case("KNM-1")
    assert (loaded.row.place_seized, loaded.case.seizure) == ("Mavoor road", moved)


async def test_an_owner_number_set_on_the_row_is_kept(cases: Any, config: Config) -> None:
    await opened(cases, config)
    async with cases.transaction() as tx:
        loaded = await tx.load_case("KNM-1", for_update=True)
        loaded.row.owner_phone = "+919847000003"  # as bot.services.keeper.correct_seizure
        await tx.append_events(loaded, reported(loaded.case), KEEPER_OF)
    async with cases.transaction() as tx:
        assert await tx.open_cases_naming("+919847000003", 5) == (["KNM-1"], 1)
        (await tx.load_case("KNM-1")).row.owner_phone = "+919847000004"  # and no step
    async with cases.transaction() as tx:
        assert await tx.open_cases_naming("+919847000004", 5) == (["KNM-1"], 1)


async def test_deposits_are_summed_apart_from_payments(cases: Any, config: Config) -> None:
    await opened(cases, config)
    await opened(cases, config)
    async with cases.transaction() as tx:
        loaded, other = await tx.load_case("KNM-1"), await tx.load_case("KNM-2")
        assert await tx.deposit_amount(loaded) == Money(0)
        row = await tx.last_event_row(loaded)
        await tx.record_payment(loaded, row, "deposit", Money.rupees(500), FIRST)
        await tx.record_payment(loaded, row, "deposit", Money.rupees(250), FIRST)
        await tx.record_payment(loaded, row, "payment", Money.rupees(900), FIRST)
        await tx.record_payment(other, await tx.last_event_row(other), "deposit", Money(1), FIRST)
    async with cases.transaction() as tx:
        assert await tx.deposit_amount(await tx.load_case("KNM-1")) == Money.rupees(750)


async def test_postings_are_kept_in_the_order_written(
    cases: Any, config: Config, clock: FixedClock
) -> None:
    case = await opened(cases, config)
    after = voided(case)
    tariff = Deps(config=config, clock=clock).tariff("KNM")
    postings = postings_for(case, after, tariff, config.deduction_order)
    async with cases.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        rows = await tx.append_events(loaded, after, KEEPER_OF)
        tx.post(authority="KNM-GP", loaded=loaded, event_row=rows[-1], postings=postings, on=FIRST)
        assert tx.posted == [postings]
        assert [r.seq for r in rows] == [1]


def test_the_fake_imports_no_sqlalchemy() -> None:
    source = Path(__file__).parents[2] / "bot" / "store" / "memory.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[0] == "sqlalchemy"}


def test_the_port_is_a_protocol_of_the_case_methods() -> None:
    members = {name for name in vars(CaseStore) if not name.startswith("_")}
    assert {"next_case_seq", "add_case", "load_case", "append_events", "search_open"} <= members


def test_nothing_of_the_bot_imports_the_fake() -> None:
    """The fake ships in the wheel as test support only: nothing runs it."""
    bot = Path(__file__).parents[2] / "bot"
    importers = []
    for source in bot.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            ) + (
                [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if "bot.store.memory" in names:
                importers.append(source.name)
    assert importers == []
