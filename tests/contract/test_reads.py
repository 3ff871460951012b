"""The reads of the ports beside the cases (``bot.store.port``): who may not buy (s.18),
the ledger, the desk's rows, and a transaction that only reads; one contract, kept alike
by the fake in memory, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest

from bot.config import Config
from bot.store.memory import MemoryCases
from bot.store.models import Contact, User
from bot.store.rows import add
from bot.store.tx import ReadOnlyError
from bot.support.caller import KEEPER, Caller
from domain.accounts import Posting, Postings
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.deadlines import deadlines
from domain.events import AuctionScheduled, NoticePosted
from domain.money import Money
from domain.s07_seizure import Lot
from domain.s18_buyers import KnownPerson
from tests.contract.test_case_store import (
    EIGHTH_DAY,
    FIRST,
    KEEPER_OF,
    opened,
    reported,
    seizure,
    step,
    voided,
)

NOW = datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ)
SMS_STOP = datetime(2026, 2, 20, 8, 0, tzinfo=LOCAL_TZ)
WHATSAPP_STOP = datetime(2026, 2, 25, 18, 0, tzinfo=LOCAL_TZ)


async def given(cases: Any, *rows: User | Contact) -> None:
    """Users and contacts written in a transaction of their own, as a test writes them."""
    async with cases.transaction() as tx:
        for row in rows:
            if isinstance(tx, MemoryCases):
                tx.add_row(row)
            else:
                await add(tx, row)


def user(
    uid: int,
    role: str,
    name: str,
    *,
    pound: str | None = None,
    authority: str | None = None,
    phone: str | None = None,
    telegram: int | None = None,
    active: bool = True,
) -> User:
    return User(
        id=uid,
        role=role,
        pound_code=pound,
        authority_code=authority,
        phone=phone,
        telegram_id=telegram,
        name=name,
        lang=None,
        active=active,
        created_at=NOW,
    )


def contact(phone: str, sms: datetime | None = None, whatsapp: datetime | None = None) -> Contact:
    return Contact(phone=phone, opted_out_at=sms, whatsapp_stopped_at=whatsapp, updated_at=NOW)


async def test_who_may_not_buy_are_the_active_named_keepers_and_officers(cases: Any) -> None:
    await given(
        cases,
        user(1, "keeper", "Velayudhan", pound="KNM", phone="+919847000011"),
        user(2, "officer", "Sreeja", authority="ENM-GP"),
        user(3, "admin", "Root", phone="+919847000013"),
        user(4, "keeper", "Gone", pound="ENM", active=False),
        user(5, "keeper", "", pound="ENM", phone="+919847000015"),
    )
    async with cases.transaction() as tx:
        known = await tx.registered_keepers_and_officers()
    assert sorted(known) == [
        KnownPerson("officer", "Sreeja", None),
        KnownPerson("pound_keeper", "Velayudhan", "+919847000011"),
    ]


def postings(*legs: tuple[str, int, str]) -> Postings:
    parts = tuple(Posting(account, Money(paise), provision) for account, paise, provision in legs)
    return Postings(Money(sum(paise for _, paise, _ in legs)), parts)


async def test_the_ledger_is_read_back_by_authority_pound_and_days(
    cases: Any, config: Config
) -> None:
    await opened(cases, config)
    await opened(cases, config, seizure("ENM"))
    async with cases.transaction() as tx:
        knm, enm = await tx.load_case("KNM-1"), await tx.load_case("ENM-1")
        knm_row, enm_row = await tx.last_event_row(knm), await tx.last_event_row(enm)
        for loaded, row, authority, on, legs in (
            (knm, knm_row, "KNM-GP", date(2026, 3, 5), [("fines", 75000, "s.12")]),
            (enm, enm_row, "ENM-GP", date(2026, 3, 2), [("fines", 50000, "s.12")]),
            (
                knm,
                knm_row,
                "KNM-GP",
                FIRST,
                [("keeper_feeding", 4000, "s.11"), ("fund", 6000, "s.17(1)")],
            ),
        ):
            tx.post(
                authority=authority, loaded=loaded, event_row=row, postings=postings(*legs), on=on
            )
        knm_id = knm.row.id
    async with cases.transaction() as tx:
        entries = await tx.ledger_of("KNM-GP")
        assert [(e.on, e.account, e.amount_paise, e.provision) for e in entries] == [
            (FIRST, "keeper_feeding", 4000, "s.11"),
            (FIRST, "fund", 6000, "s.17(1)"),
            (date(2026, 3, 5), "fines", 75000, "s.12"),
        ]
        assert {e.case_id for e in entries} == {knm_id}
        assert [e.account for e in await tx.case_ledger(knm_id)] == [e.account for e in entries]
        assert await tx.ledger_of("XYZ-GP") == []
        everything = await tx.ledger_rows()
        assert [tuple(r) for r in everything] == [
            (FIRST, "KNM-GP", "KNM-1", "keeper_feeding", 4000, "s.11"),
            (FIRST, "KNM-GP", "KNM-1", "fund", 6000, "s.17(1)"),
            (date(2026, 3, 2), "ENM-GP", "ENM-1", "fines", 50000, "s.12"),
            (date(2026, 3, 5), "KNM-GP", "KNM-1", "fines", 75000, "s.12"),
        ]
        of_enm = await tx.ledger_rows(pounds=["ENM"])
        assert [r[2] for r in of_enm] == ["ENM-1"]
        assert await tx.ledger_rows(authority="ENM-GP") == of_enm
        days = await tx.ledger_rows(start=date(2026, 3, 2), end=date(2026, 3, 5))
        assert [r[0] for r in days] == [date(2026, 3, 2)]


async def test_a_case_s_events_come_with_the_names_of_who_recorded_them(
    cases: Any, config: Config
) -> None:
    await given(cases, user(7, "keeper", "Velayudhan", pound="KNM"))
    report = seizure()
    async with cases.transaction() as tx:
        seq = await tx.next_case_seq("KNM")
        case = Case.open(f"KNM-{seq}", report, config.kinds, report.impounded_on)
        named = Caller(role=KEEPER, channel="sms", user_id=7, pound="KNM", authority="KNM-GP")
        row = await tx.add_case(case, seq, named, None)
    await step(cases, "KNM-1", reported)
    async with cases.transaction() as tx:
        events = await tx.case_events(row.id)
    assert [(e.seq, e.type, e.actor_role, e.channel, name) for e, name in events] == [
        (0, "Impounded", "keeper", "sms", "Velayudhan"),
        (1, "ReportedUnclaimed", "keeper", "test", None),
    ]
    assert [e.on for e, _ in events] == [FIRST, EIGHTH_DAY]


async def test_the_numbers_that_said_stop_of_the_pounds_and_authorities_asked(
    cases: Any,
) -> None:
    await given(
        cases,
        user(1, "officer", "Sreeja", authority="KNM-GP", phone="+919847000021", telegram=555),
        user(2, "keeper", "Velayudhan", pound="KNM", phone="+919847000022"),
        user(3, "keeper", "Anil", pound="ENM", phone="+919847000023"),
        user(4, "keeper", "Gone", pound="KNM", phone="+919847000024", active=False),
        user(5, "keeper", "Biju", pound="KNM", phone="+919847000025"),
        user(6, "keeper", "Chandran", pound="KNM", phone="+919847000026"),
        contact("+919847000021", whatsapp=WHATSAPP_STOP),
        contact("+919847000022", sms=SMS_STOP),
        contact("+919847000023", sms=SMS_STOP),
        contact("+919847000024", sms=SMS_STOP),
        contact("+919847000025"),
    )
    async with cases.transaction() as tx:
        found = await tx.stopped_numbers(["KNM"], ["KNM-GP"])
        none = await tx.stopped_numbers([], [])
        enm = await tx.stopped_numbers(["ENM"], [])
    assert [tuple(r) for r in found] == [
        ("Velayudhan", "keeper", None, SMS_STOP, None),
        ("Sreeja", "officer", 555, None, WHATSAPP_STOP),
    ]
    assert (list(none), [r[0] for r in enm]) == ([], ["Anil"])


LISTED = {"stage": "", "kind": "", "since": None, "until": None, "cap": 1000}


def listed(rows: Any) -> list[tuple[str, str | None, int | None]]:
    return [(r[1], r[6], r[7]) for r in rows]


async def test_a_page_of_cases_newest_first_a_row_a_lot_with_their_count(
    cases: Any, config: Config
) -> None:
    await opened(cases, config, seizure(day=1))  # KNM-1: cow 2, buffalo 1
    await opened(cases, config, seizure(day=3, lots=(Lot("goat", 3, "black"),)))
    await opened(cases, config, seizure(day=3))
    await opened(cases, config, seizure("ENM", day=5))
    await step(cases, "KNM-1", reported)
    async with cases.transaction() as tx:
        page = await tx.cases_page(["KNM"], **LISTED, offset=0, page=2)
        rest = await tx.cases_page(["KNM"], **LISTED, offset=2, page=2)
        both = await tx.cases_page(["KNM", "ENM"], **LISTED, offset=0, page=0)
        goats = await tx.cases_page(["KNM"], **(LISTED | {"kind": "goat"}), offset=0, page=5)
        reported_ = await tx.cases_page(
            ["KNM", "ENM"], **(LISTED | {"stage": "reported"}), offset=0, page=5
        )
        days = LISTED | {"since": date(2026, 3, 2), "until": date(2026, 3, 3)}
        in_days = await tx.cases_counted(["KNM", "ENM"], **days, page=5)
        capped = await tx.cases_counted(["KNM", "ENM"], **(LISTED | {"cap": 1}), page=5)
        beyond = await tx.cases_page(["KNM"], **LISTED, offset=9, page=2)
        nothing = await tx.cases_counted([], **LISTED, page=5)
    # Newest first (a day shared: the later case first); one more case than the page.
    assert listed(page) == [
        ("KNM-3", "cow", 2),
        ("KNM-3", "buffalo", 1),
        ("KNM-2", "goat", 3),
        ("KNM-1", "cow", 2),
        ("KNM-1", "buffalo", 1),
    ]
    assert {r[9] for r in page} == {3}
    first = page[0]
    assert (first[2], first[3], first[4], first[5], first[8]) == (
        "KNM",
        "impounded",
        date(2026, 3, 3),
        "Kunnamangalam market",
        "brown, white patch",
    )
    assert [r[1] for r in rest] == ["KNM-1", "KNM-1"]
    assert listed(both) == [("ENM-1", "cow", 2), ("ENM-1", "buffalo", 1)]
    assert listed(goats) == [("KNM-2", "goat", 3)]
    assert [(r[1], r[3]) for r in reported_] == [("KNM-1", "reported")] * 2
    assert (in_days, capped, list(beyond), nothing) == (2, 2, [], 0)


async def test_a_page_of_cases_found_by_words_in_any_case_or_by_the_owner_s_number(
    cases: Any, config: Config
) -> None:
    await opened(cases, config, seizure(day=1), phone="+919847012345")  # KNM-1
    await opened(cases, config, seizure(place="Chathamangalam junction", day=2))
    await opened(cases, config, seizure(lots=(Lot("goat", 3, "50% black_white"),), day=3))
    await opened(cases, config, seizure("ENM", day=4), phone="+919847012345")

    async def found(pounds: list[str], **wanted: Any) -> list[str]:
        async with cases.transaction() as tx:
            rows = await tx.cases_page(pounds, **LISTED, **wanted, offset=0, page=5)
            counted = await tx.cases_counted(pounds, **LISTED, **wanted, page=5)
        numbers = list(dict.fromkeys(r[1] for r in rows))
        assert counted == len(numbers)
        return numbers

    assert await found(["KNM"], words=("patch",)) == ["KNM-2", "KNM-1"]
    assert await found(["KNM"], words=("JUNCTION",)) == ["KNM-2"]
    assert await found(["KNM"], words=("white", "chathamangalam")) == ["KNM-2"]
    assert await found(["KNM"], words=("goat",)) == ["KNM-3"]
    # LIKE's own signs are letters like any other.
    assert await found(["KNM"], words=("50%",)) == ["KNM-3"]
    assert await found(["KNM"], words=("k_white",)) == ["KNM-3"]
    assert await found(["KNM"], words=("%%",)) == []
    assert await found(["KNM"], words=("__",)) == []
    assert await found(["KNM"], words=("elephant",)) == []
    assert await found(["KNM"], phone="+919847012345") == ["KNM-1"]
    assert await found(["KNM", "ENM"], phone="+919847012345") == ["ENM-1", "KNM-1"]


async def test_today_s_rows_are_the_open_deadlines_of_the_cases_by_section(
    cases: Any, config: Config
) -> None:
    notice_day, auction_day = date(2026, 3, 10), date(2026, 3, 18)
    for report in (seizure(), seizure(), seizure(), seizure("ENM"), seizure()):
        await opened(cases, config, report)
    await step(cases, "KNM-2", reported)
    await step(cases, "KNM-4", reported)
    await step(cases, "KNM-3", reported)
    await step(
        cases,
        "KNM-3",
        lambda c: c.apply(
            NoticePosted(on=notice_day, office="Panchayat office", proclaimed_at=("a", "b")),
            notice_day,
        ),
    )
    await step(
        cases,
        "KNM-3",
        lambda c: c.apply(
            AuctionScheduled(on=notice_day, auction_on=auction_day, place="market"), notice_day
        ),
    )
    await step(cases, "KNM-1", voided)
    async with cases.transaction() as tx:
        rows = await tx.today_rows(["KNM"], notice_day, auction_day, rows=15, due_cap=100)
        open_ = {
            (number, d.kind.value, d.provision, d.due_on, d.who.value, d.counts_from)
            for number in ("KNM-2", "KNM-3", "KNM-4")
            for d in deadlines((await tx.load_case(number)).case)
        }
        one = await tx.today_rows(["KNM"], notice_day, auction_day, rows=1, due_cap=0)
        later = await tx.today_rows(["KNM"], notice_day, date(2026, 3, 17), rows=15, due_cap=100)
    assert {tuple(r[:6]) for r in rows} == open_  # every open deadline is in a section
    sections = {(r[0], r[1], r[6]) for r in rows}
    assert {("KNM-2", "notice_due", "awaiting"), ("KNM-3", "auction_day", "auctions")} <= sections
    assert ("KNM-2", "notice_due", "due") in sections  # the officer's, due today
    due = [r for r in rows if r[6] == "due"]
    assert all(r[3] <= notice_day and r[4] != "owner" for r in due)
    assert {r[8] for r in due} == {len({r[0] for r in due})} == {2}
    assert {r[7] for r in rows} == {0}
    assert {r[8] for r in rows if r[6] != "due"} == {0}
    assert not {r[0] for r in rows} & {"KNM-1", "ENM-1"}
    one_due = [r for r in one if r[6] == "due"]
    assert [r[8] for r in one_due] == [1]  # one row; the cases due counted up to due_cap + 1
    assert len([r for r in one if r[6] == "awaiting"]) == 1
    assert not [r for r in later if r[6] == "auctions"]


async def test_a_reading_transaction_reads_what_is_committed_and_writes_nothing(
    cases: Any, config: Config
) -> None:
    case = await opened(cases, config)
    async with cases.reading() as tx:
        loaded = await tx.load_case("KNM-1")
        assert loaded.case == case
        assert numbers_of(await tx.open_cases("KNM")) == ["KNM-1"]

    async def payment(tx: Any) -> None:
        loaded = await tx.load_case("KNM-1")
        row = await tx.last_event_row(loaded)
        await tx.record_payment(loaded, row, "deposit", Money.rupees(500), FIRST)

    async def step_taken(tx: Any) -> None:
        loaded = await tx.load_case("KNM-1")
        await tx.append_events(loaded, reported(loaded.case), KEEPER_OF)

    async def row_changed(tx: Any) -> None:
        (await tx.load_case("KNM-1")).row.owner_phone = "+919847000031"

    async def numbered(tx: Any) -> None:
        await tx.next_case_seq("KNM")

    for write in (payment, step_taken, row_changed, numbered):
        with pytest.raises(ReadOnlyError):
            async with cases.reading() as tx:
                await write(tx)
    async with cases.transaction() as tx:  # and nothing of it was written
        loaded = await tx.load_case("KNM-1")
        assert (loaded.case, loaded.row.owner_phone) == (case, None)
        assert await tx.deposit_amount(loaded) == Money(0)
        assert await tx.next_case_seq("KNM") == 2


def numbers_of(loaded: list[Any]) -> list[str]:
    return [one.row.number for one in loaded]


async def test_the_pounds_without_a_keeper_are_those_whose_keepers_are_all_disabled(
    cases: Any,
) -> None:
    await given(
        cases,
        user(1, "keeper", "Gone", pound="KNM", active=False),
        user(2, "keeper", "Gone too", pound="ENM", active=False),
        user(3, "keeper", "Anil", pound="ENM"),  # ENM has a keeper still
        user(4, "officer", "Sreeja", authority="KNM-GP", active=False),
    )
    async with cases.transaction() as tx:
        found = await tx.keeperless_pounds(["KNM", "ENM"])
        never = await tx.keeperless_pounds(["PTM"])  # never had a keeper
        none = await tx.keeperless_pounds([])
    assert (list(found), list(never), list(none)) == (["KNM"], [], [])
