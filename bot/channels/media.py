"""Pictures sent with an MMS or a WhatsApp message (Twilio's ``NumMedia``, ``MediaUrl0``…).

Twilio posts the media as URLs on its API, readable with the account's credentials
(HTTP basic auth: account SID and auth token). Once the message is stored, each picture
of a keeper is fetched — only from the Twilio API, never past the size limit — checked and
stripped (``bot.photos``), all before the message's transaction; the handler then
attaches them with the step, writing their files (``bot.photo_intake``). A message already
acted on (a redelivered webhook) is not fetched again: it keeps its first answer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import httpx
from sqlalchemy import select

from bot.bootstrap import App
from bot.caller import KEEPER, Caller
from bot.channels.identity import caller_for_phone
from bot.dispatch import Reply
from bot.i18n import translator
from bot.photo_intake import Incoming, keep_with_message
from bot.photos import PhotoRefusedError, prepare, read_limited
from bot.services.base import Deps
from bot.store.messages import Inbound
from bot.store.models import InboxRow
from bot.store.tx import Tx
from bot.whatsapp import phone_of

__all__ = ["TWILIO_API", "TwilioMedia", "attach_pictures", "media_urls", "pictures_of"]

log = logging.getLogger("poundbot.media")

TWILIO_API: Final = "https://api.twilio.com"
#: At most this many pictures of one message are read (Twilio sends up to 10).
MAX_MEDIA: Final = 10


def media_urls(params: Mapping[str, str]) -> list[str]:
    """``MediaUrl0``… of a Twilio webhook, as many as ``NumMedia`` says (at most 10)."""
    count = params.get("NumMedia", "0").strip()
    n = min(int(count), MAX_MEDIA) if count.isdigit() else 0
    return [params.get(f"MediaUrl{i}", "") for i in range(n)]


@dataclass(frozen=True)
class TwilioMedia:
    """Fetches media with the account's credentials, from the Twilio API only."""

    sid: str
    token: str
    api_url: str = TWILIO_API
    timeout: float = 8.0

    async def fetch(self, url: str, max_bytes: int) -> bytes:
        """The media's bytes; PhotoRefusedError ``too_large`` (nothing past the limit is
        read) or ``unreachable``."""
        base = (self.api_url or TWILIO_API).rstrip("/") + "/"
        if not url.startswith(base):
            raise PhotoRefusedError("unreachable")  # credentials go to Twilio alone
        try:
            async with (
                httpx.AsyncClient(
                    auth=(self.sid, self.token), follow_redirects=True, timeout=self.timeout
                ) as client,
                client.stream("GET", url) as response,
            ):
                if response.status_code != 200:
                    raise PhotoRefusedError("unreachable")
                length = response.headers.get("content-length", "")
                if length.isdigit() and int(length) > max_bytes:
                    raise PhotoRefusedError("too_large")
                return await read_limited(response.aiter_bytes(), max_bytes)
        except httpx.HTTPError:
            raise PhotoRefusedError("unreachable") from None


async def _worth_fetching(app: App, message: Inbound) -> bool:
    """Only a keeper's pictures are kept, and a message acted on already (a redelivered
    webhook) keeps its first answer: nothing else is downloaded."""
    async with app.store.transaction() as tx:
        done = await tx.session.scalar(
            select(InboxRow.processed_at).where(
                InboxRow.channel == message.channel, InboxRow.provider_id == message.provider_id
            )
        )
        if done is not None:
            return False
        caller = await caller_for_phone(
            tx, phone_of(message.sender), region=app.config.phone_region
        )
    return caller.role == KEEPER


async def _incoming(app: App, fetcher: TwilioMedia, message: Inbound) -> list[Incoming]:
    """Each picture fetched, checked and written to the photo store (or why not)."""
    pictures = []
    limit = app.deps.max_photo_bytes()
    for i, url in enumerate(media_urls(message.raw)):
        key = f"mms:{message.provider_id}:{i}"
        try:
            kept = await prepare(await fetcher.fetch(url, limit), limit)
        except PhotoRefusedError as refused:
            log.info("media %d of %s not kept: %s", i, message.provider_id, refused.code)
            pictures.append(Incoming(key, refused=refused.code))
            continue
        pictures.append(Incoming.of(key, kept))
    return pictures


async def pictures_of(
    app: App, fetcher: TwilioMedia | None, message: Inbound
) -> list[Incoming] | None:
    """The message's pictures, fetched and checked (before its transaction), or None when
    none are to be kept: no fetcher, no media, not a keeper's, or acted on already."""
    if fetcher is None or not media_urls(message.raw) or not await _worth_fetching(app, message):
        return None
    return await _incoming(app, fetcher, message)


async def attach_pictures(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    body: str,
    pictures: list[Incoming],
    after: int,
    reply: Reply,
) -> str:
    """The answer to a message acted on, with its pictures attached to the case it named
    (in its transaction, in the reply's language) and said so; only a message that was
    answered comes here (past the sender's limit, nothing is kept)."""
    said, instead = await keep_with_message(
        tx, deps, caller, body, pictures, after, translator(reply.lang)
    )
    if instead:
        return said
    return f"{reply.text}\n{said}" if said else reply.text
