"""A Malayalam reader reads the Malayalam names of the configuration: the owner's intake
SMS names the pound in Malayalam (not "Kunnamangalam Grama Panchayat Cattle Pound-ൽ"),
and an English reader still reads the English name; a market the officer names for the
auction reaches the owner by its Malayalam name."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.channels.twilio.sender import TwilioSender
from bot.i18n.common import keyword
from bot.store.models import OutboxRow
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    OFFICER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    SmsRig,
    deliver_sms,
)
from tests.e2e.sms_harness import sms_rig as make_rig

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999"


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with make_rig(tmp_path) as rig:
        yield rig


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


async def test_the_owners_intake_sms_in_malayalam_names_the_pound_in_malayalam(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-names-1")
    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as sender:
        await deliver_sms(rig, sender, 1)
    (sent,) = rig.twilio.messages
    body = sent["Body"]
    assert "KNM-1" in body
    assert "കുന്ദമംഗലം" in body, body
    assert "Kunnamangalam Grama Panchayat" not in body, body
    assert "Pound" not in body, body


async def test_find_in_malayalam_names_the_pound_in_malayalam_and_in_english_in_english(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-names-2")
    find_ml = f"{keyword('find', 'ml')} പശു"
    malayalam = message_of((await rig.sms(OWNER, find_ml, "SM-names-3")).text)
    english = message_of((await rig.sms("+919847011111", "FIND cow", "SM-names-4")).text)
    assert "KNM-1" in malayalam, malayalam
    assert "കുന്ദമംഗലം" in malayalam, malayalam
    assert "Kunnamangalam Grama Panchayat" not in malayalam, malayalam
    assert "Kunnamangalam" in english, english
    assert "കുന്ദമംഗലം" not in english, english


async def test_the_market_the_officer_names_for_the_auction_reaches_the_owner_in_malayalam(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-names-5")
    await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, "REPORT KNM-1", "SM-names-6")
    await rig.set_clock(datetime(2026, 3, 10, 10, 0, tzinfo=LOCAL_TZ))
    posted = "NOTICE KNM-1 AT Kunnamangalam, Pathimangalam Chantha"
    notice = message_of((await rig.sms(OFFICER_PHONE, posted, "SM-names-7")).text)
    assert "KNM-1" in notice, notice
    auction = "AUCTION KNM-1 ON 18-03-2026 AT pathimangalam chantha"
    assert "KNM-1" in message_of((await rig.sms(OFFICER_PHONE, auction, "SM-names-8")).text)
    async with rig.app.store.transaction() as tx:
        rows = (await tx.session.execute(select(OutboxRow).order_by(OutboxRow.id))).scalars()
        (told,) = [r for r in rows if r.idempotency_key.startswith("auction:")]
    assert told.recipient == OWNER
    assert "പതിമംഗലം ചന്ത" in told.body, told.body
    assert "chantha" not in told.body.casefold(), told.body
