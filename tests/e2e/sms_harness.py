"""A running poundbot with the SMS channel on, signed Twilio requests, and a fake Twilio API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette
from twilio.request_validator import RequestValidator

from bot.adapters.outbox import Sender, deliver_once
from bot.bootstrap import load, open_app
from bot.config import SenderLimits
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.loopback import serve
from bot.fakes.twilio_api import FakeTwilio
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.store.messages import Inbound, store_inbound
from bot.support.budget import DEFAULT_BUDGET
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.dlt import DltPolicy
from domain.calendar import LOCAL_TZ
from tests.databases import migrated_url
from tests.e2e.server_clock import RIG_TIMEOUT, move

PUBLIC_URL = "https://pound.example.org"
TOKEN = "twilio-test-auth-token"
SID = "AC" + "0" * 32
FROM = "+14155550100"
WHATSAPP_FROM = "whatsapp:+14155550100"
KEEPER_PHONE = "+919847000010"
LINK_SECRET = "test-link-secret"  # signs the printable notice and photo links
#: The server's SMS, as fast as the fake takes them: a test asserts what is sent, not the
#: configured pace of one a second (``[reminders] sms_per_second``), which would make
#: six answers take five seconds.
SMS_PER_SECOND = 1000.0
OFFICER_PHONE = "+919847000020"


@dataclass
class SmsRig:
    """What a test talks to."""

    http: httpx.AsyncClient
    app: App
    clock: FixedClock
    twilio: FakeTwilio
    twilio_url: str
    settings: Settings
    server: Starlette

    @property
    def sweep(self) -> Any:
        """The running SMS sweep (``bot.channels.sms.sweep.SmsSweep``)."""
        return self.server.state.sms_sweep

    async def set_clock(self, when: datetime) -> None:
        """Move the clock to ``when``, the server's heartbeat with it (``server_clock``)."""
        await move(self.clock, self.app, self.server, when)

    async def advance_clock(self, **delta: float) -> None:
        """Move the clock on by ``delta``, the server's heartbeat with it."""
        await move(self.clock, self.app, self.server, **delta)

    def sign(self, path: str, params: Mapping[str, str], url: str | None = None) -> str:
        validator = RequestValidator(TOKEN)
        return str(validator.compute_signature(url or PUBLIC_URL + path, dict(params)))

    async def post(
        self, path: str, params: Mapping[str, str], *, signature: str | None = None
    ) -> httpx.Response:
        headers = {
            "X-Twilio-Signature": signature if signature is not None else self.sign(path, params)
        }
        return await self.http.post(path, data=dict(params), headers=headers)

    async def whatsapp(self, sender: str, body: str, sid: str) -> httpx.Response:
        """A WhatsApp message from the number ``sender`` (``+91…``), as Twilio posts it."""
        return await self.post(
            "/twilio/sms",
            {
                "MessageSid": sid,
                "SmsMessageSid": sid,
                "From": f"whatsapp:{sender}",
                "To": WHATSAPP_FROM,
                "Body": body,
                "NumMedia": "0",
                "ProfileName": "Kunhammed",
                "WaId": sender.lstrip("+"),
                "MessageType": "text",
                "AccountSid": SID,
            },
        )

    async def mms(
        self,
        sender: str,
        body: str,
        sid: str,
        media: Sequence[tuple[bytes, str]],
        *,
        drip: Sequence[int] = (),
    ) -> httpx.Response:
        """A message with pictures: each (bytes, declared Content-Type) served by the fake
        Twilio API behind the account's credentials, named in ``MediaUrl<n>``; those at
        the places ``drip`` names (from 0) served a few bytes at a time."""
        params = {
            "MessageSid": sid,
            "From": sender,
            "To": FROM,
            "Body": body,
            "FromCity": "",
            "NumMedia": str(len(media)),
            "AccountSid": SID,
        }
        for n, (data, content_type) in enumerate(media):
            path = self.twilio.add_media(SID, sid, n, data, content_type, drip=n in drip)
            params[f"MediaUrl{n}"] = self.twilio_url + path
            params[f"MediaContentType{n}"] = content_type
        return await self.post("/twilio/sms", params)

    async def sms(self, sender: str, body: str, sid: str) -> httpx.Response:
        return await self.post(
            "/twilio/sms",
            {
                "MessageSid": sid,
                "From": sender,
                "To": FROM,
                "Body": body,
                "FromCity": "",
                "NumMedia": "0",
                "AccountSid": SID,
            },
        )


@asynccontextmanager
async def sms_rig(
    tmp_path: Path,
    url: str | None = None,
    *,
    wait_budget: float = DEFAULT_BUDGET,
    stored: Sequence[Inbound] = (),
    metrics_token: str = "",
    whatsapp_templates: Mapping[str, Mapping[str, str]] | None = None,
    whatsapp: bool = True,
    dlt: DltPolicy | None = None,
    limits: SenderLimits | None = None,
) -> AsyncIterator[SmsRig]:
    """poundbot under uvicorn on loopback, SMS on, its Twilio API faked on loopback too;
    on a new SQLite file, or on ``url`` (a migrated database); ``stored`` messages are in
    the inbox, never acted on, from five minutes before it starts (as a killed instance
    leaves them); ``dlt`` is the configuration's ``[dlt]``. WhatsApp is on too
    (``WHATSAPP_FROM``) unless ``whatsapp`` is False, with ``whatsapp_templates`` as the
    configuration's ``[whatsapp.templates]``."""
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    twilio = FakeTwilio(account=(SID, TOKEN))
    url = url or migrated_url(tmp_path / "sms.sqlite3")
    async with serve(twilio.app()) as twilio_url:
        settings = Settings(
            public_url=PUBLIC_URL,
            twilio_sid=SID,
            twilio_token=TOKEN,
            twilio_from=FROM,
            twilio_whatsapp_from=WHATSAPP_FROM if whatsapp else "",
            twilio_api_url=twilio_url,
            wait_budget=wait_budget,
            metrics_token=metrics_token,
            link_secret=LINK_SECRET,
        )
        config = load()
        config = config._replace(reminders=config.reminders._replace(sms_per_second=SMS_PER_SECOND))
        if whatsapp_templates is not None:
            config = config._replace(whatsapp_templates=whatsapp_templates)
        if dlt is not None:
            config = config._replace(dlt=dlt)
        if limits is not None:
            config = config._replace(limits=limits)
        async with (
            open_app(url=url, clock=clock, config=config) as setup,
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
        if stored:
            clock.advance(minutes=-5)
            async with open_app(url=url, clock=clock) as setup:
                for message in stored:
                    await store_inbound(setup.store, message)
            clock.advance(minutes=5)
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
            yield SmsRig(http, holder["app"], clock, twilio, twilio_url, settings, poundbot)


async def deliver_sms(rig: SmsRig, sender: Sender, count: int, seconds: float = 10.0) -> None:
    """Deliver the queued SMS until the fake Twilio API has ``count`` (bounded wait).

    The server's own delivery loop runs too and may send a message first; either way
    each message reaches the fake once, which is what the tests assert."""
    for _ in range(int(seconds / 0.05)):
        await deliver_once(rig.app.store, {"sms": sender}, "test", gate=rig.app.gate)
        if len(rig.twilio.messages) >= count:
            return
        await asyncio.sleep(0.05)


async def followup(rig: SmsRig, sid: str, seconds: float = 60.0) -> str:
    """The follow-up of message ``sid``'s pictures once they are fetched (its SMS, one a
    line, joined by newlines; bounded wait): the server's ``MediaFetcher`` does it."""
    from sqlalchemy import select

    from bot.store.models import MediaFetch, OutboxRow

    key = f"mms-photos:{sid}"
    for _ in range(int(seconds / 0.05)):
        async with rig.app.store.transaction() as tx:
            status = await tx.session.scalar(select(MediaFetch.status).where(MediaFetch.key == key))
            if status == "done":
                rows = await tx.session.execute(
                    select(OutboxRow.body)
                    .where(
                        (OutboxRow.idempotency_key == key)
                        | OutboxRow.idempotency_key.like(f"{key}:%")
                    )
                    .order_by(OutboxRow.id)
                )
                return "\n".join(rows.scalars())
        await asyncio.sleep(0.05)
    raise AssertionError(f"the pictures of {sid} were not fetched within {seconds} s")
