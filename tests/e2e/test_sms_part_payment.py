"""A part payment by signed SMS into the running app (s.12, s.14): refused with the dues
of the day and their lines, in the language of the line, and nothing recorded."""

from __future__ import annotations

import html
import re
from datetime import datetime
from pathlib import Path

import pytest

from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.e2e.sms_harness import KEEPER_PHONE, SmsRig, sms_rig


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return html.unescape(match.group(1))


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def text(rig: SmsRig, body: str, sid: str) -> str:
    response = await rig.sms(KEEPER_PHONE, body, sid)
    assert response.status_code == 200
    return message_of(response.text)


async def stage(rig: SmsRig) -> Stage:
    async with rig.app.store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case.stage


async def test_a_part_payment_by_sms_is_refused_with_the_dues_in_english_and_malayalam(
    rig: SmsRig,
) -> None:
    await text(rig, "SEIZE 1 cow AT Kunnamangalam market", "SM-pp1")
    await rig.set_clock(datetime(2026, 3, 3, 10, 0, tzinfo=LOCAL_TZ))
    english = await text(rig, "PAID KNM-1 200", "SM-pp2")
    assert "Rs 200 is not the amount due" in english or "₹200 is not the amount due" in english
    assert "1,111.50 is due on 3 Mar 2026" in english
    assert "(s.12)" in english
    assert await stage(rig) is Stage.IMPOUNDED
    await text(rig, "LANG ml", "SM-pp5")
    malayalam = await text(rig, "അടച്ചു KNM-1 540/-", "SM-pp3")
    assert "₹540" in malayalam
    assert "₹1,111.50" in malayalam
    assert "3 മാർച്ച് 2026" in malayalam
    assert "വകുപ്പ് 12" in malayalam
    assert await stage(rig) is Stage.IMPOUNDED
    paid = await text(rig, "PAID KNM-1", "SM-pp4")
    assert "വകുപ്പ് 12" in paid
    assert "₹1,111.50" in paid
    assert await stage(rig) is Stage.RELEASED
