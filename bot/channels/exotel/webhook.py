"""Exotel's webhooks: SMS to the ExoPhone, delivery reports, and missed calls on it (the
Exotel adapter of the SMS port, inbound; ``bot.channels.exotel.sender`` sends).

What Exotel sends, by its documentation:

- An SMS to the ExoPhone (support.exotel.com "Send a SMS reply in response to an incoming
  SMS"; developer.exotel.com/docs/sms-support/sms-webhooks): ``SmsSid``, ``From``, ``To``,
  ``Date``, ``Body``; by GET from an SMS app's URL (after a HEAD to check the answer's
  Content-Type, ``text/plain``), or by POST when set in SMS Settings > Inbound SMS. Served
  at ``/exotel/sms/<secret>`` for both; the answer goes out as an SMS of its own through
  the outbox (with its DLT template id), so the HTTP answer is an empty ``text/plain``.
- A delivery report (the ``StatusCallback`` of Send SMS, developer.exotel.com
  api-console/send-sms-api-console): POST, form-encoded, ``SmsSid``, ``To``, ``Status``
  (queued, sending, submitted, sent, failed_dnd, failed; delivered, expired,
  undelivered in docs/sms-support/sms-status-codes), ``SmsUnits``, ``DetailedStatus``,
  ``DetailedStatusCode``, ``DateSent``. Served at ``/exotel/status/<secret>``.
- A call to the ExoPhone reaching a Passthru applet (support.exotel.com "Working with
  Passthru Applet"): GET with ``CallSid``, ``CallFrom`` (``From`` on older flows),
  ``CallTo``, ``Direction``, ``Created``, ``CurrentTime`` ...; answered 200 (the flow's
  success branch). Served at ``/exotel/call/<secret>``: a missed call
  (``bot.channels.sms.missed_call``).

Exotel signs none of these (its webhook pages describe HTTPS, a 2xx answer within 10-15
seconds and up to 2 retries, and no signature or shared secret). So what keeps strangers
out is the ``<secret>`` path segment (``POUNDBOT_WEBHOOK_SECRET``, at least 32
characters) and the source-address allow-list (``POUNDBOT_EXOTEL_ALLOW``; Exotel's support
gives the addresses, serve warns while it is unset): a wrong secret or address is a 404
that stores nothing. Behind a proxy the address is the one a trusted proxy names
(``POUNDBOT_TRUSTED_PROXIES``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.channels.sms.answer import CHANNEL
from bot.channels.sms.gateway import SecretGateway, empty, not_found
from bot.channels.sms.missed_call import CHANNEL as CALL
from bot.channels.sms.missed_call import call_handler
from bot.channels.sms.port import StatusReport, app_of
from bot.channels.sms.status import take_status
from bot.store.messages import Inbound
from bot.support import budget
from bot.support.phones import PhoneError, normalize_phone

__all__ = ["ExotelWebhook"]

log = logging.getLogger("poundbot.sms")


@dataclass
class ExotelWebhook(SecretGateway):
    """The Exotel webhooks of one running poundbot (the App comes from the lifespan)."""

    secret: str
    allow: Sequence[str] = ()
    wait_budget: float = budget.DEFAULT_BUDGET
    name: str = "exotel"
    webhook: ClassVar[str] = "an Exotel webhook"

    def routes(self) -> list[Route]:
        return [
            Route("/exotel/sms/{secret}", self.sms, methods=["GET", "POST", "HEAD"]),
            Route("/exotel/status/{secret}", self.status_report, methods=["POST", "GET"]),
            Route("/exotel/call/{secret}", self.call, methods=["GET", "POST"]),
        ]

    def inbound(self, params: Mapping[str, str]) -> Inbound | None:
        sid, sender = params.get("SmsSid", ""), params.get("From", "")
        if not sid or not sender:
            return None
        return Inbound(
            CHANNEL, f"exotel:{sid}"[:64], sender[:64], params.get("Body", ""), dict(params)
        )

    def status(self, params: Mapping[str, str]) -> StatusReport | None:
        sid = params.get("SmsSid", "")
        if not sid:
            return None
        status = params.get("Status", "")
        code, detail = params.get("DetailedStatusCode", ""), params.get("DetailedStatus", "")
        failed = status.startswith("failed") or status in ("expired", "undelivered")
        return StatusReport(sid, status, f"exotel {code} {detail}".strip() if failed else "")

    async def sms(self, request: Request) -> Response:
        """An SMS to the ExoPhone: stored, acted on and answered by SMS once."""
        params = await self.read(request)
        if params is None:
            return not_found()
        if request.method == "HEAD":  # Exotel checks the Content-Type before its GET
            return empty()
        message = self.inbound(params)
        if message is None:
            return empty()
        return await self.take_in(request, message)

    async def status_report(self, request: Request) -> Response:
        """A delivery report for an SMS we sent."""
        params = await self.read(request)
        if params is None:
            return not_found()
        report = self.status(params)
        if report is not None:
            await take_status(app_of(request), report)
        return empty()

    async def call(self, request: Request) -> Response:
        """A call through the Passthru applet: a missed call, answered by SMS once."""
        params = await self.read(request)
        if params is None:
            return not_found()
        sid = params.get("CallSid", "")
        caller = params.get("CallFrom") or params.get("From", "")
        app = app_of(request)
        try:
            number = normalize_phone(caller, app.config.phone_region)
        except PhoneError:
            number = ""
        if not sid or not number:  # a withheld or landline number cannot get an SMS
            log.info("Exotel call %s: no mobile number to answer", sid[:40] or "without a CallSid")
            return empty()
        message = Inbound(CALL, f"exotel-call:{sid}"[:64], number, "", dict(params))
        return await self.take_in(request, message, call_handler(app, number))
