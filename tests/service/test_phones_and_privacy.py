"""Telephone numbers through the dispatcher, and what a stranger can learn of a case.

Issue 13, items 10 and 11: ``OWNER Ravi 09847012345`` was stored as ``+9847012345``
(Iran) and the owner's SMS queued to it; ``98470 12345`` was silently dropped; a
description holding ``OWNER Kunhammed 9847012345`` made the case findable by the number
and the name, and the printable notice printed both.
"""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.i18n import render, translator
from bot.services.base import Deps
from bot.store.models import CaseLot, CaseRow, OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller

SEIZE = "SEIZE 1 buffalo AT Kunnamangalam market"


async def _say(store: Store, deps: Deps, caller: Caller, text: str) -> str:
    async with store.transaction() as tx:
        return (await handle_text(tx, deps, caller, text, sms=True)).text


async def _owner_phones(store: Store) -> list[str | None]:
    async with store.transaction() as tx:
        return list((await tx.session.execute(select(CaseRow.owner_phone))).scalars())


async def _sms_recipients(store: Store) -> list[str]:
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.recipient).where(OutboxRow.channel == "sms")
        )
        return list(rows.scalars())


@pytest.fixture
def english(keeper: Caller) -> Caller:
    return dataclasses.replace(keeper, lang="en")


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        pytest.param("09847012345", "+919847012345", id="trunk 0 is India, not +98 Iran"),
        pytest.param("98470 12345", "+919847012345", id="written in two groups"),
        pytest.param("9847012345", "+919847012345", id="ten digits"),
        pytest.param("+919847012345", "+919847012345", id="E.164"),
        pytest.param("+91 98470-12345", "+919847012345", id="E.164 with separators"),
        pytest.param("+447911123456", "+447911123456", id="a foreign mobile"),
    ],
)
async def test_an_owners_mobile_is_stored_in_e164_and_told_by_sms(
    store: Store, deps: Deps, english: Caller, written: str, stored: str
) -> None:
    reply = await _say(store, deps, english, f"{SEIZE} OWNER Ravi {written}; black buffalo")
    assert "KNM-1" in reply
    assert await _owner_phones(store) == [stored]
    assert await _sms_recipients(store) == [stored]
    async with store.transaction() as tx:
        owner = (await tx.load_case("KNM-1")).case.seizure.owner
    assert owner is not None
    assert owner.name == "Ravi"


@pytest.mark.parametrize(
    ("written", "fault"),
    [
        pytest.param("04952370000", "landline", id="a Kozhikode landline"),
        pytest.param("1800112233", "landline", id="a toll-free number"),
        pytest.param("98470", "too few digits", id="too short"),
        pytest.param("9847012345678", "too many digits", id="too long"),
        pytest.param("+9847012345", "too few digits", id="+98 Iran, too short"),
        pytest.param("+999123456", "country code", id="no such country code"),
    ],
)
async def test_a_number_that_is_not_a_valid_mobile_is_refused_naming_the_fault(
    store: Store, deps: Deps, english: Caller, written: str, fault: str
) -> None:
    reply = await _say(store, deps, english, f"{SEIZE} OWNER Ravi {written}; black buffalo")
    assert written in reply
    assert fault in reply
    assert await _owner_phones(store) == []
    assert await _sms_recipients(store) == []


async def test_a_phone_fault_is_answered_in_the_keepers_language(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    malayalam = dataclasses.replace(keeper, lang="ml")
    reply = await _say(store, deps, malayalam, f"{SEIZE} OWNER Ravi 04952370000")
    assert "04952370000" in reply
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in reply)
    assert await _owner_phones(store) == []


async def test_an_owner_without_a_number_is_still_recorded(
    store: Store, deps: Deps, english: Caller
) -> None:
    reply = await _say(store, deps, english, f"{SEIZE} OWNER Ravi, House 12, Chathamangalam")
    assert "KNM-1" in reply
    assert await _owner_phones(store) == [None]
    async with store.transaction() as tx:
        owner = (await tx.load_case("KNM-1")).case.seizure.owner
    assert owner is not None
    assert (owner.name, owner.residence) == (
        "Ravi",
        "House 12, Chathamangalam",
    )


# -- item 10: what a stranger can learn --------------------------------------------

LEAKY = "SEIZE 1 buffalo AT Chathamangalam; black buffalo OWNER Kunhammed 9847012345"


@pytest.mark.parametrize(
    "words",
    [
        "9847012345",
        "98470 12345",
        "+919847012345",
        "98470",
        "Kunham",
        "Kunhammed",
        "buffalo 9847012345",
    ],
)
async def test_a_stranger_finds_no_case_by_the_owners_number_or_name(
    store: Store, deps: Deps, english: Caller, words: str
) -> None:
    assert "KNM-1" in await _say(store, deps, english, LEAKY)
    stranger = Caller.public("sms", phone="+919847011111", lang="en")
    assert "KNM-1" not in await _say(store, deps, stranger, f"FIND {words}")
    # What the description says of the cattle is still found.
    assert "KNM-1" in await _say(store, deps, stranger, "FIND black buffalo")


async def test_the_search_keeps_the_description_without_names_or_numbers(
    store: Store, deps: Deps, english: Caller
) -> None:
    await _say(store, deps, english, LEAKY)
    async with store.transaction() as tx:
        descriptions = list((await tx.session.execute(select(CaseLot.description))).scalars())
    assert descriptions == ["black buffalo"]


async def test_the_printable_notice_prints_no_phone_and_no_owner_name(
    store: Store, deps: Deps, english: Caller
) -> None:
    await _say(
        store,
        deps,
        english,
        "SEIZE 2 cow AT Chathamangalam 9847099999; brown, tag 4471, call 98470 12345 or "
        "0495 2370000 "
        "OWNER Kunhammed 9847012345",
    )
    async with store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    pound = deps.config.pounds["KNM"]
    authority = deps.config.authorities[pound.authority]
    on = date(2026, 3, 10)
    html = render.notice_html(case, authority, pound, on, pound.languages)
    text = render.notice_text(case, authority, pound, on, translator("en"))
    script = render.proclamation_script(case, authority, pound, on, translator("en"))
    for printed in (html, text, script):
        for leak in ("9847012345", "98470", "12345", "2370000", "9847099999", "Kunhammed"):
            assert leak not in printed
        assert "tag 4471" in printed  # a short number (an ear tag) is part of the description


async def test_public_status_and_find_replies_print_no_phone_even_in_the_place(
    store: Store, deps: Deps, english: Caller
) -> None:
    seize = "SEIZE 1 buffalo AT Chathamangalam junction 98470 99999; black buffalo 9847012345"
    assert "KNM-1" in await _say(store, deps, english, seize)
    stranger = Caller.public("sms", phone="+919847011111", lang="en")
    for asked in ("STATUS KNM-1", "FIND Chathamangalam", "FIND black buffalo"):
        reply = await _say(store, deps, stranger, asked)
        assert "KNM-1" in reply
        for leak in ("98470", "99999", "9847012345"):
            assert leak not in reply


# -- the names of the people of the case, in the place of seizure -------------------

NAMED_PLACE = (
    "SEIZE 1 cow AT Kunhammed Haji's field near Raghavan's gate "
    "OWNER Kunhammed Haji 9847012345 BY Raghavan Nair"
)
NAMES = ("Kunhammed", "Haji", "Raghavan", "Nair", "9847012345")


async def test_status_and_find_show_the_place_without_the_owners_or_seizers_name(
    store: Store, deps: Deps, english: Caller
) -> None:
    assert "KNM-1" in await _say(store, deps, english, NAMED_PLACE)
    stranger = Caller.public("sms", phone="+919847011111", lang="en")
    for asked in ("STATUS KNM-1", "FIND field", "FIND cow gate"):
        reply = await _say(store, deps, stranger, asked)
        assert "KNM-1" in reply, asked
        if asked.startswith("FIND"):
            assert "field near gate" in reply, reply
        for name in NAMES:
            assert name not in reply, (asked, reply)
    # Nor is the case found by a name that is only in the place as written.
    for words in ("Kunhammed", "Haji", "Raghavan", "cow Kunhammed"):
        assert "KNM-1" not in await _say(store, deps, stranger, f"FIND {words}"), words


async def test_the_notice_and_the_proclamation_print_the_place_without_the_names(
    store: Store, deps: Deps, english: Caller
) -> None:
    await _say(store, deps, english, NAMED_PLACE)
    async with store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    pound = deps.config.pounds["KNM"]
    authority = deps.config.authorities[pound.authority]
    on = date(2026, 3, 10)
    for lang in ("en", "ml"):
        tr = translator(lang)
        html = render.notice_html(case, authority, pound, on, pound.languages)
        text = render.notice_text(case, authority, pound, on, tr)
        script = render.proclamation_script(case, authority, pound, on, tr)
        for printed in (html, text, script):
            assert "field near gate" in printed
            for name in NAMES:
                assert name not in printed, (lang, printed)
