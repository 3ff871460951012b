"""The answer to an SMS, whichever provider brought it: acting on it (the sender's
role, their limit of answers, STOP, the words), its answer queued once, a failure
marked, and the DLT check of an answer sent at once.

A provider's webhook (``bot.channels.twilio``, ``bot.channels.exotel``,
``bot.channels.mseva``) reads and checks its requests; what is done with the message it
carries is done here, the same for all, and by the sweep of SMS left unanswered.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import nullcontext
from typing import Protocol

from bot.adapters.outbox import refusal_label
from bot.adapters.send_gate import ANSWER, Outgoing
from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import note_inbound, phone_of
from bot.channels.identity import sender_of
from bot.channels.limits import admit
from bot.conversation.commands import ParseError, parse
from bot.conversation.photos import last_event_id
from bot.conversation.reply import Reply, handle_text, language_for
from bot.i18n import render, reply_language, translator
from bot.i18n.public.sms_fit import one_text
from bot.i18n.sms_keyword import without_keyword
from bot.observe.metrics import OUTBOX_DLT_REFUSED, OUTBOX_DROPPED, OUTBOX_FAILED
from bot.services.runtime import App
from bot.store import inbox
from bot.store.faults import sqlite_locked
from bot.store.messages import Handler, Inbound, enqueue
from bot.store.tx import Tx
from bot.support import budget
from bot.support.caller import Caller
from bot.support.dlt import DltRefusal, registry
from bot.support.phones import sender_number

__all__ = [
    "CHANNEL",
    "Pictures",
    "answer_at_once",
    "answer_by_push",
    "by_push",
    "dlt_checked",
    "locked",
    "mark_failed",
    "queue_answer",
    "reply_key",
    "send_again",
    "sender_number_of",
    "sms_handler",
]


class Pictures(Protocol):
    """What a provider that carries pictures with a message does with them."""

    def carried(self, raw: Mapping[str, object]) -> bool:
        """Whether the stored message ``raw`` came with pictures."""
        ...

    async def plan(
        self, tx: Tx, app: App, caller: Caller, message: Inbound, after: int, reply: Reply
    ) -> str:
        """The answer to a message with pictures, those to be kept recorded to fetch."""
        ...


CHANNEL = "sms"

log = logging.getLogger("poundbot.sms")


def _is_stop(app: App, body: str) -> bool:
    """Whether ``body`` is STOP (in any language)."""
    try:
        return parse(body, app.config, app.deps.today()).name == "stop"
    except ParseError:
        return False


def reply_key(provider_id: str) -> str:
    """The outbox key of the answer to an SMS that goes out as an SMS of its own."""
    return f"sms-reply:{provider_id}"


def sender_number_of(app: App, message: Inbound) -> str:
    """The number ``sms_handler`` asks who it is (as users and contacts are stored): given
    to ``act_on_inbound``, the sender is read with the message's claim."""
    return sender_number(phone_of(message.sender), app.config.phone_region)


def sms_handler(app: App, message: Inbound, pictures: Pictures | None = None) -> Handler:
    """What acting on an SMS is: the sender's role from their number, their limit of
    answers (``bot.channels.limits``; the webhook and the sweep alike), then the words, and, where
    the provider carries pictures (``pictures``: Twilio's MMS and WhatsApp media), the
    message's pictures recorded to fetch for the case the step named."""

    async def handle(tx: Tx) -> str:
        sender, body, channel = phone_of(message.sender), message.body, message.channel
        found = await sender_of(tx, sender, channel, region=app.config.phone_region)
        caller = found.caller
        # Its channel, its WhatsApp window (an SMS from a number that last wrote by SMS,
        # or never on WhatsApp, changes nothing).
        if (
            caller.phone
            and len(caller.phone) <= 20
            and (channel == WHATSAPP or found.last_channel not in (None, channel))
        ):
            await note_inbound(tx, caller.phone, channel)
        allowed = await admit(
            tx, app.config.limits, channel, (caller.phone or sender)[:64], caller.role
        )
        if not allowed.answer:  # past the sender's limit: stored, told once, then silent
            if _is_stop(app, body):  # an opt-out is never refused, only not answered
                await handle_text(tx, app.deps, caller, body, sms=True)
            if not allowed.tell:
                return ""
            lang = await language_for(tx, app.deps, caller, body)
            return render.too_many_messages(allowed.until, translator(lang))
        carried = pictures is not None and pictures.carried(message.raw)
        after = await last_event_id(tx) if carried else 0
        # On WhatsApp (Twilio's number) no keyword comes first, as on Mobile Seva.
        with without_keyword() if channel == WHATSAPP else nullcontext():
            reply = await handle_text(tx, app.deps, caller, body, sms=True)
        if pictures is None or not carried:
            return reply.text
        return await pictures.plan(tx, app, caller, message, after, reply)

    return handle


async def mark_failed(tx: Tx, provider_id: str, reply: str, channel: str = CHANNEL) -> bool:
    """Mark a stored, unprocessed SMS (or WhatsApp message) processed with a failure;
    False if it was not (processed meanwhile)."""
    return await inbox.mark_failed(tx, channel, provider_id, f"[failed] {reply}")


def locked(exc: BaseException) -> bool:
    """Whether ``exc`` is a wait for the database that ran out (not a fault of the message)."""
    return isinstance(exc, budget.WaitBudgetExceeded) or sqlite_locked(exc)


def send_again(message: Inbound) -> str:
    """ "Send it again", in the language of the message's script."""
    return render.try_again_later(translator(reply_language(text=message.body)))


async def queue_answer(tx: Tx, app: App, message: Inbound, text: str) -> None:
    """Queue ``text`` as the SMS answering ``message`` (once per message)."""
    if text:
        await enqueue(
            tx,
            key=reply_key(message.provider_id),
            # A missed call (channel ``call``) is answered by SMS.
            channel=message.channel if message.channel == WHATSAPP else CHANNEL,
            recipient=sender_number(message.sender, app.config.phone_region),
            body=text,
            purpose="answer",
            case=tx.about_case,
        )


def answer_by_push(app: App, message: Inbound, handler: Handler | None = None) -> Handler:
    """``handler`` (by default ``sms_handler``) with its answer queued to the outbox in
    the same transaction."""
    act = handler or sms_handler(app, message)

    async def handle(tx: Tx) -> str:
        reply = await act(tx)
        await queue_answer(tx, app, message, reply)
        return reply

    return handle


def answer_at_once(app: App, message: Inbound, handler: Handler) -> Handler:
    """``handler`` whose answer goes in the provider's response (TwiML), sent at once: it
    passes the send gate (``App.gate``) as an answer through the outbox does, and one the
    gate refuses is not given (counted; nothing is answered)."""

    async def handle(tx: Tx) -> str:
        reply = await handler(tx)
        if not reply:
            return reply
        channel = WHATSAPP if message.channel == WHATSAPP else CHANNEL
        recipient = sender_number(phone_of(message.sender), app.config.phone_region)
        outgoing = Outgoing(reply_key(message.provider_id), channel, recipient, ANSWER)
        refused = await app.gate.refusal(tx, outgoing)
        if refused is None:
            return reply
        OUTBOX_DROPPED.labels(channel, refused[0]).inc()
        log.info("answer to %s not given: %s: %s", message.provider_id, *refused)
        return ""

    return handle


def by_push(app: App, message: Inbound) -> bool:
    """Whether the answer to ``message`` goes through the outbox rather than in the
    TwiML answer: an SMS while DLT is on (``[dlt] entity_id``), so that it is checked
    against its template like every other SMS, and refused visibly when it matches none
    (failed in the outbox, ``poundbot outbox failed``, counted in ``/metrics``)."""
    return message.channel == CHANNEL and app.config.dlt.enforced


def dlt_checked(app: App, text: str) -> str | None:
    """``text`` if it may go as an SMS in a TwiML answer: always without DLT; with DLT,
    only if it is one of the registered templates with an id (else logged, counted,
    and None: the answer sends nothing)."""
    policy = app.config.dlt
    if not text or not policy.enforced:
        return text
    try:
        policy.stamp(one_text(text), registry())  # as the TwiML answer carries it
    except DltRefusal as refusal:
        OUTBOX_FAILED.labels(CHANNEL).inc()
        OUTBOX_DLT_REFUSED.labels(refusal_label(str(refusal))).inc()
        log.warning("SMS answer not sent in TwiML: dlt: %s", refusal)
        return None
    return text
