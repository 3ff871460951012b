"""An SMS that came in through a provider answering by push SMS (Exotel, Mobile Seva):
stored once, acted on once, answered once through the outbox.

The same steps as the Twilio webhook (``bot.channels.twilio.webhook``), with the answer queued to
the outbox (``sms-reply:<provider id>``) in the transaction that acts on the message
instead of returned in the HTTP response:

1. Within the wait budget (``bot.support.budget``), the raw message is committed to the
   inbox (unique on channel + provider id): a repeated delivery of the same message
   changes nothing and queues nothing.
2. Acting on it (the per-sender limit, STOP / START, the words: ``sms_handler``), marking
   it processed and queueing the answer are one transaction.
3. Stored but not acted on (the database held too long, a fault): "send it again" if the
   message can be marked failed now, else the crash sweep (``bot.channels.sms.sweep``)
   answers it later, by the same outbox key; never both.

Not stored in time: 503, so that the provider tries again (Exotel retries a webhook
that does not answer 2xx); nothing is recorded.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from bot.channels.sms.answer import (
    answer_by_push,
    locked,
    mark_failed,
    queue_answer,
    sender_number_of,
)
from bot.i18n import render, reply_language, translator
from bot.observe.logsafe import mask_phone
from bot.services.runtime import App
from bot.store.messages import Handler, Inbound, act_on_inbound, store_inbound
from bot.store.tx import case_named
from bot.support import budget

__all__ = ["answer_by_push", "queue_answer", "take_in"]

log = logging.getLogger("poundbot.sms")


async def take_in(
    request: Request,
    app: App,
    message: Inbound,
    *,
    wait_budget: float,
    handler: Handler | None = None,
) -> Response:
    """Store, act on and answer ``message`` (see the module); 200 once stored."""
    with budget.within(wait_budget):
        try:
            async with app.store.turn():
                await store_inbound(app.store, message)
                try:
                    # The sender of an SMS (``sms_handler``) is read with the claim.
                    sender = sender_number_of(app, message) if handler is None else None
                    await act_on_inbound(
                        app.store,
                        message,
                        answer_by_push(app, message, handler),
                        sender=sender,
                        case=case_named(message.body),
                    )
                except Exception as exc:
                    await _not_answered(request, app, message, exc)
        except Exception as exc:
            why = "the database is held too long" if locked(exc) else type(exc).__name__
            log.warning(
                "SMS %s not stored (%s): the provider may send it again", message.provider_id, why
            )
            return Response("not stored, try again", status_code=503, media_type="text/plain")
    return Response(b"", media_type="text/plain")


async def _not_answered(request: Request, app: App, message: Inbound, exc: Exception) -> None:
    """A stored message not acted on still gets exactly one answer: "send it again" now
    if it can be marked failed, else the sweep's."""
    if not locked(exc):
        log.error(
            "SMS %s from %s could not be acted on",
            message.provider_id,
            mask_phone(message.sender),
            exc_info=exc,
        )
        again = render.try_again_later(translator(reply_language(text=message.body)))
        try:
            async with app.store.transaction() as tx:
                if await mark_failed(tx, message.provider_id, again, message.channel):
                    await queue_answer(tx, app, message, again)
                    return
        except Exception:
            log.exception("SMS %s: the failure could not be recorded", message.provider_id)
    log.warning("SMS %s stored, not acted on: the sweep answers it by SMS", message.provider_id)
    sweep: Any = getattr(request.app.state, "sms_sweep", None)
    if sweep is not None:
        sweep.hand_over(message.provider_id)
