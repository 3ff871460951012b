"""SMS stored but never answered (the process stopped in between, or the database was
held too long): acted on later and answered by an SMS of their own (a WhatsApp
message, stored on the same webhook, by a WhatsApp message).

This holds for every SMS provider (``bot.channels.sms.port``): the messages of all of
them are stored on the channel ``sms``. Twilio does not send a message again, so an SMS
committed to the inbox whose request never got its TwiML answer would be lost. The sweep
takes such messages — at start all received before the start, then every ``interval``
seconds those older than ``min_age`` and those a request handed over — one at a time,
each in one transaction that acts on it, marks it processed and queues its answer to
the outbox (``sms-reply:<provider id>``), sent by the provider's sender like any SMS.

Two instances never both take one: the row is claimed with ``FOR UPDATE SKIP LOCKED``
(PostgreSQL; the lock is the lease, and it ends with the transaction or the dead
instance's connection) or inside SQLite's single writer; the transaction checks that
the message is still unprocessed, as a live request does, so a request and a sweep
never both answer one either.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import phone_of
from bot.channels.sms.answer import CHANNEL, Pictures, locked, mark_failed, reply_key, sms_handler
from bot.channels.sms.missed_call import CHANNEL as CALL
from bot.channels.sms.missed_call import call_handler
from bot.i18n import render, reply_language, translator
from bot.services.runtime import App
from bot.store import inbox
from bot.store.faults import database_trouble
from bot.store.messages import Inbound, enqueue
from bot.store.tx import Tx
from bot.support.phones import sender_number

#: The channels of the messages the sweep answers: SMS and WhatsApp (same webhook), and
#: missed calls (``bot.channels.sms.missed_call``: answered by SMS).
CHANNELS = (CHANNEL, WHATSAPP, CALL)

__all__ = ["MIN_AGE", "SmsSweep"]

log = logging.getLogger("poundbot.sms")

#: A message this old and still unprocessed has no live request left (the wait budget
#: of one is seconds).
MIN_AGE = timedelta(minutes=1)


class SmsSweep:
    """Answers stored, unprocessed SMS; one per running poundbot with SMS on."""

    def __init__(
        self,
        app: App,
        *,
        min_age: timedelta = MIN_AGE,
        interval: float = 15.0,
        limit: int = 500,
        pictures: Pictures | None = None,
    ) -> None:
        self.app, self.min_age, self.interval, self.limit = app, min_age, interval, limit
        #: What the provider that stored a message does with its pictures (Twilio's).
        self.pictures = pictures
        self.started: datetime = app.store.clock.now()
        self._handed: set[str] = set()
        self._wake = asyncio.Event()

    def hand_over(self, provider_id: str) -> None:
        """A request stored this message but cannot answer it: answer it soon."""
        self._handed.add(provider_id)
        self._wake.set()

    async def once(self) -> int:
        """One pass: answer every due message (at most ``limit``); returns how many."""
        cutoff = max(self.started, self.app.store.clock.now() - self.min_age)
        handed, self._handed = self._handed, set()
        tried: set[int] = set()
        answered = 0
        while len(tried) < self.limit:
            try:
                done = await self._answer_one(cutoff, handed, tried)
            except Exception:
                log.exception("SMS sweep: a pass failed; trying again later")
                self._handed |= handed
                break
            if done is None:
                break
            answered += done
        if answered:
            log.info("SMS sweep: answered %d stored message(s) by SMS", answered)
        return answered

    async def _answer_one(self, cutoff: datetime, handed: set[str], tried: set[int]) -> bool | None:
        """Take one due message, act on it, queue its answer: True; False if the database
        failed meanwhile (the message waits for the next pass); None when none is left."""
        store = self.app.store
        message: Inbound | None = None
        try:
            async with store.transaction() as tx:
                found = await inbox.next_unanswered(tx, CHANNELS, cutoff, handed, tried)
                if found is None:
                    return None
                row_id, provider_id, sender = found.id, found.provider_id, found.sender
                body, channel, raw = found.body, found.channel, found.raw
                tried.add(row_id)
                # The stored message whole: an MMS keeps its media URLs (its pictures are
                # fetched after, as a live request's are: ``bot.channels.twilio.media``).
                message = Inbound(
                    channel, provider_id, sender, body, raw if isinstance(raw, dict) else {}
                )
                handler = (
                    call_handler(self.app, sender)
                    if channel == CALL
                    else sms_handler(self.app, message, self.pictures)
                )
                reply = await handler(tx)
                await inbox.mark_processed(tx, row_id, reply)
                await self._answer(tx, message, reply)
            return True
        except Exception as exc:
            if message is None:
                raise
            if database_trouble(exc) or locked(exc):
                # The database's trouble, not the message's: the next pass tries again.
                log.warning(
                    "SMS sweep: message %s not acted on now (%s): next pass",
                    message.provider_id,
                    type(exc).__name__,
                )
                if message.provider_id in handed:
                    self._handed.add(message.provider_id)
                return False
            log.exception("SMS sweep: message %s could not be acted on", message.provider_id)
            again = render.try_again_later(translator(reply_language(text=message.body)))
            async with store.transaction() as tx:
                if await mark_failed(tx, message.provider_id, again, message.channel):
                    await self._answer(tx, message, again)
            return True

    async def _answer(self, tx: Tx, message: Inbound, reply: str) -> None:
        # As every provider's answers go: to the number in E.164 (Exotel writes
        # ``09847…``, Mobile Seva ``9847…``).
        if reply:
            await enqueue(
                tx,
                key=reply_key(message.provider_id),
                channel=WHATSAPP if message.channel == WHATSAPP else CHANNEL,
                recipient=sender_number(phone_of(message.sender), self.app.config.phone_region),
                body=reply,
                purpose="answer",
                case=tx.about_case,
            )

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep at once, then every ``interval`` seconds or when a request hands a
        message over, until ``stop`` is set."""
        while not stop.is_set():
            self._wake.clear()
            await self.once()
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait(waits, timeout=self.interval, return_when="FIRST_COMPLETED")
            for waiting in waits:
                waiting.cancel()
