"""A running poundbot with SMS through Exotel or Mobile Seva, their APIs faked on loopback,
and the requests those providers make (an SMS to the ExoPhone, a delivery report, a
missed call, a pull SMS) made as they make them."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette

from bot.adapters.outbox import deliver_once
from bot.bootstrap import load, open_app
from bot.channels.sms.providers import sms_sender
from bot.config import SenderLimits
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.exotel_api import FakeExotel
from bot.fakes.loopback import serve
from bot.fakes.mseva_api import FakeMseva
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.dlt import DltPolicy, DltStamp
from domain.calendar import LOCAL_TZ
from tests.databases import migrated_url
from tests.e2e.server_clock import RIG_TIMEOUT, move
from tests.e2e.sms_harness import SMS_PER_SECOND
from tests.integration.test_migrations import fresh_pg_database

PUBLIC_URL = "https://pound.example.org"
SECRET = "s" * 24 + "-webhook-secret-of-40"  # 45 characters
EXOTEL_SID, EXOTEL_KEY, EXOTEL_TOKEN = "poundbot-kerala", "exotel-api-key", "exotel-api-token"
EXOPHONE = "08047091234"
MSEVA_USER, MSEVA_PASSWORD, MSEVA_KEY = "kldept01", "mseva-pass1", "9a8b7c6d-secure-key"
MSEVA_SENDER, KEYWORD = "KLPOUND", "KL POUND"
STAMP = DltStamp("1201160000000012345", "1207160000000067890")
KEEPER_PHONE = "+919847000010"
OFFICER_PHONE = "+919847000020"


@dataclass
class IndiaRig:
    """What a test talks to."""

    provider: str
    http: httpx.AsyncClient
    app: App
    clock: FixedClock
    settings: Settings
    server: Starlette
    exotel: FakeExotel
    mseva: FakeMseva

    def sent(self) -> list[dict[str, str]]:
        """The SMS the provider's fake took, in order."""
        return self.exotel.messages if self.provider == "exotel" else self.mseva.messages

    async def set_clock(self, when: datetime) -> None:
        """Move the clock to ``when``, the server's heartbeat with it (``server_clock``)."""
        await move(self.clock, self.app, self.server, when)

    async def advance_clock(self, **delta: float) -> None:
        """Move the clock on by ``delta``, the server's heartbeat with it."""
        await move(self.clock, self.app, self.server, **delta)

    def text_of(self, sent: dict[str, str]) -> str:
        """The text of an SMS as the provider took it (Mobile Seva's Unicode content is
        written as numeric entities)."""
        if self.provider == "exotel":
            return sent["Body"]
        return html.unescape(sent["content"])

    def to(self, sent: dict[str, str]) -> str:
        return sent["To"] if self.provider == "exotel" else "+" + sent["mobileno"]

    async def exotel_sms(
        self, sender: str, body: str, sid: str, *, secret: str = SECRET
    ) -> httpx.Response:
        """An SMS to the ExoPhone as Exotel's SMS app passes it (GET, query parameters)."""
        params = {
            "SmsSid": sid,
            "From": sender,
            "To": EXOPHONE,
            "Date": "2026-03-01 10:00:00",
            "Body": body,
        }
        return await self.http.get(f"/exotel/sms/{secret}", params=params)

    async def exotel_call(self, caller: str, sid: str, *, secret: str = SECRET) -> httpx.Response:
        """A call reaching the Passthru applet (GET, query parameters)."""
        params = {
            "CallSid": sid,
            "CallFrom": caller,
            "CallTo": EXOPHONE,
            "From": caller,
            "To": EXOPHONE,
            "Direction": "incoming",
            "CallType": "call-attempt",
            "CurrentTime": "2026-03-01 10:00:00",
        }
        return await self.http.get(f"/exotel/call/{secret}", params=params)

    async def mseva_pull(
        self,
        number: str,
        message: str,
        *,
        stamp: str = "2026-03-01 10:00:00",
        secret: str = SECRET,
        method: str = "GET",
    ) -> httpx.Response:
        """A pull SMS as Mobile Seva forwards it (``mobileNumber`` is 10 digits)."""
        params = {
            "mobileNumber": number,
            "timeStamp": stamp,
            "operatorName": "",
            "areaCode": "",
            "message": message,
        }
        if method == "POST":
            return await self.http.post(f"/mseva/pull/{secret}", data=params)
        return await self.http.get(f"/mseva/pull/{secret}", params=params)

    async def say(self, sender: str, body: str, sid: str) -> httpx.Response:
        """An SMS from ``sender`` (``+91…``) through the provider in use."""
        if self.provider == "exotel":
            return await self.exotel_sms("0" + sender[3:], body, sid)
        return await self.mseva_pull(sender[3:], f"{KEYWORD} {body}", stamp=sid)

    async def deliver(self, count: int, seconds: float = 10.0) -> None:
        """Deliver the queued SMS until the fake has ``count`` (bounded wait); the
        server's own delivery loop may send some first."""
        async with sms_sender(self.settings) as sender:
            for _ in range(int(seconds / 0.05)):
                await deliver_once(
                    self.app.store,
                    {"sms": sender},
                    "test",
                    dlt=self.app.config.dlt,
                    gate=self.app.gate,
                )
                if len(self.sent()) >= count:
                    return
                await asyncio.sleep(0.05)


@contextmanager
def database(engine: str, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database for ``engine`` (use from a sync fixture: creating a
    PostgreSQL database runs its own event loop)."""
    if engine == "sqlite":
        yield migrated_url(tmp_path / "india.sqlite3")
        return
    with fresh_pg_database() as url:
        yield url


@asynccontextmanager
async def india_rig(
    tmp_path: Path,
    provider: str,
    url: str | None = None,
    *,
    dlt: DltPolicy | None = None,
    limits: SenderLimits | None = None,
    **extra: Any,
) -> AsyncIterator[IndiaRig]:
    """poundbot under uvicorn on loopback with ``provider`` (exotel or mseva) and the
    default DLT stamp ``STAMP`` (or the configuration's ``[dlt]``, ``dlt``: every SMS
    checked against its template); ``limits`` the configuration's ``[limits]``; a keeper
    of KNM and an officer registered."""
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    exotel = FakeExotel((EXOTEL_SID, EXOTEL_KEY, EXOTEL_TOKEN))
    mseva = FakeMseva(MSEVA_USER, MSEVA_PASSWORD, MSEVA_KEY)
    url = url or migrated_url(tmp_path / "india.sqlite3")
    migrate = None if url.startswith("sqlite") else True
    async with serve(exotel.app()) as exotel_url, serve(mseva.app()) as mseva_url:
        settings = Settings(
            public_url=PUBLIC_URL,
            sms_provider=provider,
            webhook_secret=SECRET,
            exotel_api_key=EXOTEL_KEY,
            exotel_api_token=EXOTEL_TOKEN,
            exotel_account_sid=EXOTEL_SID,
            exotel_subdomain="api.in.exotel.com",
            exotel_from=EXOPHONE,
            exotel_api_url=exotel_url,
            mseva_username=MSEVA_USER,
            mseva_password=MSEVA_PASSWORD,
            mseva_sender_id=MSEVA_SENDER,
            mseva_secure_key=MSEVA_KEY,
            mseva_keyword=KEYWORD,
            mseva_api_url=f"{mseva_url}/esms/sendsmsrequestDLT",
            dlt_default=STAMP,
            link_secret="test-link-secret",
            **extra,
        )
        config = load() if dlt is None else load()._replace(dlt=dlt)
        config = config._replace(reminders=config.reminders._replace(sms_per_second=SMS_PER_SECOND))
        if limits is not None:
            config = config._replace(limits=limits)
        async with (
            open_app(url=url, clock=clock, config=config, migrate=migrate) as setup,
            setup.store.transaction() as tx,
        ):
            admin = Caller.system()
            await add_user(
                tx,
                setup.deps,
                admin,
                role="keeper",
                pound="KNM",
                phone=KEEPER_PHONE,
                name="Velayudhan",
                lang="en",
            )
            await add_user(
                tx,
                setup.deps,
                admin,
                role="officer",
                authority="KNM-GP",
                phone=OFFICER_PHONE,
                name="Secretary",
                lang="en",
            )
        holder: dict[str, App] = {}

        @asynccontextmanager
        async def factory() -> AsyncIterator[App]:
            async with open_app(url=url, clock=clock, config=config) as app:
                holder["app"] = app
                yield app

        poundbot = build_app(factory, settings)
        async with (
            serve(poundbot) as base,
            httpx.AsyncClient(base_url=base, timeout=RIG_TIMEOUT) as http,
        ):
            yield IndiaRig(provider, http, holder["app"], clock, settings, poundbot, exotel, mseva)
