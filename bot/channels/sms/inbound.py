"""An SMS (or a Twilio WhatsApp message, or a missed call) that came in through any
provider: stored once, acted on once, answered once.

Every provider's webhook (``bot.channels.twilio``, ``bot.channels.exotel``,
``bot.channels.mseva``) reads and checks its request, then hands the message here:

1. Within the wait budget (``bot.support.budget``), the raw message is committed to the
   inbox (unique on channel + provider id): a repeated delivery of the same message
   changes nothing and queues nothing.
2. Acting on it (the per-sender limit, STOP / START, the words: ``sms_handler``), marking
   it processed and its answer are one transaction. The answer goes either by push: queued
   to the outbox (``sms-reply:<provider id>``) in that transaction (Exotel, Mobile Seva,
   and Twilio's SMS while DLT is on); or in the HTTP response (``in_response``: Twilio's
   TwiML), through the send gate all the same (``answer_at_once``). A repeated message
   answered in the response gets the same answer again, or none if the sweep answered
   it by SMS.
3. Stored but not acted on (the database held too long, a fault): "send it again" if the
   message can be marked failed now (in the response, or queued), else the crash sweep
   (``bot.channels.sms.sweep``) answers it later, by the same outbox key; never both.

Not stored in time: nothing is recorded. ``take_in`` answers 503, so that a provider
answering by push tries again (Exotel retries a webhook that does not answer 2xx);
Twilio, which does not, asks the sender to send it again (``Taken.stored`` False).
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from bot.channels.sms.answer import (
    Pictures,
    answer_at_once,
    answer_by_push,
    by_push,
    locked,
    mark_failed,
    queue_answer,
    reply_key,
    send_again,
    sender_number_of,
    sms_handler,
)
from bot.observe.logsafe import mask_phone
from bot.services.runtime import App
from bot.store.delivery import queued
from bot.store.messages import Handler, Inbound, act_on_inbound, store_inbound
from bot.store.tx import case_named
from bot.support import budget

__all__ = ["Taken", "answer_by_push", "queue_answer", "take", "take_in"]

log = logging.getLogger("poundbot.sms")


@dataclass(frozen=True, slots=True)
class Taken:
    """What became of a message: stored or not, acted on now for the first time or a
    repeat, and the answer to give in the HTTP response ("" none)."""

    stored: bool
    fresh: bool = False
    answer: str = ""


async def take_in(
    request: Request,
    app: App,
    message: Inbound,
    *,
    wait_budget: float,
    handler: Handler | None = None,
) -> Response:
    """Store, act on and answer ``message`` by push (see the module); 200 once stored,
    503 when not."""
    with budget.within(wait_budget):
        taken = await take(request, app, message, handler=handler)
    if not taken.stored:
        return Response("not stored, try again", status_code=503, media_type="text/plain")
    return Response(b"", media_type="text/plain")


async def take(
    request: Request,
    app: App,
    message: Inbound,
    *,
    wait_budget: float | None = None,
    handler: Handler | None = None,
    pictures: Pictures | None = None,
    in_response: bool = False,
) -> Taken:
    """Store, act on and answer ``message`` (see the module) within ``wait_budget``
    seconds (None: the budget the caller set, counted from its request's start).
    ``handler`` (default: ``sms_handler``, with the provider's ``pictures``) acts on it;
    ``in_response``: the answer is given in the response, unless DLT sends it by push."""
    pushed = not in_response or by_push(app, message)
    act = handler or sms_handler(app, message, pictures)
    act = answer_by_push(app, message, act) if pushed else answer_at_once(app, message, act)
    with budget.within(wait_budget) if wait_budget is not None else nullcontext():
        try:
            async with app.store.turn():
                await store_inbound(app.store, message)
                try:
                    # The sender of an SMS (``sms_handler``) is read with the claim.
                    sender = sender_number_of(app, message) if handler is None else None
                    acted = await act_on_inbound(
                        app.store, message, act, sender=sender, case=case_named(message.body)
                    )
                    answer = "" if pushed else acted.reply
                    if answer and not acted.fresh and await _answered_by_sms(app, message):
                        answer = ""  # the sweep has answered it by SMS
                except Exception as exc:
                    again = await _not_answered(request, app, message, exc, pushed)
                    return Taken(stored=True, answer=again)
        except Exception as exc:
            why = "the database is held too long" if locked(exc) else type(exc).__name__
            then = "the provider may send it again" if pushed else "asked to send it again"
            log.warning("SMS %s not stored (%s): %s", message.provider_id, why, then)
            return Taken(stored=False)
    return Taken(stored=True, fresh=acted.fresh, answer=answer)


async def _answered_by_sms(app: App, message: Inbound) -> bool:
    async with app.store.transaction() as tx:
        return await queued(tx, reply_key(message.provider_id))


async def _not_answered(
    request: Request, app: App, message: Inbound, exc: Exception, pushed: bool
) -> str:
    """A stored message not acted on still gets exactly one answer: "send it again" now
    (returned, to answer in the response, or queued) if it can be marked failed, else
    the sweep's, by SMS."""
    if not locked(exc):
        log.error(
            "SMS %s from %s could not be acted on",
            message.provider_id,
            mask_phone(message.sender),
            exc_info=exc,
        )
        again = send_again(message)
        try:
            async with app.store.transaction() as tx:
                if await mark_failed(tx, message.provider_id, again, message.channel):
                    if not pushed:
                        return again
                    await queue_answer(tx, app, message, again)
                    return ""
        except Exception:
            log.exception("SMS %s: the failure could not be recorded", message.provider_id)
    log.warning("SMS %s stored, not acted on: the sweep answers it by SMS", message.provider_id)
    sweep: Any = getattr(request.app.state, "sms_sweep", None)
    if sweep is not None:
        sweep.hand_over(message.provider_id)
    return ""
