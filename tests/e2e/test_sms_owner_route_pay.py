"""By signed SMS into the running app: an owner who refused to pay deposits under
protest within the ten days of s.19 (s.14), and after a refused account (s.15(5)) pays
all still owed before a head of the second sale is sold (s.12)."""

from __future__ import annotations

import html
import re
from datetime import datetime
from pathlib import Path

import pytest

from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return html.unescape(match.group(1))


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def text(rig: SmsRig, sender: str, body: str, sid: str, day: int | None = None) -> str:
    if day is not None:
        await rig.set_clock(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))
    response = await rig.sms(sender, body, sid)
    assert response.status_code == 200
    return message_of(response.text)


async def stage(rig: SmsRig) -> Stage:
    async with rig.app.store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case.stage


async def test_deposited_by_sms_after_a_refusal_within_the_ten_days_s14(rig: SmsRig) -> None:
    await text(rig, KEEPER_PHONE, "SEIZE 2 cow AT Kunnamangalam market", "SM-op1", 1)
    await text(rig, KEEPER_PHONE, "REFUSED KNM-1", "SM-op2", 3)
    await text(rig, OFFICER_PHONE, "AUCTION KNM-1 ON 10-03-2026 AT Kunnamangalam market", "SM-op3")
    done = await text(rig, KEEPER_PHONE, "DEPOSITED KNM-1", "SM-op4", 5)
    assert "(s.14)" in done, done
    assert "10 Mar 2026" in done  # the auction fixed for that day is cancelled
    assert await stage(rig) is Stage.ON_DEPOSIT


async def test_paid_by_sms_after_a_refused_account_before_a_head_is_sold_s12(
    rig: SmsRig,
) -> None:
    await text(rig, KEEPER_PHONE, "SEIZE 3 cow AT Kunnamangalam market", "SM-op5", 1)
    await text(rig, KEEPER_PHONE, "REFUSED KNM-1", "SM-op6", 3)
    await text(rig, OFFICER_PHONE, "AUCTION KNM-1 ON 06-03-2026 AT Kunnamangalam market", "SM-op7")
    await text(
        rig, OFFICER_PHONE, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED", "SM-op8", 6
    )
    await text(rig, OFFICER_PHONE, "SETTLE KNM-1 500", "SM-op9")
    await text(rig, OFFICER_PHONE, "NORECEIPT KNM-1", "SM-op10")
    await text(rig, KEEPER_PHONE, "REPORT KNM-1", "SM-op11", 9)
    paid = await text(rig, KEEPER_PHONE, "PAID KNM-1", "SM-op12", 10)
    assert "2 cows released (s.12)" in paid, paid
    assert await stage(rig) is Stage.IN_DEPOSIT
