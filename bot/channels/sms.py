"""SMS over Twilio: the signed inbound webhook and delivery reports.

``POST /twilio/sms``: every request's ``X-Twilio-Signature`` is checked against the
public URL (``POUNDBOT_PUBLIC_URL`` + path), never the Host header a proxy passed on;
anything unsigned or forged gets 403 and changes nothing. The raw message is stored
(unique ``MessageSid``) before it is acted on; a repeated ``MessageSid`` gets the same
reply and no second effect. Replies are TwiML. Once the signature is checked, control
characters are taken out of every parameter (``bot.clean``): a NUL cannot be stored in
PostgreSQL. A number past its limit of answers (``bot.limits``) is told once when to try
again, then answered with nothing (a STOP is still recorded).

``POST /twilio/status``: delivery reports, signed too; a message's status only moves
forward; error 21610 (the number unsubscribed) marks the number stopped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from twilio.request_validator import RequestValidator
from twilio.twiml.messaging_response import MessagingResponse

from bot.bootstrap import App
from bot.channels.identity import caller_for_phone
from bot.clean import clean_data
from bot.commands import ParseError, parse
from bot.dispatch import handle_text, language_for
from bot.i18n import detect_script, render, translator
from bot.limits import admit
from bot.logsafe import mask_phone
from bot.store.messages import Inbound, process_inbound, set_contact
from bot.store.models import OutboxRow
from bot.store.tx import Tx

__all__ = ["SmsWebhook", "status_rank", "twiml"]

log = logging.getLogger("poundbot.sms")

#: Twilio's message statuses in the order they happen; a report only moves forward.
_RANK = {
    "accepted": 1,
    "queued": 1,
    "scheduled": 1,
    "sending": 2,
    "sent": 3,
    "failed": 4,
    "undelivered": 4,
    "delivered": 5,
    "read": 6,
}
UNSUBSCRIBED = "21610"


def status_rank(status: str) -> int:
    """Where a status stands in a message's life (0 for our own ``queued`` and unknown)."""
    return _RANK.get(status, 0)


def _is_stop(app: App, body: str) -> bool:
    """Whether ``body`` is STOP (in any language)."""
    try:
        return parse(body, app.config, app.deps.today()).name == "stop"
    except ParseError:
        return False


def twiml(text: str | None) -> Response:
    """A TwiML answer: one message, or an empty ``<Response/>`` that sends nothing."""
    response = MessagingResponse()
    if text:
        response.message(text)
    return Response(str(response), media_type="application/xml")


@dataclass
class SmsWebhook:
    """The Twilio webhooks of one running poundbot (the App comes from the lifespan)."""

    auth_token: str
    public_url: str

    @staticmethod
    def _app(request: Request) -> App:
        app: App | None = getattr(request.app.state, "poundbot", None)
        if app is None:
            raise RuntimeError("poundbot is not started")
        return app

    def routes(self) -> list[Route]:
        return [
            Route("/twilio/sms", self.inbound, methods=["POST"]),
            Route("/twilio/status", self.status, methods=["POST"]),
        ]

    async def _signed_params(self, request: Request) -> dict[str, str] | None:
        """The POST parameters if the request is signed by Twilio for our public URL."""
        signature = request.headers.get("X-Twilio-Signature", "")
        form = await request.form()
        params = {key: value for key, value in form.multi_items() if isinstance(value, str)}
        url = self.public_url.rstrip("/") + request.url.path
        if request.url.query:
            url += "?" + request.url.query
        if not signature or not RequestValidator(self.auth_token).validate(url, params, signature):
            log.warning("refused an unsigned or forged request to %s", request.url.path)
            return None
        # Checked as signed; used and stored without NUL and other control characters.
        cleaned: dict[str, str] = clean_data(params)
        return cleaned

    async def inbound(self, request: Request) -> Response:
        """An SMS from a keeper, an officer or an owner: answer it once, in TwiML."""
        params = await self._signed_params(request)
        if params is None:
            return Response("forbidden", status_code=403)
        sid, sender = params.get("MessageSid", ""), params.get("From", "")
        if not sid or not sender:
            return twiml(None)
        body = params.get("Body", "")
        message = Inbound("sms", sid[:64], sender[:64], body, params)
        app = self._app(request)

        async def handle(tx: Tx) -> str:
            caller = await caller_for_phone(tx, sender, region=app.config.phone_region)
            allowed = await admit(
                tx, app.config.limits, "sms", (caller.phone or sender)[:64], caller.role
            )
            if not allowed.answer:  # past the sender's limit: stored, told once, then silent
                if _is_stop(app, body):  # an opt-out is never refused, only not answered
                    await handle_text(tx, app.deps, caller, body, sms=True)
                if not allowed.tell:
                    return ""
                lang = await language_for(tx, app.deps, caller, body)
                return render.too_many_messages(allowed.until, translator(lang))
            return (await handle_text(tx, app.deps, caller, body, sms=True)).text

        try:
            reply = await process_inbound(app.store, message, handle)
        except Exception:  # the message stays in the inbox, unprocessed: nothing is lost
            log.exception("SMS %s from %s could not be processed", sid, mask_phone(sender))
            reply = render.try_again_later(translator(detect_script(body) or "en"))
        return twiml(reply)

    async def status(self, request: Request) -> Response:
        """A delivery report for a message we sent."""
        params = await self._signed_params(request)
        if params is None:
            return Response("forbidden", status_code=403)
        sid, status = params.get("MessageSid", ""), params.get("MessageStatus", "")
        async with self._app(request).store.transaction() as tx:
            row = (
                await tx.session.execute(
                    select(OutboxRow).where(OutboxRow.provider_id == sid).with_for_update()
                )
            ).scalar_one_or_none()
            if row is not None and status_rank(status) > status_rank(row.status):
                row.status = status
                if params.get("ErrorCode"):
                    row.last_error = f"twilio {params['ErrorCode']}"
            if params.get("ErrorCode") == UNSUBSCRIBED and row is not None:
                await set_contact(tx, row.recipient, opted_out=True)
        return Response(status_code=204)
