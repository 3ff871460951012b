"""What people are told at each stage, by signed SMS into the running app: the s.13(2)
notice is refused before s.13(1) is met and once the cattle have left the pound (the
word and the printable page both), and an owner's DUES follows the stage."""

from __future__ import annotations

import html
import re
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

import pytest

from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig

OWNER = "+919847099998"


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return html.unescape(match.group(1))


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def text(rig: SmsRig, sender: str, body: str, sid: str) -> str:
    response = await rig.sms(sender, body, sid)
    assert response.status_code == 200
    return message_of(response.text)


async def on(rig: SmsRig, day: int) -> None:
    await rig.set_clock(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))


async def test_no_notice_by_sms_or_printable_link_before_the_report_day_or_after_release(
    rig: SmsRig,
) -> None:
    await text(rig, KEEPER_PHONE, "SEIZE 2 cow AT Kunnamangalam market; brown", "SM-s1")
    await on(rig, 2)
    early = await text(rig, OFFICER_PHONE, "NOTICE KNM-1", "SM-n1")
    assert early == "Too early: this step is lawful from 9 Mar 2026. (s.13(1))"
    await on(rig, 9)
    notice = await text(rig, OFFICER_PHONE, "NOTICE KNM-1", "SM-n2")
    # By SMS the notice is a document to print: what it says in brief and its link.
    assert notice.startswith("Case KNM-1: notice of 9 Mar 2026 ready to print (s.13(2)).")
    link = next(word for word in notice.split() if word.startswith("https://"))
    path = urlparse(link).path
    printable = await rig.http.get(path)
    assert printable.status_code == 200
    assert "KNM-1" in printable.text
    # The owner pays the same day: the link already handed out no longer prints a notice.
    paid = await text(rig, KEEPER_PHONE, "PAID KNM-1", "SM-p1")
    assert "released (s.12)" in paid
    refused = await rig.http.get(path)
    assert refused.status_code == 409
    assert "വകുപ്പ് 12" in refused.text  # in the pound's first language, Malayalam
    assert "9 മാർച്ച് 2026" in refused.text
    again = await text(rig, OFFICER_PHONE, "NOTICE KNM-1", "SM-n3")
    assert again == (
        "The cattle were released to the owner on 9 Mar 2026 (s.12). "
        "This step is not possible now. (s.13(2))"
    )
    dues = await text(rig, OWNER, "DUES KNM-1 ", "SM-d1")
    assert dues.startswith("Case KNM-1: Rs ")
    assert dues.endswith("paid on 9 Mar 2026 and the cattle released (s.12). Nothing is due.")
