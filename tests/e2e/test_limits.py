"""Answers per sender (issue 13, item 5): past the limit one message says when to try
again, then nothing until the window passes; what was sent is stored all the same; a
wrong invite code counts double; the count holds across instances."""

from __future__ import annotations

import asyncio
import html
from collections import Counter
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.channels.limits import admit
from bot.config import SenderLimits
from bot.fakes.telegram_api import Updates
from bot.i18n import render, translator
from bot.i18n.chrome import telegram as text
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.models import Contact, InboxRow
from bot.store.tx import Store
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import KEEPER_PHONE, SmsRig, sms_rig
from tests.e2e.telegram_rig import (
    OTHER_KEEPER,
    STRANGER,
    TelegramRig,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)

EN = translator("en")
PUBLIC = "+919847012345"
OTHER = "+919847054321"


def answer_of(twiml: str) -> str:
    """The text of a TwiML answer; "" for an empty ``<Response />``."""
    _, found, rest = twiml.partition("<Message>")
    return html.unescape(rest.partition("</Message>")[0]) if found else ""


async def inbox(store: Store, channel: str) -> int:
    async with store.transaction() as tx:
        query = select(func.count()).select_from(InboxRow).where(InboxRow.channel == channel)
        return int(await tx.session.scalar(query) or 0)


@pytest.fixture
async def sms(tmp_path: Path) -> AsyncIterator[SmsRig]:
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_a_number_past_its_limit_is_told_once_then_not_answered_until_the_window_ends(
    sms: SmsRig,
) -> None:
    help_text = answer_of((await sms.sms(PUBLIC, "HELP", "SM-0")).text)
    assert help_text
    for i in range(1, 10):  # ten answered in ten minutes (the sample configuration)
        assert answer_of((await sms.sms(PUBLIC, "HELP", f"SM-{i}")).text) == help_text
    await sms.advance_clock(minutes=3)
    told = answer_of((await sms.sms(PUBLIC, "HELP", "SM-10")).text)
    assert told == render.too_many_messages(datetime(2026, 3, 1, 10, 10, tzinfo=LOCAL_TZ), EN)
    assert "10:10 AM" in told
    for i in range(11, 15):
        assert answer_of((await sms.sms(PUBLIC, "DUES KNM-1", f"SM-{i}")).text) == ""
    assert answer_of((await sms.sms(PUBLIC, "HELP", "SM-10")).text) == told  # a resend: same
    assert answer_of((await sms.sms(OTHER, "HELP", "SM-other")).text) == help_text
    assert await inbox(sms.app.store, "sms") == 16  # every message stored all the same
    await sms.advance_clock(minutes=7)  # the window has passed
    assert answer_of((await sms.sms(PUBLIC, "HELP", "SM-15")).text) == help_text


async def test_a_stop_past_the_limit_is_still_recorded(sms: SmsRig) -> None:
    for i in range(11):
        await sms.sms(PUBLIC, "HELP", f"SM-{i}")
    assert answer_of((await sms.sms(PUBLIC, "STOP", "SM-stop")).text) == ""
    async with sms.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, PUBLIC)
    assert contact is not None
    assert contact.opted_out_at is not None


async def test_a_keeper_is_allowed_more_than_the_public(sms: SmsRig) -> None:
    for i in range(15):
        reply = answer_of((await sms.sms(KEEPER_PHONE, "CASES", f"SM-k{i}")).text)
        assert reply
        assert "answer again" not in reply


async def test_the_reply_past_the_limit_is_in_the_senders_language(sms: SmsRig) -> None:
    for i in range(10):
        await sms.sms(PUBLIC, "സഹായം", f"SM-{i}")
    told = answer_of((await sms.sms(PUBLIC, "സഹായം", "SM-10")).text)
    until = datetime(2026, 3, 1, 10, 10, tzinfo=LOCAL_TZ)
    assert told == render.too_many_messages(until, translator("ml"))
    assert told != render.too_many_messages(until, EN)


# --- Telegram ------------------------------------------------------------------------


@pytest.fixture
async def telegram(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def test_wrong_invite_codes_count_double_and_guessing_is_stopped(
    telegram: TelegramRig,
) -> None:
    # Issue 13: 300 `/start <guess>` from one account were each answered.
    refused = text.invite_refused(STRANGER.id, EN)
    for i in range(5):  # five wrong codes use up the ten answers of the window
        (reply,) = sent(await telegram.say(STRANGER, f"/start guess{i:04d}"))
        assert reply.text == refused
    (told,) = sent(await telegram.say(STRANGER, "/start guess0005"))
    until = start_clock().now() + timedelta(minutes=10)
    assert told.text == render.too_many_messages(until, EN)
    for i in range(6, 30):
        assert sent(await telegram.say(STRANGER, f"/start guess{i:04d}")) == []
    assert sent(await telegram.say(STRANGER, "/help")) == []
    assert await inbox(telegram.app.store, "telegram") == 31  # all stored
    (other,) = sent(await telegram.say(OTHER_KEEPER, "/help"))  # another account answered
    assert other.text.startswith(render.help_text("keeper", EN, False)[:40])
    await telegram.advance_clock(minutes=10)
    (again,) = sent(await telegram.say(STRANGER, "/start guess0031"))
    assert again.text == refused


async def test_plain_messages_count_once(telegram: TelegramRig) -> None:
    for _ in range(10):
        assert len(sent(await telegram.say(STRANGER, "/help"))) == 1
    (told,) = sent(await telegram.say(STRANGER, "/help"))
    assert told.text.startswith("You have sent many messages")


# --- across instances ----------------------------------------------------------------


async def test_the_count_holds_across_instances(engine: AsyncEngine) -> None:
    url = engine.url.render_as_string(hide_password=False)
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    limits = SenderLimits(window=timedelta(minutes=10), public=10)
    engines = [make_engine(url) for _ in range(2)]
    sqlite = engine.dialect.name == "sqlite"
    stores = [Store(make_sessionmaker(e), clock, serialize=sqlite) for e in engines]

    async def one(store: Store) -> tuple[bool, bool]:
        async with store.transaction() as tx:
            allowed = await admit(tx, limits, "sms", PUBLIC, "public")
            return allowed.answer, allowed.tell

    try:
        outcomes = await asyncio.gather(*(one(stores[i % 2]) for i in range(30)))
    finally:
        for e in engines:
            await e.dispose()
    assert Counter(outcomes) == {(True, False): 10, (False, True): 1, (False, False): 19}
