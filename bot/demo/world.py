"""The demo's world: a temporary SQLite database, a simulated clock, the Telegram Bot API
and the Twilio REST API faked on loopback (and Exotel's or Mobile Seva's SMS API, when
the demo's SMS goes through them), and poundbot's own app (``build_app``, as ``poundbot
serve`` builds it) served on loopback with both channels on.

People reach poundbot as they would in production: a Telegram update is POSTed to
``/telegram`` with the webhook's secret header; an SMS is POSTed to ``/twilio/sms``
signed with Twilio's ``RequestValidator`` (``--sms twilio``), or sent as Exotel sends an
SMS to the ExoPhone (``/exotel/sms/<secret>``) or Mobile Seva forwards a pull SMS
(``/mseva/pull/<secret>``, with the keyword); WhatsApp always goes through Twilio.
Replies leave through the outbox: Telegram through the real PTB bot to the fake Bot API,
SMS through the provider's real client to its fake API (with Exotel and Mobile Seva the
answer to an SMS is a push SMS of its own, carrying the DLT ids). Time moves only when
the story moves the clock; each morning it passes through, the reminder pass the server
runs is run and the outbox delivered.

Why it is long: the demo's whole world: the fakes, the channels and the people, wired as
the server wires them.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Final
from xml.etree import ElementTree

import httpx
from starlette.applications import Starlette
from twilio.request_validator import RequestValidator

from bot.adapters.outbox import Sender, deliver_once
from bot.adapters.photo_store import FsPhotoStore
from bot.bootstrap import open_app
from bot.channels.sms.providers import sms_sender
from bot.channels.telegram.webhook import SECRET_HEADER, TelegramChannel, TelegramOptions
from bot.channels.twilio.sender import TwilioSender
from bot.channels.twilio.whatsapp_sender import WhatsAppSender
from bot.config import Config, load_config, sample_config_path
from bot.config.settings import Settings
from bot.demo.checks import DemoFailed
from bot.demo.phrases import Phrases
from bot.demo.transcript import Transcript
from bot.entry.app import build_app
from bot.fakes import loopback
from bot.fakes.exotel_api import FakeExotel
from bot.fakes.mseva_api import FakeMseva
from bot.fakes.telegram_api import BOT_USERNAME, TOKEN, Call, FakeTelegram, TelegramUser, Updates
from bot.fakes.twilio_api import FakeTwilio
from bot.reminders.dispatch import remind_once
from bot.services.runtime import App
from bot.store import outbox
from bot.store.instances import beat, worker_id
from bot.store.reminder_jobs import leased_unfinished, pass_has_work
from bot.support.clock import FixedClock
from bot.support.dlt import DltRefusal, DltStamp, registry
from domain.calendar import LOCAL_TZ
from domain.deadlines import DeadlineKind

__all__ = ["DEMO_STAMP", "OWNER_PHONE", "SMS_PROVIDERS", "START", "World", "running"]

START: Final = datetime(2026, 3, 1, 9, 0, tzinfo=LOCAL_TZ)
OWNER_PHONE: Final = "+919847099999"
_SECRET: Final = "demo-webhook-secret"
_TWILIO_SID: Final = "AC" + "d" * 32
_TWILIO_TOKEN: Final = "demo-twilio-auth-token"
_TWILIO_FROM: Final = "+15005550006"
_WHATSAPP_FROM: Final = "whatsapp:+15005550006"
_WAIT: Final = 20.0  # seconds any delivery may take before the demo calls it stuck
#: The SMS providers the demo can run its SMS on (``poundbot demo --sms``).
SMS_PROVIDERS: Final = ("twilio", "exotel", "mseva")
_WEBHOOK_SECRET: Final = "demo-webhook-secret-of-at-least-32-chars"
_EXOTEL: Final = ("demo-exotel-sid", "demo-exotel-key", "demo-exotel-token")
_EXOPHONE: Final = "08047091234"
_MSEVA: Final = ("demodept01", "demo-pass", "demo-secure-key")
_MSEVA_SENDER: Final = "KLPOUND"
_KEYWORD: Final = "KL POUND"
#: The DLT ids every demo SMS carries through Exotel or Mobile Seva.
DEMO_STAMP: Final = DltStamp("1201160000000012345", "1207160000000067890")


@dataclass
class World:
    """What the story talks to."""

    phrases: Phrases
    clock: FixedClock
    transcript: Transcript
    poundbot: Starlette
    http: httpx.AsyncClient
    telegram: FakeTelegram
    twilio: FakeTwilio
    sms_sender: Sender
    #: Twilio's sender, for WhatsApp (and SMS with ``--sms twilio``).
    twilio_sender: TwilioSender
    public_url: str
    people: dict[str, TelegramUser]
    updates: Updates
    #: The SMS provider (``SMS_PROVIDERS``) and the fakes of the Indian ones.
    provider: str = "twilio"
    exotel: FakeExotel | None = None
    mseva: FakeMseva | None = None
    #: The reminders the story expects so far: (queued at, role, deadline, day, case).
    expected_reminders: list[tuple[str, str, DeadlineKind, date, str]] = field(default_factory=list)
    _sids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def app(self) -> App:
        app: App = self.poundbot.state.poundbot
        return app

    @property
    def channel(self) -> TelegramChannel:
        channel: TelegramChannel = self.poundbot.state.telegram
        return channel

    # -- people writing -------------------------------------------------------------

    async def tell(self, role: str, text: str) -> list[Call]:
        """``role`` types ``text`` in Telegram; the Bot API calls of the replies."""
        self.transcript.said(role, text)
        return await self._post(self.updates.text(self.people[role], text))

    async def press(self, role: str, on: Call, data: str) -> list[Call]:
        """``role`` presses the button ``data`` under the message ``on``."""
        labels = {d: label for label, d in on.buttons}
        if data not in labels:
            raise DemoFailed(f"(Telegram): no button {data!r} under: {on.text[:80]!r}")
        self.transcript.said(role, f"[{labels[data]}]")
        return await self._post(self.updates.button(self.people[role], on, data))

    async def photo(self, role: str, file_id: str, data: bytes) -> list[Call]:
        """``role`` sends a photo (``data``, kept by the fake Bot API as ``file_id``)."""
        self.transcript.said(role, "[photo]")
        self.telegram.add_file(file_id, data)
        return await self._post(self.updates.photo(self.people[role], file_id))

    async def _post(self, update: dict[str, object]) -> list[Call]:
        before = len(self.telegram.calls)
        response = await self.http.post("/telegram", json=update, headers={SECRET_HEADER: _SECRET})
        if response.status_code != 200:
            raise DemoFailed(f"(Telegram): the webhook answered {response.status_code}")
        await self.deliver()
        return self.telegram.calls[before:]

    async def text(self, role: str, phone: str, body: str, *, whatsapp: bool = False) -> str:
        """``role`` sends an SMS (or a WhatsApp message) from ``phone``; poundbot's reply
        (TwiML through Twilio; the push SMS that answers it through Exotel or Mobile Seva)."""
        if not whatsapp and self.provider != "twilio":
            return await self._push_text(role, phone, body)
        self.transcript.said(role, body)
        params = {
            "MessageSid": f"SM{next(self._sids):032d}",
            "AccountSid": _TWILIO_SID,
            "From": f"whatsapp:{phone}" if whatsapp else phone,
            "To": _WHATSAPP_FROM if whatsapp else _TWILIO_FROM,
            "Body": body,
            "NumMedia": "0",
        }
        url = self.public_url + "/twilio/sms"
        signature = RequestValidator(_TWILIO_TOKEN).compute_signature(url, params)
        response = await self.http.post(
            "/twilio/sms", data=params, headers={"X-Twilio-Signature": signature}
        )
        if response.status_code != 200:
            raise DemoFailed(f"(SMS): the webhook answered {response.status_code}")
        found = ElementTree.fromstring(response.text).find("Message")
        reply = (found.text or "") if found is not None else ""
        self.transcript.told(role, "WhatsApp reply" if whatsapp else "SMS reply", reply)
        await self.deliver()
        return reply

    async def _push_text(self, role: str, phone: str, body: str) -> str:
        """An SMS as Exotel or Mobile Seva brings it; the push SMS that answer it (one, or
        one a part of an answer in parts), each carrying the demo's DLT ids."""
        sent = len(self.sms_messages())
        if self.provider == "exotel":
            self.transcript.said(role, body)
            params = {
                "SmsSid": f"{next(self._sids):032x}",
                "From": "0" + phone.removeprefix("+91"),
                "To": _EXOPHONE,
                "Date": f"{self.clock.now():%Y-%m-%d %H:%M:%S}",
                "Body": body,
            }
            response = await self.http.get(f"/exotel/sms/{_WEBHOOK_SECRET}", params=params)
        else:
            self.transcript.said(role, f"{_KEYWORD} {body}")
            params = {
                "mobileNumber": phone.removeprefix("+91"),
                "timeStamp": f"{self.clock.now():%Y-%m-%d %H:%M:%S}.{next(self._sids)}",
                "operatorName": "",
                "areaCode": "",
                "message": f"{_KEYWORD} {body}",
            }
            response = await self.http.get(f"/mseva/pull/{_WEBHOOK_SECRET}", params=params)
        if response.status_code != 200:
            raise DemoFailed(f"(SMS): the {self.provider} webhook answered {response.status_code}")
        await self.deliver()
        answers = [m for m in self.sms_messages()[sent:] if m["To"] == phone]
        if not answers:
            raise DemoFailed(f"(SMS): no answer by {self.provider} to {role}'s SMS")
        self.check_stamps(answers)
        return "\n".join(m["Body"] for m in answers)  # an answer in parts: every SMS

    def check_stamps(self, messages: list[dict[str, str]]) -> None:
        """Each SMS carried the DLT ids it should: under the configuration's ``[dlt]``, the
        entity and the id of the template its text matches; else the demo's default."""
        policy = self.app.config.dlt
        for m in messages:
            want = DEMO_STAMP
            if policy.enforced:
                try:
                    _, want = policy.stamp(m["Body"], registry())
                except DltRefusal as exc:
                    raise DemoFailed(f"(SMS): sent though DLT refuses it ({exc})") from None
            if (m["DltEntityId"], m["DltTemplateId"]) != tuple(want):
                raise DemoFailed(
                    f"(SMS): went without its DLT ids {tuple(want)}: "
                    f"{(m['DltEntityId'], m['DltTemplateId'])}"
                )

    def sms_messages(self) -> list[dict[str, str]]:
        """The SMS poundbot sent through the provider in use, each as ``To`` (E.164),
        ``Body`` and the DLT ids it carried (Twilio: none)."""
        if self.provider == "exotel" and self.exotel is not None:
            return [
                {
                    "To": m["To"],
                    "Body": m["Body"],
                    "DltEntityId": m.get("DltEntityId", ""),
                    "DltTemplateId": m.get("DltTemplateId", ""),
                }
                for m in self.exotel.messages
            ]
        if self.provider == "mseva" and self.mseva is not None:
            return [
                {
                    "To": "+" + m["mobileno"],
                    "Body": html.unescape(m["content"]),
                    # Mobile Seva's entity is bound to the account: only the template is sent.
                    "DltEntityId": self.app.config.dlt.entity_id or DEMO_STAMP.entity_id,
                    "DltTemplateId": m.get("templateid", ""),
                }
                for m in self.mseva.messages
            ]
        return [m for m in self.twilio.messages if not m.get("To", "").startswith("whatsapp:")]

    # -- time and the outbox ----------------------------------------------------------

    async def deliver(self) -> None:
        """Deliver what is due in the outbox, then print what reached the fake APIs."""
        self.channel.delivery.kick()
        try:
            async with asyncio.timeout(_WAIT):
                await self.channel.delivery.drained()
        except TimeoutError:
            raise DemoFailed(f"(Telegram): replies undelivered after {_WAIT:.0f} s") from None

        async def sms_left() -> int:
            whatsapp = WhatsAppSender(self.twilio_sender, self.app.store, _WHATSAPP_FROM)
            senders: dict[str, Sender] = {"sms": self.sms_sender, "whatsapp": whatsapp}
            await deliver_once(
                self.app.store, senders, worker_id(), dlt=self.app.config.dlt, gate=self.app.gate
            )
            return await self._sms_due()

        await _until_none(sms_left, "SMS due and undelivered")
        pushed = self.sms_messages() if self.provider != "twilio" else []
        self.check_stamps(pushed)
        await self._none_refused()
        self.transcript.catch_up(self.telegram, self.twilio, pushed)

    async def _none_refused(self) -> None:
        """No SMS was held back as DLT refused it (its text no template's, or no id)."""
        async with self.app.store.transaction() as tx:
            refused = await outbox.dlt_refusal(tx)
        if refused is not None:
            raise DemoFailed(f"(SMS): not sent under DLT: {refused}")

    async def _sms_due(self) -> int:
        async with self.app.store.transaction() as tx:
            return await outbox.undelivered(tx, ("sms", "whatsapp"))

    async def remind(self) -> None:
        """The reminder pass ``poundbot serve`` runs, then delivery.

        The server runs the same pass every few seconds on its own: a job it has claimed
        is waited for, so that every reminder is queued before the clock moves on."""
        await remind_once(self.app.store, self.app.config, worker_id())
        await _until_none(self._reminders_claimed, "reminder jobs claimed and unfinished")
        await self.deliver()

    async def _reminders_claimed(self) -> int:
        """Due reminder jobs claimed by a pass that has not finished them."""
        async with self.app.store.transaction() as tx:
            return await leased_unfinished(tx)

    async def until(self, when: datetime) -> None:
        """Move the clock to ``when``, stopping at the reminder time of each day on the way."""
        now = self.clock.now()
        if when < now:
            raise ValueError(f"the story goes back in time: {when} is before {now}")
        at, zone = self.app.config.reminders.reminder_time, self.app.config.reminders.timezone
        day = now.astimezone(zone).date()
        while day <= when.date():
            morning = datetime.combine(day, at, tzinfo=zone)
            if now < morning <= when:
                await self._set_clock(morning)
                if await self._work_this_morning():
                    await self.remind()
            day += timedelta(days=1)
        await self._set_clock(when)
        await self.remind()

    async def _work_this_morning(self) -> bool:
        """Whether the reminder pass and delivery at this time have anything to do: a
        deadline to plan, a reminder job due, a message due (held for this morning, or
        to try again). On the many mornings with none the story goes straight on; the
        server's own pass would find nothing either."""
        async with self.app.store.transaction() as tx:
            if await pass_has_work(tx):
                return True
            return await outbox.undelivered(tx) > 0

    async def _set_clock(self, when: datetime) -> None:
        """Move the clock, the server's too, and write the server's heartbeat at the new
        time at once: until its next beat it would otherwise count as a stopped instance
        (``bot.store.instances``), and an SMS it is sending would be taken over by this
        world's own delivery and sent twice."""
        self.clock.set(when)
        await beat(self.app.store, self.poundbot.state.instance)


async def _until_none(count: Callable[[], Awaitable[int]], what: str) -> None:
    """Return once ``count()`` is 0. The server's own tasks (its reminder pass, its SMS
    delivery) may hold some of the work, and they say when they are done only in the
    database: so it is polled, for at most ``_WAIT`` seconds."""
    try:
        async with asyncio.timeout(_WAIT):
            while True:
                if not await count():
                    return
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise DemoFailed(f"(server): still {what} after {_WAIT:.0f} s") from None


@asynccontextmanager
async def running(
    phrases: Phrases,
    transcript: Transcript,
    clock: FixedClock,
    sms: str = "twilio",
    config: Config | None = None,
) -> AsyncIterator[World]:
    """The world, for the length of the story, its SMS through ``sms`` (a provider of
    ``SMS_PROVIDERS``); everything stopped and deleted after."""
    # The embedded defaults, whatever the env (or the configuration given: a test's [dlt]).
    config = config or load_config(sample_config_path())
    async with AsyncExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="poundbot-demo-"))
        url = f"sqlite+aiosqlite:///{Path(folder) / 'demo.sqlite3'}"
        telegram, twilio = FakeTelegram(), FakeTwilio()
        telegram_url = await stack.enter_async_context(loopback.serve(telegram.app()))
        stack.callback(telegram.close)
        twilio_url = await stack.enter_async_context(loopback.serve(twilio.app()))
        exotel, mseva = FakeExotel(_EXOTEL), FakeMseva(*_MSEVA)
        exotel_url = await stack.enter_async_context(loopback.serve(exotel.app()))
        mseva_url = await stack.enter_async_context(loopback.serve(mseva.app()))
        sock = loopback.bind()  # poundbot's own address, known before it starts
        public_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        settings = Settings(
            public_url=public_url,
            telegram_token=TOKEN,
            telegram_secret=_SECRET,
            telegram_api_url=f"{telegram_url}/bot",
            telegram_username=BOT_USERNAME,
            twilio_sid=_TWILIO_SID,
            twilio_token=_TWILIO_TOKEN,
            twilio_from=_TWILIO_FROM,
            twilio_whatsapp_from=_WHATSAPP_FROM,
            twilio_api_url=twilio_url,
            sms_provider=sms,
            webhook_secret=_WEBHOOK_SECRET,
            exotel_account_sid=_EXOTEL[0],
            exotel_api_key=_EXOTEL[1],
            exotel_api_token=_EXOTEL[2],
            exotel_subdomain="api.in.exotel.com",
            exotel_from=_EXOPHONE,
            exotel_api_url=exotel_url,
            mseva_username=_MSEVA[0],
            mseva_password=_MSEVA[1],
            mseva_secure_key=_MSEVA[2],
            mseva_sender_id=_MSEVA_SENDER,
            mseva_keyword=_KEYWORD,
            mseva_api_url=f"{mseva_url}/esms/sendsmsrequestDLT",
            dlt_default=DEMO_STAMP,
        )
        # Simulated time: no pause of a second between two messages to one chat.
        options = TelegramOptions(chat_interval=0, rate_limit=False)
        photos = FsPhotoStore(Path(folder) / "photos")  # gone with the story too

        @asynccontextmanager
        async def factory() -> AsyncIterator[App]:
            async with open_app(config=config, url=url, clock=clock) as app:
                app.deps = replace(app.deps, photos=photos)
                yield app

        poundbot = build_app(factory, settings, options)
        base = await stack.enter_async_context(loopback.serve(poundbot, sock))
        http = await stack.enter_async_context(httpx.AsyncClient(base_url=base))
        twilio_sender = await stack.enter_async_context(
            TwilioSender(
                _TWILIO_SID,
                _TWILIO_TOKEN,
                _TWILIO_FROM,
                api_url=twilio_url,
                status_callback=f"{public_url}/twilio/status",
            )
        )
        sender: Sender = (
            twilio_sender
            if sms == "twilio"
            else await stack.enter_async_context(sms_sender(settings))
        )
        people = {
            "KEEPER": TelegramUser(1001, phrases.keeper, phrases.lang),
            "OFFICER": TelegramUser(2001, phrases.officer, phrases.lang),
        }
        transcript.chats.update({user.id: role for role, user in people.items()})
        transcript.phones[OWNER_PHONE] = "OWNER"
        yield World(
            phrases,
            clock,
            transcript,
            poundbot,
            http,
            telegram,
            twilio,
            sender,
            twilio_sender,
            public_url,
            people,
            Updates(),
            provider=sms,
            exotel=exotel,
            mseva=mseva,
        )
