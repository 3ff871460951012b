"""Pictures sent with an MMS or a WhatsApp message (Twilio's ``NumMedia``, ``MediaUrl0``…).

Twilio posts the media as URLs on its API, readable with the account's credentials
(HTTP basic auth: account SID and auth token). A download can be slow past any per-read
timeout (a server that drips a few bytes at a time never trips one), so a message is
never kept waiting for its pictures:

1. The message is stored and acted on as any SMS, and answered within the wait budget.
   When a keeper's message names a case for its pictures (``PHOTO KNM-17 [lot]``, or
   the case its SEIZE just recorded), the same transaction records a fetch job
   (``media_fetches``, keyed ``mms-photos:<MessageSid>``) with the media URLs, and the
   answer says that the pictures follow. The crash sweep acts on a stored message the
   same way: the URLs are in the stored message (``inbox.raw``).
2. ``MediaFetcher`` (one per running poundbot) claims each job under a lease (an
   instance id and an expiry; a job of an instance whose heartbeat stopped is taken over
   at once, ``bot.store.instances``) and fetches its pictures outside any transaction:
   each within ``FETCH_DEADLINE`` seconds in all, the message's within
   ``MESSAGE_DEADLINE``, a few at a time; each is checked and stripped on the photo
   worker (``bot.adapters.photo_store.prepare``) and written to the photo store.
3. A short transaction attaches them to the case and queues the follow-up (outbox key
   ``mms-photos:<MessageSid>``, then ``…:2``, ``…:3``: one SMS a line, each a DLT
   template): how many were kept, then why each other was not (too large, too many
   pixels, not a photo, not fetched in time). A job done is never done again.

Why it is long: the three steps above are one flow, with its leases and deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

import httpx

from bot.adapters.photo_store import (
    MAX_PIXELS,
    PhotoRefusedError,
    attach,
    keep,
    prepare,
    read_limited,
)
from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import phone_of
from bot.conversation.photos import Incoming, max_mb, message_target
from bot.conversation.reply import Reply
from bot.i18n import translator
from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.keepers import photos as render_photos
from bot.observe.metrics import MEDIA_FETCHED
from bot.services.runtime import App
from bot.store.media_fetches import (
    Claimed,
    add_fetch,
    case_number,
    claim_fetch,
    give_back,
    locked_fetch,
)
from bot.store.media_fetches import done as mark_done
from bot.store.messages import Inbound, enqueue
from bot.store.models import MediaFetch
from bot.store.tx import Tx
from bot.support.caller import KEEPER, Caller
from bot.support.phones import sender_number

__all__ = [
    "FETCH_DEADLINE",
    "MESSAGE_DEADLINE",
    "PICTURES",
    "TWILIO_API",
    "MediaFetcher",
    "TwilioMedia",
    "fetch_key",
    "media_urls",
    "plan_pictures",
]

log = logging.getLogger("poundbot.media")

TWILIO_API: Final = "https://api.twilio.com"
#: At most this many pictures of one message are read (Twilio sends up to 10).
MAX_MEDIA: Final = 10
#: Seconds one picture's download may take in all (connecting, every read, the rest).
FETCH_DEADLINE: Final = 20.0
#: Seconds the downloads of one message's pictures may take in all.
MESSAGE_DEADLINE: Final = 60.0
#: Downloads of one message at a time (each holds at most the photo limit in memory).
PARALLEL: Final = 3
#: A claimed job is held this long (past the message's deadline and the checking of ten
#: pictures); an instance that died holds it only until its heartbeat is missed.
LEASE: Final = timedelta(minutes=3)
#: Claims of one job after which its pictures are given up (told as not kept).
MAX_ATTEMPTS: Final = 5


def media_urls(params: Mapping[str, object]) -> list[str]:
    """``MediaUrl0``… of a Twilio webhook, as many as ``NumMedia`` says (at most 10)."""
    count = str(params.get("NumMedia", "0")).strip()
    n = min(int(count), MAX_MEDIA) if count.isdecimal() else 0
    return [str(params.get(f"MediaUrl{i}", "")) for i in range(n)]


def fetch_key(provider_id: str) -> str:
    """The key of a message's fetch job, and of its follow-up in the outbox."""
    return f"mms-photos:{provider_id}"


@dataclass(frozen=True)
class TwilioMedia:
    """Fetches media with the account's credentials, from the Twilio API only."""

    sid: str
    token: str
    api_url: str = TWILIO_API
    #: Per read (and connect): a server that stops answering.
    timeout: float = 8.0
    #: In all: a server that drips (no single read ever waits ``timeout``).
    deadline: float = FETCH_DEADLINE

    async def fetch(self, url: str, max_bytes: int, deadline: float | None = None) -> bytes:
        """The media's bytes within ``deadline`` seconds in all (the class's unless
        given); PhotoRefusedError ``too_large`` (nothing past the limit is read) or
        ``unreachable`` (an error, or not all of it in time)."""
        base = (self.api_url or TWILIO_API).rstrip("/") + "/"
        if not url.startswith(base):
            raise PhotoRefusedError("unreachable")  # credentials go to Twilio alone
        try:
            async with asyncio.timeout(self.deadline if deadline is None else deadline):
                return await self._get(url, max_bytes)
        except TimeoutError:
            log.info("media not fetched within its deadline")
            raise PhotoRefusedError("unreachable") from None
        except httpx.HTTPError:
            raise PhotoRefusedError("unreachable") from None

    async def _get(self, url: str, max_bytes: int) -> bytes:
        async with (
            httpx.AsyncClient(
                auth=(self.sid, self.token), follow_redirects=True, timeout=self.timeout
            ) as client,
            client.stream("GET", url) as response,
        ):
            if response.status_code != 200:
                raise PhotoRefusedError("unreachable")
            length = response.headers.get("content-length", "")
            if length.isdecimal() and int(length) > max_bytes:
                raise PhotoRefusedError("too_large")
            return await read_limited(response.aiter_bytes(), max_bytes)


async def plan_pictures(
    tx: Tx, app: App, caller: Caller, message: Inbound, after: int, reply: Reply
) -> str:
    """The answer to a message acted on that came with pictures (only a message that was
    answered comes here: past the sender's limit nothing is kept). A keeper's pictures
    for a case are recorded to fetch after the answer (``MediaFetcher``) and the answer
    says so; a PHOTO is answered about its photos alone; anyone else's pictures are not
    kept and the answer is the message's."""
    urls = media_urls(message.raw)
    if not urls or caller.role != KEEPER:
        return reply.text
    tr = translator(reply.lang)
    with rendering_sms(message.channel != WHATSAPP):  # an English SMS in GSM-7
        return await _follow_up(tx, app, caller, message, reply, urls, after, tr)


async def _follow_up(
    tx: Tx,
    app: App,
    caller: Caller,
    message: Inbound,
    reply: Reply,
    urls: list[str],
    after: int,
    tr: Translator,
) -> str:
    """``plan_pictures`` once the message has pictures of a keeper's."""
    target, photo = await message_target(tx, app.deps, caller, message.body, after, tr)
    if isinstance(target, str):
        return target
    recipient = sender_number(phone_of(message.sender), app.config.phone_region)
    if target is None:
        said = render_photos.photo_no_case(tr)
    else:
        job = MediaFetch(
            key=fetch_key(message.provider_id),
            channel=WHATSAPP if message.channel == WHATSAPP else "sms",
            recipient=recipient,
            lang=reply.lang,
            case_id=target.loaded.row.id,
            lot=target.lot,
            added_by=caller.user_id,
            urls=urls,
            status="pending",
            attempts=0,
            created_at=tx.now,
        )
        await add_fetch(tx, job)
        said = render_photos.photos_coming(len(urls), target.loaded.case.number, tr)
    if photo or not reply.text:
        return said
    if app.config.dlt.enforced and message.channel != WHATSAPP:
        # Under DLT each SMS is one registered template: the answer and the word that the
        # pictures follow go as two SMS, never joined into a text no template matches.
        await enqueue(
            tx,
            key=f"{fetch_key(message.provider_id)}:coming",
            channel="sms",
            recipient=recipient,
            body=said,
            purpose="answer",
        )
        return reply.text
    return f"{reply.text}\n{said}"


class MediaFetcher:
    """Fetches the pictures of answered messages (``media_fetches``) and tells the
    keeper; one per running poundbot, any number at once (each job under a lease)."""

    def __init__(
        self,
        app: App,
        fetcher: TwilioMedia,
        name: str,
        *,
        interval: float = 5.0,
        lease: timedelta = LEASE,
        message_deadline: float = MESSAGE_DEADLINE,
        parallel: int = PARALLEL,
    ) -> None:
        self.app, self.fetcher, self.name = app, fetcher, name
        self.interval, self.lease = interval, lease
        self.message_deadline, self.parallel = message_deadline, parallel
        self._wake = asyncio.Event()

    def kick(self) -> None:
        """A job was recorded: look now, not at the next interval."""
        self._wake.set()

    async def once(self) -> int:
        """Do every due job; how many were done."""
        done = 0
        while (job := await self._claim()) is not None:
            try:
                done += await self._work(job)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._give_back(job))
                raise
            except Exception:
                log.exception("media of %s: not fetched now; tried again later", job.key)
                break
        return done

    async def run(self, stop: asyncio.Event) -> None:
        """Fetch at once, then whenever kicked or every ``interval`` s, until ``stop``."""
        while not stop.is_set():
            self._wake.clear()
            try:
                await self.once()
            except Exception:
                log.exception("media fetch pass failed; trying again later")
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait(waits, timeout=self.interval, return_when="FIRST_COMPLETED")
            for waiting in waits:
                waiting.cancel()

    async def _claim(self) -> Claimed | None:
        """One due job, claimed for this instance under the lease (SKIP LOCKED on
        PostgreSQL: two instances never take one)."""
        async with self.app.store.transaction() as tx:
            return await claim_fetch(tx, self.name, self.lease)

    async def _give_back(self, job: Claimed) -> None:
        """Stopped while fetching: the job is due again at once for any instance."""
        async with self.app.store.transaction() as tx:
            await give_back(tx, job.id, self.name)

    async def _fetch_all(self, job: Claimed) -> list[Incoming]:
        """Each picture fetched (outside any transaction), checked and written to the
        photo store, or why not; all within the message's deadline."""
        provider_id = job.key.removeprefix("mms-photos:")
        keys = [f"mms:{provider_id}:{i}" for i in range(len(job.urls))]
        if job.attempts > MAX_ATTEMPTS:  # claimed and never finished: given up
            return [Incoming(key, refused="unreachable") for key in keys]
        loop = asyncio.get_running_loop()
        ends = loop.time() + self.message_deadline
        limit = self.app.deps.max_photo_bytes()
        store = self.app.deps.photo_store()
        gate = asyncio.Semaphore(self.parallel)

        async def one(key: str, url: str) -> Incoming:
            async with gate:
                left = min(self.fetcher.deadline, ends - loop.time())
                try:
                    if left <= 0:
                        raise PhotoRefusedError("unreachable")
                    kept = await prepare(await self.fetcher.fetch(url, limit, left), limit)
                except PhotoRefusedError as refused:
                    log.info("media %s not kept: %s", key, refused.code)
                    return Incoming(key, refused=refused.code)
                await keep(store, kept)  # the files first: a row never names a missing file
                return Incoming(key, kept=kept.ref)

        return list(await asyncio.gather(*(one(k, u) for k, u in zip(keys, job.urls, strict=True))))

    async def _work(self, job: Claimed) -> int:
        """Fetch a claimed job's pictures, then attach them and queue the follow-up in
        one short transaction; 0 if the job is no longer this instance's."""
        pictures = await self._fetch_all(job)
        deps = self.app.deps
        async with self.app.store.transaction() as tx:
            row = await locked_fetch(tx, job.id)
            if row is None or row.status != "pending" or row.claimed_by != self.name:
                log.info("media of %s: taken over by another instance", job.key)
                return 0
            already = 0
            for picture in pictures:
                if picture.kept is not None and not await attach(
                    tx, row.case_id, row.lot, picture.kept, picture.source_key, row.added_by
                ):
                    already += 1
            number = await case_number(tx, row.case_id)
            with rendering_sms(row.channel == "sms"):  # an English SMS in GSM-7
                lines = render_photos.photos_fetched(
                    str(number),
                    [p.refused if p.kept is None else "" for p in pictures],
                    translator(row.lang),
                    max_mb=max_mb(deps),
                    max_megapixels=MAX_PIXELS // 1_000_000,
                    already=already,
                )
            for n, line in enumerate(lines, start=1):
                key = row.key if n == 1 else f"{row.key}:{n}"
                await enqueue(
                    tx,
                    key=key,
                    channel=row.channel,
                    recipient=row.recipient,
                    body=line,
                    purpose="answer",
                )
            mark_done(tx, row)
        kept = sum(1 for p in pictures if p.kept is not None)
        for picture in pictures:
            MEDIA_FETCHED.labels("kept" if picture.kept is not None else picture.refused).inc()
        log.info("media of %s: %d of %d kept", job.key, kept, len(pictures))
        return 1


class _TwilioPictures:
    """The pictures of a Twilio MMS or WhatsApp message (``bot.channels.sms.answer.Pictures``)."""

    def carried(self, raw: Mapping[str, object]) -> bool:
        return bool(media_urls(raw))

    async def plan(
        self, tx: Tx, app: App, caller: Caller, message: Inbound, after: int, reply: Reply
    ) -> str:
        return await plan_pictures(tx, app, caller, message, after, reply)


PICTURES: Final = _TwilioPictures()
