"""Telephone numbers by SMS: the owner's number as keepers write it, the sender's number
as Twilio gives it, and a stranger's search (issue 13, items 10 and 11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from bot.channels.twilio.sender import TwilioSender
from bot.store.models import CaseRow, Contact
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    SmsRig,
    deliver_sms,
    sms_rig,
)
from tests.e2e.test_sms import count, message_of


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_owner_ravi_09847012345_is_told_at_91_not_at_98_iran(rig: SmsRig) -> None:
    body = "SEIZE 1 buffalo AT Kunnamangalam market OWNER Ravi 09847012345; black buffalo"
    reply = message_of((await rig.sms(KEEPER_PHONE, body, "SM-ravi-1")).text)
    assert "KNM-1" in reply
    async with rig.app.store.transaction() as tx:
        assert await tx.session.scalar(select(CaseRow.owner_phone)) == "+919847012345"
    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as sender:
        await deliver_sms(rig, sender, 1)
    assert [m["To"] for m in rig.twilio.messages] == ["+919847012345"]


async def test_a_landline_after_owner_is_refused_by_sms_and_nothing_is_recorded(
    rig: SmsRig,
) -> None:
    body = "SEIZE 1 buffalo AT Kunnamangalam market OWNER Ravi 0495 2370000"
    reply = message_of((await rig.sms(KEEPER_PHONE, body, "SM-landline-1")).text)
    assert "0495 2370000" in reply
    assert "landline" in reply
    assert await count(rig, CaseRow) == 0


async def test_a_stranger_texting_find_with_the_owners_number_learns_nothing(
    rig: SmsRig,
) -> None:
    body = "SEIZE 1 buffalo AT Chathamangalam; black buffalo OWNER Kunhammed 9847012345"
    assert "KNM-1" in message_of((await rig.sms(KEEPER_PHONE, body, "SM-leak-1")).text)
    for i, words in enumerate(("9847012345", "Kunham", "98470 12345")):
        reply = message_of((await rig.sms("+919847011111", f"FIND {words}", f"SM-f-{i}")).text)
        assert "KNM-1" not in reply
    found = message_of((await rig.sms("+919847011111", "FIND black buffalo", "SM-f-9")).text)
    assert "KNM-1" in found


async def test_a_sender_is_known_by_its_e164_number_whatever_the_form(rig: SmsRig) -> None:
    # A registered keeper's number with its trunk 0 (as a local gateway may send it).
    local = "0" + KEEPER_PHONE.removeprefix("+91")
    body = "SEIZE 1 cow AT Kunnamangalam market"
    assert "KNM-1" in message_of((await rig.sms(local, body, "SM-local-1")).text)
    # A member of the public's STOP is remembered under the E.164 number.
    await rig.sms("09847011111", "STOP", "SM-stop-1")
    async with rig.app.store.transaction() as tx:
        phones = list((await tx.session.execute(select(Contact.phone))).scalars())
    assert phones == ["+919847011111"]
