"""A keeper reports a seizure from Telegram: button by button, in one line, across a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.channels.telegram import seize_record
from bot.conversation.commands import parse
from bot.conversation.orders import Seize, SeizeLot
from bot.fakes.telegram_api import Call, Updates
from bot.i18n import render, translator
from bot.i18n.chrome import telegram as text
from bot.store.models import CaseRow, Conversation, OutboxRow, PhotoRow
from tests.e2e.telegram_rig import (
    KEEPER,
    OFFICER,
    TelegramRig,
    db_url,
    fake_bot_api,
    last_message,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.photo_samples import jpeg_with_gps, png

EN = translator("en")


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield db_url(tmp_path)
        return
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def any_rig(database: str) -> AsyncIterator[TelegramRig]:
    """The rig on SQLite and on PostgreSQL."""
    clock = start_clock()
    async with open_app(url=database, clock=clock, migrate=True):
        pass
    await seed_users(database, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, database, clock, Updates()) as rig,
    ):
        yield rig


async def press(rig: TelegramRig, on: Call, data: str) -> Call:
    """Press a button: the press is answered, its message shows the answer, the next
    question comes as a new message (returned)."""
    calls = await rig.press(KEEPER, on, data)
    assert [c.method for c in calls[:2]] == ["answerCallbackQuery", "editMessageText"]
    assert calls[1].params["message_id"] == on.message_id
    assert "reply_markup" not in calls[1].params  # the answered buttons are gone
    return last_message(calls)


async def say(rig: TelegramRig, typed: str) -> Call:
    return last_message(await rig.say(KEEPER, typed))


async def seizure_of(rig: TelegramRig, number: str):  # type: ignore[no-untyped-def]
    async with rig.app.store.transaction() as tx:
        return (await tx.load_case(number)).case.seizure


async def test_the_whole_guided_report_button_by_button(rig: TelegramRig) -> None:
    question = await say(rig, "/seize")
    assert question.text == text.ask_kind(EN)
    assert ("cow", "seize:kind:cow") in question.buttons
    assert ("Cancel", "seize:cancel") in question.buttons

    question = await press(rig, question, "seize:kind:cow")
    assert question.text == text.ask_count("cow", EN)
    question = await press(rig, question, "seize:count:2")
    assert question.text == text.ask_more("2 cows", EN)
    question = await press(rig, question, "seize:more")
    question = await press(rig, question, "seize:kind:buffalo")
    question = await say(rig, "1")  # a count may be typed as well
    assert question.text == text.ask_more("2 cows, 1 buffalo", EN)
    question = await press(rig, question, "seize:next")
    assert question.text == text.ask_description(EN)

    question = await say(rig, "brown, one with a broken horn")
    assert question.text == text.ask_place(EN)
    keyboard = question.params["reply_markup"]["keyboard"]
    assert keyboard == [[{"text": "Share location", "request_location": True}]]
    question = last_message(await rig.deliver(rig.updates.location(KEEPER, 11.304123, 75.876329)))
    assert question.text == text.ask_place_name(EN)
    question = await say(rig, "Kunnamangalam market")
    assert question.text == text.ask_photos(EN)

    rig.fake.add_file("AgACAgUAAx-photo-1", jpeg_with_gps())
    rig.fake.add_file("AgACAgUAAx-photo-2", png())
    first = last_message(await rig.deliver(rig.updates.photo(KEEPER, "AgACAgUAAx-photo-1")))
    assert first.text == text.photos_received(1, EN)
    second = last_message(await rig.deliver(rig.updates.photo(KEEPER, "AgACAgUAAx-photo-2")))
    assert second.text == text.photos_received(2, EN)
    question = await press(rig, second, "seize:done")
    assert question.text == text.ask_seizer(EN)
    question = await say(rig, "Ravi, Kunnamangalam")
    assert question.text == text.ask_owner(EN)
    question = await say(rig, "Kunhammed, Chathamangalam, 9847099999")
    assert question.text == text.ask_when(EN)

    question = await press(rig, question, "seize:now")
    assert question.text == text.ask_seized(EN)
    summary = await press(rig, question, "seize:same")
    assert summary.text.startswith(text.summary([], EN))
    for line in (
        "Cattle: 2 cows, 1 buffalo",
        "Description: brown, one with a broken horn",
        "Place seized: Kunnamangalam market (11.30412,75.87633)",
        "Photos: 2",
        "Seized by: Ravi, Kunnamangalam",
        "Owner: Kunhammed, Chathamangalam +919847099999",
        "Brought in: 1 Mar 2026, 10:30 AM",
        "Seized on: Same day",
    ):
        assert line in summary.text
    assert [d for _, d in summary.buttons] == ["seize:confirm", "seize:fix", "seize:cancel"]

    # Fix the time brought in, then confirm.
    fix = await press(rig, summary, "seize:fix")
    assert ("Brought in", "seize:field:when") in fix.buttons
    question = await press(rig, fix, "seize:field:when")
    assert question.text == text.ask_when(EN)
    summary = await say(rig, "01-03-2026 08:15")
    assert "Brought in: 1 Mar 2026, 8:15 AM" in summary.text
    calls = await rig.press(KEEPER, summary, "seize:confirm")

    ack = last_message(calls)
    assert ack.text.startswith("Case KNM-1 recorded: 2 cows, 1 buffalo.")
    assert ack.params["reply_markup"] == {"remove_keyboard": True}
    seizure = await seizure_of(rig, "KNM-1")
    assert [(lot.kind, lot.count) for lot in seizure.lots] == [("cow", 2), ("buffalo", 1)]
    # The photos are kept with the case (downloaded once each), not in its description.
    assert seizure.lots[0].description == "brown, one with a broken horn"
    assert "2 photos kept with KNM-1." in ack.text
    assert rig.fake.downloads == {"AgACAgUAAx-photo-1": 1, "AgACAgUAAx-photo-2": 1}
    assert await rig.count(PhotoRow, PhotoRow.status == "kept") == 2
    assert seizure.place_seized == "Kunnamangalam market (11.30412,75.87633)"
    assert seizure.brought_at == datetime(2026, 3, 1, 8, 15)
    assert seizure.seizer is not None
    assert seizure.seizer.name == "Ravi"
    assert seizure.owner is not None
    assert seizure.owner.residence == "Chathamangalam"
    # As with the one-line SEIZE, the owner is told by SMS; the report is over.
    assert await rig.count(OutboxRow, OutboxRow.idempotency_key == "intake:KNM-1") == 1
    assert await rig.count(Conversation, Conversation.flow == "seize") == 0


async def test_the_one_line_form_records_the_same_as_sms(rig: TelegramRig) -> None:
    calls = await rig.say(
        KEEPER, "/seize@poundbot_test_bot 2 cow 1 buffalo at Kunnamangalam market; brown"
    )
    (ack,) = sent(calls)
    assert ack.params["chat_id"] == KEEPER.id
    assert ack.text.startswith("Case KNM-1 recorded: 2 cows, 1 buffalo.")
    seizure = await seizure_of(rig, "KNM-1")
    assert seizure.place_seized == "Kunnamangalam market"
    assert seizure.lots[0].description == "brown"
    # Without the slash too, as typed in a chat.
    (again,) = sent(await rig.say(KEEPER, "SEIZE 1 goat AT Kunnamangalam bus stand"))
    assert again.text.startswith("Case KNM-2 recorded: 1 goat.")
    # And the other commands go through the same dispatcher.
    (listing,) = sent(await rig.say(KEEPER, "/cases"))
    assert "KNM-1" in listing.text
    assert "KNM-2" in listing.text
    (status,) = sent(await rig.say(KEEPER, "/case KNM-2"))
    assert "KNM-2" in status.text


async def test_a_report_half_written_continues_after_a_restart(tmp_path: Path) -> None:
    clock, url, updates = start_clock(), db_url(tmp_path), Updates()
    await seed_users(url, clock)
    async with fake_bot_api() as (fake, fake_url):
        async with poundbot_on(fake, fake_url, url, clock, updates) as first:
            question = await say(first, "/seize")
            question = await press(first, question, "seize:kind:goat")
            more = await press(first, question, "seize:count:3")
        # A new instance on the same database takes the next answer.
        async with poundbot_on(fake, fake_url, url, clock, updates) as second:
            assert second.channel is not first.channel
            question = await press(second, more, "seize:next")
            question = await press(second, question, "seize:skip")
            question = await say(second, "Pilassery junction")
            question = await press(second, question, "seize:done")
            question = await press(second, question, "seize:skip")
            question = await press(second, question, "seize:skip")
            question = await press(second, question, "seize:now")
            summary = await press(second, question, "seize:same")
            assert "Cattle: 3 goats" in summary.text
            assert "Description: not given" in summary.text
            ack = last_message(await second.press(KEEPER, summary, "seize:confirm"))
    assert ack.text.startswith("Case KNM-1 recorded: 3 goats.")


async def test_a_stale_button_is_answered_and_changes_nothing(rig: TelegramRig) -> None:
    kinds = await say(rig, "/seize")
    await press(rig, kinds, "seize:kind:cow")
    calls = await rig.press(KEEPER, kinds, "seize:kind:ox")  # the old question again
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"] == text.stale_button(EN)
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(Conversation))).scalar_one()
    assert row.state["seize"]["kind"] == "cow"


async def test_seize_while_writing_shows_the_question_and_cancel_drops_it(
    rig: TelegramRig,
) -> None:
    kinds = await say(rig, "/seize")
    again = await say(rig, "/seize")
    assert again.text == f"{text.in_progress(EN)}\n\n{text.ask_kind(EN)}"
    nonsense = await say(rig, "blue whale")
    assert nonsense.text.startswith(text.use_buttons(EN))
    question = await say(rig, "pasu")  # no such word: still the kinds
    assert question.text.startswith(text.use_buttons(EN))
    question = await say(rig, "പശു")  # the Malayalam word of the configuration
    assert question.text == text.ask_count("cow", EN)
    (done,) = sent(await rig.say(KEEPER, "/cancel"))
    assert done.text == text.cancelled(EN)
    assert done.params["reply_markup"] == {"remove_keyboard": True}
    (nothing,) = sent(await rig.say(KEEPER, "/cancel"))
    assert nothing.text == text.nothing_to_cancel(EN)
    calls = await rig.press(KEEPER, kinds, "seize:kind:cow")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert await rig.count(CaseRow) == 0


async def test_a_refused_report_is_told_and_stays_to_be_fixed(rig: TelegramRig) -> None:
    question = await say(rig, "/seize")
    question = await press(rig, question, "seize:kind:cow")
    question = await press(rig, question, "seize:count:1")
    question = await press(rig, question, "seize:next")
    question = await press(rig, question, "seize:skip")
    question = await say(rig, "Kunnamangalam")
    question = await press(rig, question, "seize:done")
    question = await press(rig, question, "seize:skip")
    question = await press(rig, question, "seize:skip")
    question = await say(rig, "05-03-2026 09:00")  # after today (1 March)
    summary = await press(rig, question, "seize:same")
    refused = last_message(await rig.press(KEEPER, summary, "seize:confirm"))
    # The refusal (a day after today, s.7) comes above the same summary and buttons.
    assert refused.text != summary.text
    assert refused.text.endswith(summary.text)
    assert refused.buttons == summary.buttons
    assert await rig.count(CaseRow) == 0
    assert await rig.count(Conversation, Conversation.flow == "seize") == 1


async def test_only_a_pound_keeper_starts_a_report(rig: TelegramRig) -> None:
    calls = await rig.say(OFFICER, "/seize")
    (refusal,) = sent(calls)
    assert refusal.params["chat_id"] == OFFICER.id
    assert refusal.text == render.not_allowed(EN)  # the client's language comes first


async def test_an_owners_landline_is_refused_naming_the_fault_and_asked_again(
    rig: TelegramRig,
) -> None:
    question = await say(rig, "/seize")
    question = await press(rig, question, "seize:kind:cow")
    question = await press(rig, question, "seize:count:1")
    question = await press(rig, question, "seize:next")
    question = await press(rig, question, "seize:skip")  # no description
    question = await say(rig, "Kunnamangalam market")
    question = await press(rig, question, "seize:done")  # no photos
    question = await press(rig, question, "seize:skip")  # no seizer named
    assert question.text == text.ask_owner(EN)
    refused = await say(rig, "Kunhammed, Chathamangalam, 0495 2370000")
    assert "'0495 2370000' is a landline" in refused.text
    assert text.ask_owner(EN) in refused.text
    question = await say(rig, "Kunhammed, Chathamangalam, 098470 99999")
    assert question.text == text.ask_when(EN)
    question = await press(rig, question, "seize:now")
    assert question.text == text.ask_seized(EN)
    summary = await press(rig, question, "seize:same")
    assert "Owner: Kunhammed, Chathamangalam +919847099999" in summary.text


async def test_the_guided_report_asks_the_day_of_seizure_and_s19_counts_from_it(
    rig: TelegramRig,
) -> None:
    question = await say(rig, "/seize")
    question = await press(rig, question, "seize:kind:cow")
    question = await press(rig, question, "seize:count:1")
    question = await press(rig, question, "seize:next")
    question = await press(rig, question, "seize:skip")  # no description
    question = await say(rig, "Kunnamangalam market")
    question = await press(rig, question, "seize:done")  # no photos
    question = await press(rig, question, "seize:skip")  # no seizer
    question = await press(rig, question, "seize:skip")  # no owner
    question = await say(rig, "28-02-2026")  # the day only: no hour is invented
    assert question.text == text.ask_seized(EN)
    again = await say(rig, "yesterday")
    assert again.text.startswith(text.bad_seized("yesterday", EN))
    summary = await say(rig, "26-02-2026")
    assert "Brought in: 28 Feb 2026\n" in summary.text
    assert "Seized on: 26 Feb 2026" in summary.text
    ack = last_message(await rig.press(KEEPER, summary, "seize:confirm"))
    assert "12:00 AM" not in ack.text
    assert "Seized on 26 Feb 2026" in ack.text
    assert "until 8 Mar 2026 (s.19)" in ack.text
    seizure = await seizure_of(rig, "KNM-1")
    assert seizure.seized_on == datetime(2026, 2, 26).date()
    assert seizure.hour_known is False


async def test_a_correction_is_a_typed_line_in_telegram(rig: TelegramRig) -> None:
    await say(rig, "/seize 1 cow at Kunnamangalam")
    reply = await say(rig, "/correct KNM-1 PLACE Chathamangalam BECAUSE wrong place")
    assert reply.text.startswith("Case KNM-1 corrected")
    typed = await say(rig, "VOID KNM-1 BECAUSE entered by mistake")
    assert typed.text.startswith("Case KNM-1 voided")


async def test_the_guided_report_is_the_seize_order_through_the_dispatcher(
    rig: TelegramRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report ends as a SEIZE line does: one ``Seize`` order, run by ``run_command``."""
    orders: list[object] = []
    run = seize_record.run_command

    async def spy(*args: Any, **kwargs: Any) -> Any:
        orders.append(args[3])
        return await run(*args, **kwargs)

    monkeypatch.setattr(seize_record, "run_command", spy)
    question = await say(rig, "/seize")
    question = await press(rig, question, "seize:kind:cow")
    question = await press(rig, question, "seize:count:2")
    question = await press(rig, question, "seize:next")
    question = await say(rig, "brown")
    question = await say(rig, "Kunnamangalam market")
    question = await press(rig, question, "seize:done")
    question = await press(rig, question, "seize:skip")
    question = await press(rig, question, "seize:skip")
    question = await say(rig, "28-02-2026")  # the day only: no hour
    summary = await say(rig, "26-02-2026")
    ack = last_message(await rig.press(KEEPER, summary, "seize:confirm"))
    assert ack.text.startswith("Case KNM-1 recorded: 2 cows.")
    (order,) = orders
    assert isinstance(order, Seize)
    assert (order.lots, order.place) == ((SeizeLot(2, "cow", "brown"),), "Kunnamangalam market")
    assert (order.on, order.at, order.seized_on) == (date(2026, 2, 28), None, date(2026, 2, 26))
    assert (order.seizer, order.owner, order.owner_phone) == ("", "", None)


async def _to_the_owner(rig: TelegramRig, *lots: tuple[str, str]) -> Call:
    """A report of ``lots`` ((kind, count) each), no description, place, photos or
    seizer: the owner's question."""
    question = await say(rig, "/seize")
    for n, (kind, count) in enumerate(lots):
        if n:
            question = await press(rig, question, "seize:more")
        question = await press(rig, question, f"seize:kind:{kind}")
        question = await press(rig, question, f"seize:count:{count}")
    question = await press(rig, question, "seize:next")
    question = await press(rig, question, "seize:skip")  # no description
    question = await say(rig, "Mavoor road")
    question = await press(rig, question, "seize:done")  # no photos
    question = await press(rig, question, "seize:skip")  # no seizer
    assert question.text == text.ask_owner(EN)
    return question


async def test_each_lot_is_given_its_owner_as_a_seize_line_gives_them(
    any_rig: TelegramRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = any_rig
    orders: list[object] = []
    run = seize_record.run_command

    async def spy(*args: Any, **kwargs: Any) -> Any:
        orders.append(args[3])
        return await run(*args, **kwargs)

    monkeypatch.setattr(seize_record, "run_command", spy)
    question = await _to_the_owner(rig, ("cow", "1"), ("goat", "1"), ("calf", "2"))
    assert [d for _, d in question.buttons] == ["seize:skip", "seize:owners", "seize:cancel"]
    question = await press(rig, question, "seize:owners")
    assert question.text == text.ask_lot_owner(1, "1 cow", EN)
    # The first lot's owner: nobody's to be the same as yet.
    assert [d for _, d in question.buttons] == ["seize:no_owner", "seize:cancel"]
    question = await say(rig, "Kunhammed, Chathamangalam, 9847012345")
    assert question.text == text.ask_lot_owner(2, "1 goat", EN)
    assert ("Same owner as lot 1", "seize:same_owner:1") in question.buttons
    assert ("Owner not known", "seize:no_owner") in question.buttons
    # A landline, or a number without a name: said so, the same lot asked again.
    refused = await say(rig, "Ayisha, Mavoor, 0495 2370000")
    assert "'0495 2370000' is a landline" in refused.text
    assert refused.text.endswith(text.ask_lot_owner(2, "1 goat", EN))
    refused = await say(rig, "9847012346")
    assert refused.text.startswith(
        "Give the name of the owner of lot 2 too, not only the phone number."
    )
    assert refused.text.endswith(text.ask_lot_owner(2, "1 goat", EN))
    question = await say(rig, "Ayisha, Mavoor, 9847012346")
    assert question.text == text.ask_lot_owner(3, "2 calves", EN)
    assert [d for _, d in question.buttons] == [
        "seize:same_owner:1",
        "seize:same_owner:2",
        "seize:no_owner",
        "seize:cancel",
    ]
    question = await press(rig, question, "seize:same_owner:1")
    assert question.text == text.ask_when(EN)
    question = await press(rig, question, "seize:now")
    summary = await press(rig, question, "seize:same")
    for line in (
        "Owner of lot 1, 1 cow: Kunhammed, Chathamangalam +919847012345",
        "Owner of lot 2, 1 goat: Ayisha, Mavoor +919847012346",
        "Owner of lot 3, 2 calves: Kunhammed, Chathamangalam +919847012345",
    ):
        assert line in summary.text
    assert "\nOwner:" not in summary.text
    ack = last_message(await rig.press(KEEPER, summary, "seize:confirm"))
    assert ack.text.startswith("Case KNM-1 recorded: 1 cow, 1 goat, 2 calves.")

    # The order a SEIZE line with an OWNER after each owner's lots makes.
    (order,) = orders
    line = parse(
        "SEIZE 1 cow OWNER Kunhammed, Chathamangalam, 9847012345 1 goat OWNER Ayisha, "
        "Mavoor, 9847012346 2 calf OWNER Kunhammed, Chathamangalam, 9847012345 AT Mavoor road",
        rig.app.config,
        date(2026, 3, 1),
    )
    assert isinstance(order, Seize)
    assert isinstance(line, Seize)
    assert order.lots == line.lots
    assert (order.owner, order.owner_phone) == (line.owner, line.owner_phone) == ("", None)
    async with rig.app.store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        phones = await tx.lot_phones(loaded)
    seizure = loaded.case.seizure
    assert seizure.owner is None
    assert loaded.row.owner_phone is None
    assert [(o.name, o.residence) if o else None for o in (lot.owner for lot in seizure.lots)] == [
        ("Kunhammed", "Chathamangalam"),
        ("Ayisha", "Mavoor"),
        ("Kunhammed", "Chathamangalam"),
    ]
    assert phones == ("+919847012345", "+919847012346", "+919847012345")
    assert seizure.lots_of_owner(0) == (0, 2)


async def test_a_lot_of_an_owner_not_known_and_owners_asked_again_when_the_cattle_change(
    any_rig: TelegramRig,
) -> None:
    rig = any_rig
    question = await _to_the_owner(rig, ("cow", "2"), ("goat", "1"))
    question = await press(rig, question, "seize:owners")
    question = await press(rig, question, "seize:no_owner")
    question = await say(rig, "Ayisha, Mavoor, 9847012346")
    question = await press(rig, question, "seize:now")
    summary = await press(rig, question, "seize:same")
    assert "Owner of lot 1, 2 cows: not given" in summary.text
    assert "Owner of lot 2, 1 goat: Ayisha, Mavoor +919847012346" in summary.text

    # The cattle fixed: the owners were of the lots as they were, and are asked again.
    fix = await press(rig, summary, "seize:fix")
    question = await press(rig, fix, "seize:field:cattle")
    question = await press(rig, question, "seize:kind:cow")
    question = await press(rig, question, "seize:count:3")
    question = await press(rig, question, "seize:more")
    question = await press(rig, question, "seize:kind:goat")
    question = await press(rig, question, "seize:count:1")
    question = await press(rig, question, "seize:next")
    assert question.text == text.ask_owner(EN)
    question = await press(rig, question, "seize:owners")
    assert question.text == text.ask_lot_owner(1, "3 cows", EN)
    question = await press(rig, question, "seize:no_owner")
    summary = await say(rig, "Ayisha, Mavoor, 9847012346")  # fixing: the summary next
    assert "Owner of lot 1, 3 cows: not given" in summary.text
    ack = last_message(await rig.press(KEEPER, summary, "seize:confirm"))
    assert ack.text.startswith("Case KNM-1 recorded: 3 cows, 1 goat.")
    async with rig.app.store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        phones = await tx.lot_phones(loaded)
    seizure = loaded.case.seizure
    assert seizure.owner is None
    assert seizure.lots[0].owner is None
    assert seizure.lots[1].owner is not None
    assert seizure.lots[1].owner.name == "Ayisha"
    assert phones == (None, "+919847012346")
    assert seizure.owned_apart


async def test_lots_given_one_owner_each_are_that_owners_and_one_lot_has_one_owner(
    any_rig: TelegramRig,
) -> None:
    rig = any_rig
    question = await _to_the_owner(rig, ("cow", "2"), ("goat", "1"))
    question = await press(rig, question, "seize:owners")
    question = await say(rig, "Kunhammed, Chathamangalam, 9847012345")
    question = await press(rig, question, "seize:same_owner:1")
    question = await press(rig, question, "seize:now")
    summary = await press(rig, question, "seize:same")
    assert "Owner: Kunhammed, Chathamangalam +919847012345" in summary.text
    assert "Owner of lot" not in summary.text
    await rig.press(KEEPER, summary, "seize:confirm")
    seizure = await seizure_of(rig, "KNM-1")
    assert seizure.owner is not None
    assert seizure.owner.name == "Kunhammed"
    assert all(lot.owner is None for lot in seizure.lots)
    # The case's owner is told by SMS, as after a SEIZE with one OWNER.
    assert await rig.count(OutboxRow, OutboxRow.idempotency_key == "intake:KNM-1") == 1

    # One lot: the owner is the case's; there is no owner per lot to ask.
    question = await _to_the_owner(rig, ("cow", "1"))
    assert [d for _, d in question.buttons] == ["seize:skip", "seize:cancel"]
    calls = await rig.press(KEEPER, question, "seize:skip")
    stale = await rig.press(KEEPER, question, "seize:skip")
    assert [c.method for c in stale] == ["answerCallbackQuery"]
    assert last_message(calls).text == text.ask_when(EN)
