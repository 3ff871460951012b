"""WhatsApp end to end: signed WhatsApp webhooks into the running app (the SMS webhook),
replies in TwiML, WhatsApp and SMS out through the real twilio SDK to the fake API."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.adapters.outbox import deliver_once
from bot.adapters.whatsapp_route import set_channel
from bot.bootstrap import open_app
from bot.channels.twilio.sender import TwilioSender
from bot.channels.twilio.whatsapp_sender import WhatsAppSender
from bot.reminders.dispatch import remind_once
from bot.store.messages import Inbound
from bot.store.models import CaseEvent, CaseRow, Contact, InboxRow, OutboxRow, SenderCount
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    OFFICER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    WHATSAPP_FROM,
    SmsRig,
    sms_rig,
)
from tests.integration.test_migrations import ENGINES, fresh_pg_database

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"
TEMPLATES = {
    "owner_impounded": {"en": "HX" + "1" * 32, "ml": "HX" + "2" * 32},
    "owner_auction": {"en": "HX" + "3" * 32},
    "reminder": {"en": "HX" + "4" * 32},
}


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: a new SQLite file; else a new PostgreSQL database (POUNDBOT_TEST_PG_URL)."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def rig(tmp_path: Path, database: str | None) -> AsyncIterator[SmsRig]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with sms_rig(tmp_path, database, whatsapp_templates=TEMPLATES) as rig:
        yield rig


async def deliver(rig: SmsRig) -> int:
    """One delivery pass with the SMS and WhatsApp senders the app runs."""
    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as twilio:
        senders = {"sms": twilio, "whatsapp": WhatsAppSender(twilio, rig.app.store, WHATSAPP_FROM)}
        return await deliver_once(rig.app.store, senders, "test")


async def outbox(rig: SmsRig) -> list[OutboxRow]:
    async with rig.app.store.transaction() as tx:
        return list((await tx.session.execute(select(OutboxRow).order_by(OutboxRow.id))).scalars())


async def contact(rig: SmsRig, phone: str) -> Contact | None:
    async with rig.app.store.transaction() as tx:
        return await tx.session.get(Contact, phone)


async def count(rig: SmsRig, model: type) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


async def test_an_owner_asks_dues_on_whatsapp_and_is_answered_there_in_their_language(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    reply = message_of((await rig.whatsapp(OWNER, "DUES KNM-1", "SM-wa-1")).text)
    assert "KNM-1" in reply
    malayalam = message_of((await rig.whatsapp(OWNER, "കുടിശ്ശിക KNM-1", "SM-wa-2")).text)
    assert "KNM-1" in malayalam
    assert re.search("[\u0d00-\u0d7f]", malayalam)
    async with rig.app.store.transaction() as tx:
        inbox = (
            await tx.session.execute(select(InboxRow).where(InboxRow.provider_id == "SM-wa-1"))
        ).scalar_one()
        counted = await tx.session.get(SenderCount, ("whatsapp", OWNER))
    assert (inbox.channel, inbox.sender) == ("whatsapp", f"whatsapp:{OWNER}")
    assert counted is not None
    assert counted.count == 2
    owner = await contact(rig, OWNER)
    assert owner is not None
    assert owner.last_channel == "whatsapp"
    assert owner.whatsapp_at == rig.clock.now()


async def test_a_keeper_seizes_on_whatsapp_and_an_owner_who_wrote_there_is_told_there(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(OWNER, "HELP", "SM-wa-help")
    await rig.advance_clock(hours=2)
    response = await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-seize")
    assert response.status_code == 200
    assert "KNM-1" in message_of(response.text)
    async with rig.app.store.transaction() as tx:
        case = (await tx.session.execute(select(CaseRow))).scalar_one()
        event = (await tx.session.execute(select(CaseEvent))).scalars().first()
    assert case.owner_phone == OWNER
    assert event is not None
    assert event.channel == "whatsapp"
    assert await deliver(rig) == 1
    (sent,) = rig.twilio.messages
    assert sent["To"] == f"whatsapp:{OWNER}"
    assert sent["From"] == WHATSAPP_FROM
    assert "KNM-1" in sent["Body"]  # within the window: free text
    assert "ContentSid" not in sent
    assert sent["StatusCallback"] == PUBLIC_URL + "/twilio/status"


async def test_the_same_whatsapp_message_twice_has_one_effect(rig: SmsRig) -> None:
    first = await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-same")
    second = await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-same")
    assert first.text == second.text
    assert await count(rig, CaseRow) == 1
    assert await count(rig, InboxRow) == 1


async def test_outside_the_window_the_owner_is_told_by_template_in_their_language(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(OWNER, "LANG ml", "SM-wa-lang")  # Malayalam, on WhatsApp
    await rig.advance_clock(hours=25)
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-late")
    (row,) = await outbox(rig)
    assert (row.channel, row.content_sid) == ("whatsapp", TEMPLATES["owner_impounded"]["ml"])
    assert await deliver(rig) == 1
    (sent,) = rig.twilio.messages
    assert sent["To"] == f"whatsapp:{OWNER}"
    assert sent["ContentSid"] == TEMPLATES["owner_impounded"]["ml"]
    assert "Body" not in sent
    variables = json.loads(sent["ContentVariables"])
    assert sorted(variables) == ["1", "2", "3", "4", "5"]
    assert variables["1"] == "KNM-1"
    assert re.search("[\u0d00-\u0d7f]", variables["2"])  # the cattle, in Malayalam


async def test_a_reminder_outside_the_window_goes_to_the_keeper_by_template(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-seize-2")
    await remind_once(rig.app.store, rig.app.config, "w")
    # The s.13(1) report is due on the eighth day: its morning reminder, days later.
    await rig.set_clock(datetime(2026, 3, 9, 8, 30, tzinfo=LOCAL_TZ))
    await remind_once(rig.app.store, rig.app.config, "w")
    to_keeper = [r for r in await outbox(rig) if r.recipient == KEEPER_PHONE]
    assert to_keeper
    for row in to_keeper:
        assert (row.channel, row.content_sid) == ("whatsapp", TEMPLATES["reminder"]["en"])
        assert row.content_variables is not None
        assert json.loads(row.content_variables) == {"1": " ".join(row.body.split())}
    await deliver(rig)
    templated = [m for m in rig.twilio.whatsapp() if m["To"] == f"whatsapp:{KEEPER_PHONE}"]
    assert len(templated) == len(to_keeper)
    assert all(m["ContentSid"] == TEMPLATES["reminder"]["en"] for m in templated)
    assert all("Body" not in m for m in templated)


async def test_without_a_template_outside_the_window_the_message_goes_by_sms(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(OWNER, "LANG ta", "SM-wa-ta")  # Tamil: no template configured in Tamil
    await rig.advance_clock(hours=24)
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-ta")
    (row,) = await outbox(rig)
    assert (row.channel, row.content_sid) == ("sms", None)
    assert await deliver(rig) == 1
    assert rig.twilio.messages[0]["To"] == OWNER


@pytest.mark.parametrize("code", [63003, 63016, 63024])
async def test_a_refused_whatsapp_message_goes_by_sms_exactly_once(rig: SmsRig, code: int) -> None:
    await rig.whatsapp(OWNER, "HELP", "SM-wa-1")
    await rig.advance_clock(hours=30)
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-r")
    rig.twilio.refuse_whatsapp = code
    assert await deliver(rig) == 0  # refused: the SMS is queued instead
    assert await deliver(rig) == 1
    await rig.advance_clock(hours=2)
    assert await deliver(rig) == 0
    (sms,) = rig.twilio.messages
    assert sms["To"] == OWNER
    assert sms["From"] == FROM
    assert "KNM-1" in sms["Body"]
    whatsapp, fallback = await outbox(rig)
    assert whatsapp.status == "failed"
    assert whatsapp.last_error is not None
    assert str(code) in whatsapp.last_error
    assert (fallback.channel, fallback.status) == ("sms", "sent")


async def test_a_template_that_fails_later_goes_by_sms_once_however_often_it_is_reported(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(OWNER, "HELP", "SM-wa-1")
    await rig.advance_clock(hours=30)
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-f")
    assert await deliver(rig) == 1
    (row,) = await outbox(rig)
    assert row.provider_id is not None
    report = {"MessageSid": row.provider_id, "MessageStatus": "failed", "ErrorCode": "63016"}
    for _ in range(3):
        assert (await rig.post("/twilio/status", report)).status_code == 204
    assert await deliver(rig) == 1
    assert await deliver(rig) == 0
    assert [m["To"] for m in rig.twilio.messages] == [f"whatsapp:{OWNER}", OWNER]
    rows = await outbox(rig)
    assert [(r.channel, r.status) for r in rows] == [("whatsapp", "failed"), ("sms", "sent")]


async def test_stop_on_whatsapp_stops_whatsapp_not_sms_and_start_resumes(rig: SmsRig) -> None:
    assert message_of((await rig.whatsapp(OWNER, "STOP", "SM-wa-stop")).text)
    owner = await contact(rig, OWNER)
    assert owner is not None
    assert owner.whatsapp_stopped_at is not None
    assert owner.opted_out_at is None
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-s")
    (row,) = await outbox(rig)
    assert (row.channel, row.recipient) == ("sms", OWNER)
    await rig.whatsapp(OWNER, "START", "SM-wa-start")
    owner = await contact(rig, OWNER)
    assert owner is not None
    assert owner.whatsapp_stopped_at is None
    await rig.sms(KEEPER_PHONE, SEIZE.replace("2 cow", "3 cow"), "SM-seize-s2")
    assert [r.channel for r in await outbox(rig)] == ["sms", "whatsapp"]


async def test_stop_by_sms_and_by_whatsapp_stops_every_message(rig: SmsRig) -> None:
    await rig.whatsapp(OWNER, "STOP", "SM-wa-stop")
    await rig.sms(OWNER, "STOP", "SM-sms-stop")
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-ss")
    assert await outbox(rig) == []


async def test_the_same_number_by_sms_and_whatsapp_is_one_contact(rig: SmsRig) -> None:
    await rig.whatsapp(OWNER, "LANG ml", "SM-wa-ml")
    english = message_of((await rig.sms(OWNER, "HELP", "SM-sms-help")).text)
    assert re.search("[\u0d00-\u0d7f]", english)  # the language chosen on WhatsApp
    assert await count(rig, Contact) == 1
    owner = await contact(rig, OWNER)
    assert owner is not None
    assert owner.last_channel == "sms"
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    assert [r.channel for r in await outbox(rig)] == ["sms"]


async def test_an_administrator_can_choose_a_numbers_channel(rig: SmsRig) -> None:
    await rig.whatsapp(OWNER, "HELP", "SM-wa-1")
    async with rig.app.store.transaction() as tx:
        await set_channel(tx, OWNER, "sms")
    await rig.whatsapp(OWNER, "HELP", "SM-wa-2")  # writing again does not undo the choice
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    assert [r.channel for r in await outbox(rig)] == ["sms"]


async def test_a_whatsapp_message_stored_but_not_answered_is_answered_on_whatsapp(
    tmp_path: Path,
) -> None:
    stored = Inbound("whatsapp", "SM-wa-lost", f"whatsapp:{KEEPER_PHONE}", SEIZE, {"Body": SEIZE})
    async with sms_rig(tmp_path, stored=[stored]) as rig:
        await rig.sweep.once()
        (row,) = [r for r in await outbox(rig) if r.idempotency_key == "sms-reply:SM-wa-lost"]
        assert (row.channel, row.recipient) == ("whatsapp", KEEPER_PHONE)
        assert "KNM-1" in row.body
        # The server's own delivery loop may take it first: either way it reaches the fake.
        for _ in range(200):
            await deliver(rig)
            if any(m["To"] == f"whatsapp:{KEEPER_PHONE}" for m in rig.twilio.messages):
                break
            await asyncio.sleep(0.05)
        assert any(m["To"] == f"whatsapp:{KEEPER_PHONE}" for m in rig.twilio.messages)


async def test_without_twilio_whatsapp_from_a_whatsapp_message_is_not_taken(
    tmp_path: Path,
) -> None:
    async with sms_rig(tmp_path, whatsapp=False) as rig:
        response = await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-off")
        assert response.status_code == 200
        assert "<Message>" not in response.text
        assert await count(rig, InboxRow) == 0
        assert await count(rig, CaseRow) == 0
        assert await count(rig, Contact) == 0


async def test_keeper_and_officer_steps_on_whatsapp_tell_the_owner_of_the_auction_by_template(
    rig: SmsRig,
) -> None:
    await rig.whatsapp(OWNER, "LANG en", "SM-wa-owner")  # the owner writes on WhatsApp
    await rig.whatsapp(KEEPER_PHONE, SEIZE, "SM-wa-k1")
    await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    report = message_of((await rig.whatsapp(KEEPER_PHONE, "REPORT KNM-1", "SM-wa-k2")).text)
    assert "KNM-1" in report
    await rig.set_clock(datetime(2026, 3, 10, 10, 0, tzinfo=LOCAL_TZ))
    notice = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"
    assert "KNM-1" in message_of((await rig.whatsapp(OFFICER_PHONE, notice, "SM-wa-o1")).text)
    auction = "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market"
    assert "KNM-1" in message_of((await rig.whatsapp(OFFICER_PHONE, auction, "SM-wa-o2")).text)
    (row,) = [r for r in await outbox(rig) if r.idempotency_key.startswith("auction:")]
    assert (row.channel, row.recipient) == ("whatsapp", OWNER)
    assert row.content_sid == TEMPLATES["owner_auction"]["en"]
    assert row.content_variables is not None
    assert json.loads(row.content_variables) == {
        "1": "KNM-1",
        "2": "18 Mar 2026",
        "3": "Kunnamangalam market",
    }


@pytest.mark.parametrize("body", ["", " ", "\x00\x01", "SEIZE", "STOP please", "x" * 3000])
async def test_any_whatsapp_body_gets_an_answer_and_changes_nothing_else(
    rig: SmsRig, body: str
) -> None:
    response = await rig.whatsapp(OWNER, body, "SM-wa-any")
    assert response.status_code == 200
    assert message_of(response.text)
    assert await count(rig, InboxRow) == 1
    assert await count(rig, CaseRow) == 0
    assert await outbox(rig) == []
