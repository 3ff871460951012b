"""Sending SMS (and WhatsApp messages, ``bot.channels.twilio.whatsapp_sender``) through the
twilio SDK's async REST client: the Twilio adapter of the SMS port (``bot.channels.sms.port``).

Twilio's Messages API has no DLT fields: for India, Twilio matches each message against
the templates registered with it beforehand (Twilio's India guidelines), so the DLT stamp
is accepted and not sent. Twilio SMS is one-way in India (no replies to its numbers)."""

from __future__ import annotations

from types import TracebackType

import aiohttp
from twilio.base.exceptions import TwilioRestException
from twilio.http.async_http_client import AsyncTwilioHttpClient
from twilio.rest import Client

from bot.adapters.outbox import PermanentSendError, TransientSendError, UnsubscribedError
from bot.support.dlt import DltStamp

__all__ = ["Refused", "TwilioSender"]


class Refused(PermanentSendError):
    """Twilio refused the message for good, with its error ``code``."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class TwilioSender:
    """Sends one SMS per call; create and use it inside a running event loop."""

    def __init__(
        self,
        sid: str,
        token: str,
        from_number: str,
        *,
        api_url: str = "",
        status_callback: str = "",
    ) -> None:
        self._sid, self._token, self._from = sid, token, from_number
        self._api_url, self._callback = api_url, status_callback
        self._http: AsyncTwilioHttpClient | None = None
        self._client: Client | None = None

    async def __aenter__(self) -> TwilioSender:
        self._http = AsyncTwilioHttpClient(timeout=15)
        self._client = Client(self._sid, self._token, http_client=self._http)
        if self._api_url:
            self._client.api.base_url = self._api_url.rstrip("/")
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._http is not None:
            await self._http.close()

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str:
        """Send an SMS; 429, 5xx and network errors are transient, other refusals permanent.
        ``dlt`` is not Twilio's to carry (see the module's docstring)."""
        return await self.create(to=recipient, body=body)

    async def create(self, *, from_: str = "", **fields: str) -> str:
        """Create one message (``to`` and ``body``, or ``content_sid`` and
        ``content_variables``) from ``from_`` (the SMS number by default); returns its SID."""
        assert self._client is not None, "use TwilioSender inside 'async with'"
        extra = {"status_callback": self._callback} if self._callback else {}
        try:
            message = await self._client.messages.create_async(
                from_=from_ or self._from, **fields, **extra
            )
        except TwilioRestException as exc:
            if exc.status == 429 or exc.status >= 500:
                raise TransientSendError(f"twilio {exc.status} {exc.code}") from exc
            if str(exc.code) == "21610":
                raise UnsubscribedError(f"twilio {exc.code}: unsubscribed") from exc
            raise Refused(f"twilio {exc.status} {exc.code}: {exc.msg}", str(exc.code)) from exc
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise TransientSendError(f"network: {exc!r}") from exc
        return str(message.sid)
