"""A Malayalam reader reads the Malayalam names of the configuration: the owner's intake
SMS names the pound in Malayalam (not "Kunnamangalam Grama Panchayat Cattle Pound-ൽ"),
and an English reader still reads the English name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.channels.twilio.sender import TwilioSender
from bot.i18n.common import keyword
from tests.e2e.sms_harness import FROM, KEEPER_PHONE, PUBLIC_URL, SID, TOKEN, SmsRig, deliver_sms
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
