"""The pictures an MMS or a WhatsApp message carries (Twilio's ``NumMedia``,
``MediaUrl0``…), in the transaction that acts on the message (``PICTURES``, the
``bot.channels.sms.answer.Pictures`` of Twilio).

When a keeper's message names a case for its pictures (``PHOTO KNM-17 [lot]``, or the
case its SEIZE just recorded), the transaction records a fetch job (``media_fetches``,
keyed ``mms-photos:<MessageSid>``) with the media URLs, and the answer says that the
pictures follow; ``bot.channels.twilio.media`` fetches them after the answer. The crash
sweep acts on a stored message the same way: the URLs are in the stored message
(``inbox.raw``). Anyone else's pictures are not kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import phone_of
from bot.conversation.photos import message_target
from bot.conversation.reply import Reply
from bot.i18n import translator
from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.keepers import photos as render_photos
from bot.services.runtime import App
from bot.store.media_fetches import add_fetch
from bot.store.messages import Inbound, enqueue
from bot.store.models import MediaFetch
from bot.store.tx import Tx
from bot.support.caller import KEEPER, Caller
from bot.support.phones import sender_number

__all__ = ["MAX_MEDIA", "PICTURES", "fetch_key", "media_urls", "plan_pictures"]

#: At most this many pictures of one message are read (Twilio sends up to 10).
MAX_MEDIA: Final = 10


def media_urls(params: Mapping[str, object]) -> list[str]:
    """``MediaUrl0``… of a Twilio webhook, as many as ``NumMedia`` says (at most 10)."""
    count = str(params.get("NumMedia", "0")).strip()
    n = min(int(count), MAX_MEDIA) if count.isdecimal() else 0
    return [str(params.get(f"MediaUrl{i}", "")) for i in range(n)]


def fetch_key(provider_id: str) -> str:
    """The key of a message's fetch job, and of its follow-up in the outbox."""
    return f"mms-photos:{provider_id}"


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


class _TwilioPictures:
    """The pictures of a Twilio MMS or WhatsApp message (``bot.channels.sms.answer.Pictures``)."""

    def carried(self, raw: Mapping[str, object]) -> bool:
        return bool(media_urls(raw))

    async def plan(
        self, tx: Tx, app: App, caller: Caller, message: Inbound, after: int, reply: Reply
    ) -> str:
        return await plan_pictures(tx, app, caller, message, after, reply)


PICTURES: Final = _TwilioPictures()
