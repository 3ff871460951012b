"""A poundbot with its web desk, in memory: the ASGI app on a fresh SQLite database with
a fixed clock, users registered, and cases entered through the dispatcher as by SMS."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
from starlette.applications import Starlette

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.config.settings import Settings
from bot.conversation.reply import handle_text
from bot.entry.app import build_app
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.services.web_signin import issue_link_for
from bot.store.models import User
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from tests.databases import migrated_url

__all__ = ["Rig", "csrf_of", "rig", "step_form"]

SECRET = "test-secret-of-the-web-desk"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_SEEN = re.compile(r'name="seen" value="(\d+)"')
_SIGNIN = re.compile(r'name="signin" value="([^"]+)"')


def csrf_of(html: str) -> str:
    """The CSRF token of the first form of a page."""
    found = _CSRF.search(html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def step_form(html: str) -> dict[str, str]:
    """The hidden fields of a case page's step forms: the CSRF token and how many events
    the case had when the page was shown."""
    seen = _SEEN.search(html)
    assert seen, "no step form on the page"
    return {"csrf": csrf_of(html), "seen": seen.group(1)}


@dataclass
class Rig:
    """The app, its poundbot, the clock, and a client that keeps cookies."""

    asgi: Starlette
    client: httpx.AsyncClient
    clock: FixedClock
    origin: str = "http://desk.test"

    @property
    def app(self) -> App:
        poundbot: App = self.asgi.state.poundbot
        return poundbot

    async def user(
        self,
        role: str,
        *,
        pound: str | None = None,
        authority: str | None = None,
        name: str = "",
        phone: str | None = None,
        lang: str | None = "en",
        offices: Sequence[str] = (),
    ) -> User:
        async with self.app.store.transaction() as tx:
            return await add_user(
                tx,
                self.app.deps,
                Caller.system(),
                role=role,
                pound=pound,
                authority=authority,
                name=name,
                phone=phone,
                lang=lang,
                offices=offices,
            )

    async def link(self, user: User) -> str:
        """The path of a new sign-in link of ``user``."""
        async with self.app.store.transaction() as tx:
            return f"/web/signin/{await issue_link_for(tx, user.id)}"

    async def press(self, path: str) -> httpx.Response:
        """Opens a sign-in link's page and presses its button, as a browser does: the
        form's field, the pre-session cookie, and this server as the Origin."""
        page = await self.client.get(path)
        found = _SIGNIN.search(page.text)
        form = {"signin": found.group(1)} if found else {}
        return await self.client.post(path, data=form, headers={"Origin": self.origin})

    async def sign_in(self, user: User) -> httpx.Response:
        path = await self.link(user)
        page = await self.client.get(path)
        assert page.status_code == 200
        return await self.press(path)

    async def say(self, user: User, line: str) -> str:
        """A line sent by ``user`` as an SMS would be, through the dispatcher."""
        async with self.app.store.transaction() as tx:
            fresh = await tx.session.get(User, user.id)
            assert fresh is not None
            reply = await handle_text(tx, self.app.deps, caller_of(fresh, "sms"), line, sms=False)
        return reply.text


@asynccontextmanager
async def rig(
    tmp_path: Path,
    *,
    public_url: str = "http://desk.test",
    url: str | None = None,
    telegram_username: str = "",
) -> AsyncIterator[Rig]:
    """The app with its web desk on a new SQLite database (or the migrated database at
    ``url``), on 1 March 2026 at 10:00 IST; ``telegram_username``: the bot's."""
    clock = FixedClock(datetime(2026, 3, 1, 4, 30, tzinfo=UTC))
    url = url or migrated_url(tmp_path / "desk.sqlite3")
    settings = Settings(
        public_url=public_url, link_secret=SECRET, telegram_username=telegram_username
    )
    asgi = build_app(lambda: open_app(url=url, clock=clock), settings=settings)
    async with (
        asgi.router.lifespan_context(asgi),
        httpx.AsyncClient(transport=httpx.ASGITransport(asgi), base_url=public_url) as client,
    ):
        yield Rig(asgi, client, clock, public_url)
