"""STOP from a keeper's or an officer's number is honoured: nothing is sent to the number
on that channel but the answers to its own messages (reminders and reports included);
one linked to Telegram is told there once; the web desk lists them."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select, update

from bot.i18n import render, translator
from bot.services import desk
from bot.services.base import Deps
from bot.store.models import OutboxRow, User
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig

SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market; brown cows"


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def _to(rig: SmsRig, recipient: str) -> list[OutboxRow]:
    async with rig.app.store.transaction() as tx:
        query = select(OutboxRow).where(OutboxRow.recipient == recipient)
        return list((await tx.session.execute(query.order_by(OutboxRow.id))).scalars())


async def _report(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-stop-seize")
    await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    assert "KNM-1" in message_of((await rig.sms(KEEPER_PHONE, "REPORT KNM-1", "SM-stop-r")).text)


async def test_an_officer_who_sent_stop_by_sms_gets_no_report_by_sms(rig: SmsRig) -> None:
    reply = message_of((await rig.sms(OFFICER_PHONE, "STOP", "SM-stop-1")).text)
    assert reply == render.staff_stopped("sms", on_telegram=False, tr=translator("en"))
    assert "reminders" in reply
    await _report(rig)
    assert await _to(rig, OFFICER_PHONE) == []  # the report went to nobody by SMS
    # Answers to the officer's own messages still come.
    status = message_of((await rig.sms(OFFICER_PHONE, "STATUS KNM-1", "SM-stop-2")).text)
    assert "KNM-1" in status
    # START: the next step's messages come again.
    await rig.sms(OFFICER_PHONE, "START", "SM-stop-3")
    await rig.set_clock(datetime(2026, 3, 10, 10, 0, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, "SEIZE 1 goat AT Kunnamangalam market", "SM-stop-4")
    await rig.set_clock(datetime(2026, 3, 18, 10, 0, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, "REPORT KNM-2", "SM-stop-5")
    # The report comes in three SMS, a template each.
    assert [row.channel for row in await _to(rig, OFFICER_PHONE)] == ["sms"] * 3


async def test_a_staff_member_on_telegram_is_told_there_once_and_the_desk_lists_them(
    rig: SmsRig,
) -> None:
    async with rig.app.store.transaction() as tx:
        await tx.session.execute(
            update(User).where(User.phone == OFFICER_PHONE).values(telegram_id=777001)
        )
    reply = message_of((await rig.sms(OFFICER_PHONE, "STOP", "SM-stop-t1")).text)
    assert reply == render.staff_stopped("sms", on_telegram=True, tr=translator("en"))
    await rig.sms(OFFICER_PHONE, "STOP", "SM-stop-t2")  # again: told once
    told = await _to(rig, "777001")
    assert [(row.channel, row.body) for row in told] == [
        ("telegram", render.staff_stopped_elsewhere("sms", translator("en")))
    ]
    await _report(rig)
    assert await _to(rig, OFFICER_PHONE) == []
    assert len(await _to(rig, "777001")) == 2  # the report came on Telegram
    async with rig.app.store.transaction() as tx:
        keeper = await tx.session.scalar(select(User).where(User.phone == KEEPER_PHONE))
        assert keeper is not None
        deps: Deps = rig.app.deps
        caller = await desk_caller(tx, keeper)
        found = await desk.today(tx, deps, caller)
    assert [(s.role, s.channel, s.on_telegram) for s in found.stopped] == [("officer", "sms", True)]


async def desk_caller(tx, user: User):  # type: ignore[no-untyped-def]
    from bot.support.caller import Caller

    return Caller(role=user.role, channel="web", user_id=user.id, pound=user.pound_code)


async def test_the_desk_today_page_lists_the_numbers_that_said_stop(tmp_path: Path) -> None:
    from bot.store.messages import set_contact
    from tests.web.rig import rig as desk_rig

    async with desk_rig(tmp_path) as r:
        await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", phone="+919847000020", name="Latha")
        async with r.app.store.transaction() as tx:
            await set_contact(tx, "+919847000010", opted_out=True, channel="sms")
        await r.sign_in(officer)
        page = (await r.client.get("/web/")).text
    assert "Numbers that said STOP" in page
    (line,) = re.findall(r"<li>Suresh \(.*?</li>", page)
    assert "SMS off since 1 Mar 2026" in line
    assert "no Telegram linked: reminders reach no one" in line
    assert "Latha" not in page.split("Numbers that said STOP")[1]  # only who stopped
