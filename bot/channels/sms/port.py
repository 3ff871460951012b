"""The SMS port: what every SMS provider poundbot speaks to does, whichever it is.

A provider has two sides.

- Outbound, an ``SmsSender``: ``send(recipient, body, key, *, dlt=None)`` sends one SMS
  and returns the provider's id for it. ``dlt`` is the DLT stamp (``bot.support.dlt``) the
  message goes under in India; without one, the sender's default stamp (from settings)
  if it has one. The outbox (``bot.adapters.outbox``) calls it like any channel's sender.
- Inbound, an ``SmsGateway``: it authenticates and reads a request (a signature, or the
  secret path segment and the source address for providers that sign nothing), turns it
  into the ``Inbound`` every channel stores, and reads delivery reports into a
  ``StatusReport``. ``bot.channels.sms.inbound`` then does the rest the same way for
  every provider: the exactly-once inbox, the per-sender limits, STOP / START, the wait
  budget, the crash sweep, the answer queued to the outbox.

Twilio (``bot.channels.twilio.webhook``, ``bot.channels.twilio.sender``) answers in the HTTP
response (TwiML); Exotel (``bot.channels.exotel.webhook``) and Mobile Seva
(``bot.channels.mseva.webhook``) answer by a push SMS of their own, through the outbox, so that
each answer carries its DLT template id.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from starlette.requests import Request

from bot.services.runtime import App
from bot.store.messages import Inbound
from bot.support.clean import clean_data
from bot.support.dlt import DltStamp

__all__ = [
    "SmsGateway",
    "SmsSender",
    "StatusReport",
    "app_of",
    "form_params",
    "from_allowed",
    "request_params",
    "secret_matches",
]


class SmsSender(Protocol):
    """Sends one SMS; returns the provider's id of it (raises ``bot.adapters.outbox`` errors)."""

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class StatusReport:
    """A delivery report: the provider's id of the message we sent, its status in our
    words (``bot.channels.sms.status.status_rank``), and the provider's error code if any."""

    provider_id: str
    status: str
    error: str = ""
    #: The error means the number has unsubscribed (it is marked stopped).
    unsubscribed: bool = False
    #: The error means a WhatsApp message may go by SMS instead
    #: (``bot.adapters.whatsapp_route.FALLBACK_CODES``).
    falls_back: bool = False


class SmsGateway(Protocol):
    """The inbound side of a provider."""

    #: The provider's name (``twilio``, ``exotel``, ``mseva``).
    name: str

    async def read(self, request: Request) -> dict[str, str] | None:
        """The request's parameters if it comes from the provider (its signature, or
        the secret path segment and source address), cleaned of control characters;
        None when it does not (the caller answers 403 or 404 and stores nothing)."""
        ...

    def inbound(self, params: Mapping[str, str]) -> Inbound | None:
        """The SMS a request carries, or None (a request with nothing to act on)."""
        ...

    def status(self, params: Mapping[str, str]) -> StatusReport | None:
        """The delivery report a request carries, or None."""
        ...


def app_of(request: Request) -> App:
    """The running poundbot a webhook's request is for (set by the server's lifespan)."""
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        raise RuntimeError("poundbot is not started")
    return app


async def form_params(request: Request) -> dict[str, str]:
    """The form fields of a POST, as they came (files left out)."""
    form = await request.form()
    return {key: value for key, value in form.multi_items() if isinstance(value, str)}


async def request_params(request: Request) -> dict[str, str]:
    """The query parameters and, for a POST, the form fields; control characters out."""
    params = dict(request.query_params)
    if request.method == "POST":
        params |= await form_params(request)
    cleaned: dict[str, str] = clean_data(params)
    return cleaned


def secret_matches(request: Request, secret: str) -> bool:
    """Whether the ``{secret}`` path segment is the webhook secret (compared in constant
    time); an empty or short configured secret matches nothing."""
    given = str(request.path_params.get("secret", ""))
    return bool(secret) and hmac.compare_digest(given.encode(), secret.encode())


def from_allowed(request: Request, networks: Sequence[str]) -> bool:
    """Whether the request's source address is in the allow-list (an empty list allows
    any). Behind a reverse proxy the source is the client it names in X-Forwarded-For,
    read only from the proxies of ``POUNDBOT_TRUSTED_PROXIES`` (``bot.entry.app``), so
    that it is the provider's, not the proxy's."""
    if not networks:
        return True
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(net) for net in networks)
