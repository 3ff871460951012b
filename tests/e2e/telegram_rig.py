"""A running poundbot with the Telegram channel on: updates posted over HTTP with the
secret header, the real PTB bot answering through a fake Bot API on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select
from starlette.applications import Starlette

from bot.bootstrap import open_app
from bot.channels.telegram.webhook import SECRET_HEADER, TelegramChannel, TelegramOptions
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.loopback import serve
from bot.fakes.telegram_api import TOKEN, Call, FakeTelegram, TelegramUser, Updates
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.databases import migrated_url
from tests.e2e.server_clock import RIG_TIMEOUT, move

SECRET = "s3cret-webhook-token_42"
PUBLIC_URL = "https://pound.example.org"

KEEPER = TelegramUser(1001, "Velayudhan", "en")
OTHER_KEEPER = TelegramUser(1002, "Saraswathi", "en")
OFFICER = TelegramUser(2001, "Secretary", "en")
OTHER_OFFICER = TelegramUser(2002, "Clerk", "en")
STRANGER = TelegramUser(3001, "Anitha", "en")


def start_clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))


@dataclass
class TelegramRig:
    """What a test talks to: poundbot over HTTP, the fake Bot API, the database."""

    http: httpx.AsyncClient
    poundbot: Starlette
    fake: FakeTelegram
    updates: Updates
    clock: FixedClock

    @property
    def app(self) -> App:
        app: App = self.poundbot.state.poundbot
        return app

    async def set_clock(self, when: datetime) -> None:
        """Move the clock to ``when``, the server's heartbeat with it (``server_clock``)."""
        await move(self.clock, self.app, self.poundbot, when)

    async def advance_clock(self, **delta: float) -> None:
        """Move the clock on by ``delta``, the server's heartbeat with it."""
        await move(self.clock, self.app, self.poundbot, **delta)

    @property
    def channel(self) -> TelegramChannel:
        channel: TelegramChannel = self.poundbot.state.telegram
        return channel

    async def post(self, update: dict[str, Any], secret: str | None = SECRET) -> httpx.Response:
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        return await self.http.post("/telegram", json=update, headers=headers)

    async def deliver(self, update: dict[str, Any]) -> list[Call]:
        """Post ``update``; wait until its replies are delivered; the Bot API calls made."""
        before = len(self.fake.calls)
        response = await self.post(update)
        assert response.status_code == 200, response.text
        await self.channel.delivery.drained()
        return self.fake.calls[before:]

    async def say(self, user: TelegramUser, text: str) -> list[Call]:
        return await self.deliver(self.updates.text(user, text))

    async def press(self, user: TelegramUser, on: Call, data: str) -> list[Call]:
        assert data in [d for _, d in on.buttons], (data, on.buttons)
        return await self.deliver(self.updates.button(user, on, data))

    async def count(self, model: type, *where: Any) -> int:
        async with self.app.store.transaction() as tx:
            query = select(func.count()).select_from(model)
            if where:
                query = query.where(*where)
            return int(await tx.session.scalar(query) or 0)


def sent(calls: list[Call]) -> list[Call]:
    """The new messages among ``calls``."""
    return [c for c in calls if c.method == "sendMessage"]


def last_message(calls: list[Call]) -> Call:
    messages = sent(calls)
    assert messages, [c.method for c in calls]
    return messages[-1]


async def seed_users(url: str, clock: FixedClock) -> None:
    """Two keepers (KNM, ENM) and two officers (KNM-GP, ENM-GP), linked to Telegram."""
    async with open_app(url=url, clock=clock) as setup, setup.store.transaction() as tx:
        system = Caller.system()
        for user, role, place in (
            (KEEPER, "keeper", {"pound": "KNM"}),
            (OTHER_KEEPER, "keeper", {"pound": "ENM"}),
            (OFFICER, "officer", {"authority": "KNM-GP"}),
            (OTHER_OFFICER, "officer", {"authority": "ENM-GP"}),
        ):
            await add_user(
                tx,
                setup.deps,
                system,
                role=role,
                telegram_id=user.id,
                name=user.first_name,
                **place,
            )


@asynccontextmanager
async def fake_bot_api() -> AsyncIterator[tuple[FakeTelegram, str]]:
    """The fake Bot API on loopback: (fake, base URL)."""
    fake = FakeTelegram()
    async with serve(fake.app()) as url:
        try:
            yield fake, url
        finally:
            fake.close()


@asynccontextmanager
async def poundbot_on(
    fake: FakeTelegram,
    fake_url: str,
    db_url: str,
    clock: FixedClock,
    updates: Updates,
    options: TelegramOptions | None = None,
    *,
    secret: str = SECRET,
) -> AsyncIterator[TelegramRig]:
    """poundbot under uvicorn on loopback, Telegram on, pointed at the fake Bot API."""
    settings = Settings(
        public_url=PUBLIC_URL,
        telegram_token=TOKEN,
        telegram_secret=secret,
        telegram_api_url=f"{fake_url}/bot",
    )
    # Tests do not wait out rate limits: no per-chat pace, no overall limiter.
    options = options or TelegramOptions(chat_interval=0, rate_limit=False)
    poundbot = build_app(lambda: open_app(url=db_url, clock=clock), settings, options)
    async with (
        serve(poundbot) as base,
        httpx.AsyncClient(base_url=base, timeout=RIG_TIMEOUT) as http,
    ):
        yield TelegramRig(http, poundbot, fake, updates, clock)


def db_url(tmp_path: Path) -> str:
    return migrated_url(tmp_path / "telegram.sqlite3")
