"""SMS end to end: signed requests into the running app, replies in TwiML, SMS out via Twilio."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.channels.twilio_sender import TwilioSender
from bot.outbox import deliver_once
from bot.store import sqlite_inline
from bot.store.models import CaseRow, Contact, InboxRow, OutboxRow
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    OFFICER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    SmsRig,
    sms_rig,
)

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


async def count(rig: SmsRig, model: type) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_a_keeper_reports_a_seizure_by_sms_and_the_owner_is_told(rig: SmsRig) -> None:
    response = await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    reply = message_of(response.text)
    assert "KNM-1" in reply
    assert await count(rig, CaseRow) == 1
    # The intake SMS to the owner goes out through the real twilio SDK to the fake API.
    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as sender:
        assert await deliver_once(rig.app.store, {"sms": sender}, "test") == 1
    (sent,) = rig.twilio.messages
    assert sent["To"] == OWNER
    assert sent["From"] == FROM
    assert "KNM-1" in sent["Body"]
    assert sent["StatusCallback"] == PUBLIC_URL + "/twilio/status"
    assert rig.twilio.auth[0].startswith("Basic ")


async def test_an_owner_asks_dues_in_malayalam_and_gets_malayalam(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-2")
    reply = message_of((await rig.sms(OWNER, "കുടിശ്ശിക KNM-1", "SM-ml-1")).text)
    assert "KNM-1" in reply
    assert re.search("[\u0d00-\u0d7f]", reply)
    english = message_of((await rig.sms("+919847011111", "dues knm 1", "SM-en-1")).text)
    assert "KNM-1" in english
    assert not re.search("[\u0d00-\u0d7f]", english)


@pytest.mark.parametrize(
    "how", ["forged", "missing header", "signed for another URL", "blank parameter dropped"]
)
async def test_an_unsigned_or_forged_request_is_refused_and_changes_nothing(
    rig: SmsRig, how: str
) -> None:
    params = {"MessageSid": "SM-x", "From": KEEPER_PHONE, "Body": SEIZE, "FromCity": ""}
    signature = {
        "forged": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "missing header": "",
        "signed for another URL": rig.sign(
            "/twilio/sms", params, url="http://127.0.0.1/twilio/sms"
        ),
        "blank parameter dropped": rig.sign("/twilio/sms", {k: v for k, v in params.items() if v}),
    }[how]
    response = await rig.post("/twilio/sms", params, signature=signature)
    assert response.status_code == 403
    assert await count(rig, InboxRow) == 0
    assert await count(rig, CaseRow) == 0


async def test_the_same_message_sid_five_times_at_once_has_one_effect(rig: SmsRig) -> None:
    responses = await asyncio.gather(*(rig.sms(KEEPER_PHONE, SEIZE, "SM-same") for _ in range(5)))
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    assert await count(rig, CaseRow) == 1
    assert await count(rig, InboxRow) == 1


async def test_stop_is_honoured_for_notifications_and_start_resumes(rig: SmsRig) -> None:
    reply = message_of((await rig.sms(OWNER, "STOP", "SM-stop")).text)
    assert reply
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-3")
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
        queued = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
    assert contact is not None
    assert contact.opted_out_at is not None
    assert queued == 0
    await rig.sms(OWNER, "START", "SM-start")
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
    assert contact is not None
    assert contact.opted_out_at is None


async def test_delivery_reports_only_move_a_status_forward_and_21610_stops_a_number(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-4")
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        await deliver_once(rig.app.store, {"sms": sender}, "test")
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    sid = row.provider_id
    assert sid is not None
    for status in ("delivered", "sent", "sending"):
        response = await rig.post("/twilio/status", {"MessageSid": sid, "MessageStatus": status})
        assert response.status_code == 204
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    assert row.status == "delivered"
    forged = await rig.post(
        "/twilio/status", {"MessageSid": sid, "MessageStatus": "failed"}, signature="bad"
    )
    assert forged.status_code == 403
    await rig.post(
        "/twilio/status", {"MessageSid": sid, "MessageStatus": "failed", "ErrorCode": "21610"}
    )
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
    assert contact is not None
    assert contact.opted_out_at is not None


async def test_twilio_429_is_retried_and_an_accepted_message_is_never_resent(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-5")
    rig.twilio.fail = [(429, 20429), (503, 20503)]
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        rig.clock.advance(minutes=1)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        rig.clock.advance(minutes=2)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 1
        rig.clock.advance(hours=2)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
    assert len(rig.twilio.messages) == 1


async def test_an_owner_notification_waits_for_the_morning(rig: SmsRig) -> None:
    rig.clock.set(datetime(2026, 3, 1, 22, 30, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-night")
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        rig.clock.set(datetime(2026, 3, 2, 8, 0, tzinfo=LOCAL_TZ))
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 1


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        st.text(max_size=400),
        st.text(min_size=1500, max_size=5000),
        st.sampled_from(["", " ", "\x00\x01", "DUES", "SEIZE", "SEIZE 9999999 cow"]),
    )
)
async def test_any_body_gets_a_reply_never_a_5xx_and_stores_only_the_inbox_row(
    rig: SmsRig, body: str
) -> None:
    before = await count(rig, InboxRow)
    sid = f"SM-fuzz-{before}"
    response = await rig.sms("+919847012345", body, sid)
    assert response.status_code == 200
    assert message_of(response.text)
    assert await count(rig, InboxRow) == before + 1
    assert await count(rig, CaseRow) == 0


async def test_a_crash_while_acting_answers_try_again_and_keeps_the_message(
    rig: SmsRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def crash(*args: object, **kwargs: object) -> object:
        raise RuntimeError("database went away")

    monkeypatch.setattr("bot.channels.sms.handle_text", crash)
    response = await rig.sms(OWNER, "DUES KNM-1", "SM-crash")
    assert response.status_code == 200
    assert message_of(response.text)
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
    assert row.provider_id == "SM-crash"
    assert row.processed_at is None  # kept, unprocessed: nothing is lost


async def test_a_database_held_by_another_process_gets_try_again_and_records_nothing(
    rig: SmsRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_inline, "BUSY_DEADLINE", 0.3)
    other = sqlite3.connect(tmp_path / "sms.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # as the admin CLI or a backup might, for too long
    try:
        response = await rig.sms(KEEPER_PHONE, SEIZE, "SM-locked")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 200
    assert "send it again in a few minutes" in message_of(response.text)
    assert await count(rig, InboxRow) == 0
    assert await count(rig, CaseRow) == 0
    again = await rig.sms(KEEPER_PHONE, SEIZE, "SM-locked")  # the keeper sends it again
    assert "KNM-1" in message_of(again.text)
    assert await count(rig, CaseRow) == 1


async def test_an_officer_by_sms_records_a_deposit_outcome_and_a_vague_one_is_refused(
    rig: SmsRig,
) -> None:
    """Issue 12 (s.14, s.19): OUTCOME by signed SMS; the deposit's ledger moves with it."""
    from bot.store.models import LedgerEntry

    await rig.sms(KEEPER_PHONE, "SEIZE 1 cow AT Kunnamangalam market", "SM-h2-1")
    rig.clock.set(datetime(2026, 3, 2, 10, 0, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, "DEPOSITED KNM-1", "SM-h2-2")
    rig.clock.set(datetime(2026, 3, 20, 10, 0, tzinfo=LOCAL_TZ))
    vague = message_of((await rig.sms(OFFICER_PHONE, "OUTCOME KNM-1 REF CC-1", "SM-h2-3")).text)
    assert "s.14, s.19" in vague
    upheld = await rig.sms(OFFICER_PHONE, "OUTCOME KNM-1 UPHELD REF CC-12/2026", "SM-h2-4")
    assert "CC-12/2026" in message_of(upheld.text)
    async with rig.app.store.transaction() as tx:
        stage = await tx.session.scalar(select(CaseRow.stage).where(CaseRow.number == "KNM-1"))
        fund = await tx.session.scalar(
            select(func.sum(LedgerEntry.amount_paise)).where(LedgerEntry.account == "fund")
        )
    assert stage == "closed"
    assert fund == 75000  # the fine of one cow, applied from the deposit (s.17(1))
