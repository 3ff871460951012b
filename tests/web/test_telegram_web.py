"""``/web`` in Telegram: a registered officer gets a sign-in link; a stranger does not."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fakes.telegram_api import TelegramUser, Updates
from tests.e2e.telegram_rig import (
    OFFICER,
    PUBLIC_URL,
    TelegramRig,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def test_web_in_telegram_gives_an_officer_a_sign_in_link(rig: TelegramRig) -> None:
    (reply,) = sent(await rig.say(OFFICER, "/web"))
    assert re.search(re.escape(PUBLIC_URL) + r"/web/signin/[A-Za-z0-9_-]{40,}", reply.text)


async def test_web_in_telegram_gives_a_stranger_no_link(rig: TelegramRig) -> None:
    stranger = TelegramUser(555_000_111, "Stranger", "en")
    for reply in sent(await rig.say(stranger, "/web")):
        assert "/web/signin/" not in reply.text
