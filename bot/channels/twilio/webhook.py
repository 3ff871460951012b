"""SMS and WhatsApp over Twilio: the signed inbound webhook and delivery reports.

WhatsApp messages come here too (``From=whatsapp:+91…``), on the channel ``whatsapp``
(exactly-once, the sweep, the limits hold), from the person of the number; each opens
WhatsApp's 24-hour window; the TwiML answer goes back on WhatsApp.

``POST /twilio/sms``: a request not signed by Twilio
(``bot.channels.twilio.signature``) gets 403 and changes nothing. The message is taken
as every provider's is (``bot.channels.sms.inbound.take``: stored once under its
``MessageSid``, acted on once, the limits, the wait budget, the sweep), with its answer
in the TwiML response (unless DLT sends it through the outbox); a repeated
``MessageSid`` gets the same reply and no second effect.

``POST /twilio/status``: delivery reports, signed too (``bot.channels.sms.status``);
error 21610 marks the number stopped; a WhatsApp message that failed with one of
``bot.adapters.whatsapp_route.FALLBACK_CODES`` goes by SMS instead, once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import FALLBACK_CODES, is_whatsapp
from bot.channels.sms.answer import CHANNEL, dlt_checked, send_again
from bot.channels.sms.inbound import take
from bot.channels.sms.port import StatusReport, app_of
from bot.channels.sms.status import take_status
from bot.channels.twilio.media import TwilioMedia
from bot.channels.twilio.pictures import PICTURES, media_urls
from bot.channels.twilio.signature import signed_params
from bot.i18n.public.sms_fit import one_text
from bot.store.messages import Inbound
from bot.support import budget

__all__ = ["SmsWebhook", "twiml"]

log = logging.getLogger("poundbot.sms")

UNSUBSCRIBED = "21610"


#: What Twilio's ``MessagingResponse`` writes around a message (its ElementTree).
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'


def twiml(text: str | None) -> Response:
    """A TwiML answer: one message, or an empty ``<Response/>`` that sends nothing.

    Written as Twilio's ``MessagingResponse`` writes it, byte for byte (its text escaped
    as ElementTree escapes it: ``&``, ``<``, ``>``), without building the tree for each
    answer (``tests/unit/test_twiml.py`` holds it to the library's)."""
    if not text:
        return Response(_DECLARATION + "<Response />", media_type="application/xml")
    body = one_text(text)  # a reply in parts: one message, a part a line
    message = f"<Message>{escape(body)}</Message>" if body else "<Message />"
    # What UTF-8 cannot carry (a lone surrogate) as a character reference, as ElementTree.
    xml = f"{_DECLARATION}<Response>{message}</Response>".encode("utf-8", "xmlcharrefreplace")
    return Response(xml, media_type="application/xml")


@dataclass
class SmsWebhook:
    """The Twilio webhooks of one running poundbot (the App comes from the lifespan)."""

    auth_token: str
    public_url: str
    wait_budget: float = budget.DEFAULT_BUDGET
    #: Whether WhatsApp is on (TWILIO_WHATSAPP_FROM): else a WhatsApp message is not
    #: taken (nothing could be sent back on WhatsApp but the TwiML answer).
    whatsapp: bool = False
    #: Fetches a message's pictures (the server's ``MediaFetcher``, after the answer).
    media: TwilioMedia | None = None
    #: Whether SMS goes through Twilio: else (Exotel or Mobile Seva for SMS) this
    #: webhook takes WhatsApp messages only.
    sms: bool = True

    def routes(self) -> list[Route]:
        return [
            Route("/twilio/sms", self.receive, methods=["POST"]),
            Route("/twilio/status", self.status_report, methods=["POST"]),
        ]

    #: The provider's name (``bot.channels.sms.port.SmsGateway``).
    name = "twilio"

    async def read(self, request: Request) -> dict[str, str] | None:
        """The port's reading of a request: its parameters if Twilio signed it."""
        return await signed_params(request, self.public_url, self.auth_token)

    def inbound(self, params: Mapping[str, str]) -> Inbound | None:
        """The SMS or WhatsApp message a signed request carries, or None."""
        sid, sender = params.get("MessageSid", ""), params.get("From", "")
        if not sid or not sender:
            return None
        channel = WHATSAPP if is_whatsapp(sender) else CHANNEL
        return Inbound(channel, sid[:64], sender[:64], params.get("Body", ""), dict(params))

    def status(self, params: Mapping[str, str]) -> StatusReport | None:
        """The delivery report a signed request carries."""
        sid = params.get("MessageSid", "")
        if not sid:
            return None
        code = params.get("ErrorCode", "")
        return StatusReport(
            sid,
            params.get("MessageStatus", ""),
            f"twilio {code}" if code else "",
            unsubscribed=code == UNSUBSCRIBED,
            falls_back=code in FALLBACK_CODES,
        )

    async def receive(self, request: Request) -> Response:
        """An SMS or WhatsApp message: answered once, in TwiML, or — stored but not acted
        on in time — by SMS from the sweep. The whole wait for the database, queue
        included, stays within ``wait_budget``, counted from here (reading and checking
        the request are part of the wait): past it before the message is stored, the
        sender is asked to send it again and nothing is recorded."""
        with budget.within(self.wait_budget):
            return await self._inbound(request)

    async def _inbound(self, request: Request) -> Response:
        params = await self.read(request)
        if params is None:
            return Response("forbidden", status_code=403)
        message = self.inbound(params)
        if message is None:
            return twiml(None)
        if message.channel == WHATSAPP and not self.whatsapp:
            log.warning("a WhatsApp message came in, but WhatsApp is off: set TWILIO_WHATSAPP_FROM")
            return twiml(None)
        if message.channel == CHANNEL and not self.sms:
            log.warning("an SMS came in through Twilio, but SMS goes through another provider")
            return twiml(None)
        app = app_of(request)
        taken = await take(request, app, message, pictures=PICTURES, in_response=True)
        if not taken.stored:
            return twiml(dlt_checked(app, send_again(message)))
        if taken.fresh and media_urls(message.raw):
            fetcher: Any = getattr(request.app.state, "media_fetcher", None)
            if fetcher is not None:
                fetcher.kick()  # its pictures, if any are to be kept, are fetched now
        return twiml(taken.answer)

    async def status_report(self, request: Request) -> Response:
        """A delivery report for a message we sent."""
        params = await self.read(request)
        if params is None:
            return Response("forbidden", status_code=403)
        report = self.status(params)
        if report is not None:
            await take_status(app_of(request), report)
        return Response(status_code=204)
