"""Pictures sent with an MMS or a WhatsApp message, fetched after the message is
answered (recorded to fetch by ``bot.channels.twilio.pictures``).

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

Step 1 is ``bot.channels.twilio.pictures``; steps 2 and 3 are here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
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
from bot.conversation.photos import Incoming, max_mb
from bot.i18n import translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.keepers import photos as render_photos
from bot.observe.metrics import MEDIA_FETCHED
from bot.services.runtime import App
from bot.store.media_fetches import (
    Claimed,
    case_number,
    claim_fetch,
    give_back,
    locked_fetch,
)
from bot.store.media_fetches import done as mark_done
from bot.store.messages import enqueue

__all__ = [
    "FETCH_DEADLINE",
    "MESSAGE_DEADLINE",
    "TWILIO_API",
    "MediaFetcher",
    "TwilioMedia",
]

log = logging.getLogger("poundbot.media")

TWILIO_API: Final = "https://api.twilio.com"
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
