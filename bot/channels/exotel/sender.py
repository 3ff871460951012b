"""Sending SMS through Exotel: the Exotel adapter of the SMS port, outbound.

Exotel's Send SMS API (developer.exotel.com/api/send-sms-2,
developer.exotel.com/docs/sms-api/api-reference/send-sms)::

    POST https://<api_key>:<api_token>@<subdomain>/v1/Accounts/<account_sid>/Sms/send

form-encoded, with HTTP basic auth (the API key and token); ``<subdomain>`` is
``api.exotel.com`` (Singapore) or ``api.in.exotel.com`` (Mumbai). The fields sent:
``From`` (the ExoPhone or the DLT header linked to it), ``To``, ``Body``,
``EncodingType`` (``plain``, or ``unicode`` for text outside GSM-7: Malayalam, Tamil,
Kannada, ``₹``), ``DltEntityId`` and ``DltTemplateId`` (TRAI's DLT rules: mandatory for
India), ``StatusCallback`` (our ``/exotel/status/<secret>``). The answer is XML
(``<TwilioResponse><SMSMessage><Sid>…``); a refusal is ``<TwilioResponse><RestException>
<Status>…<Message>…`` with a non-2xx HTTP status (support.exotel.com "Sending an SMS";
developer.exotel.com/docs/sms-support/sms-api-errors). 429 and 5xx are worth another
try; any other refusal is permanent.
"""

from __future__ import annotations

from xml.etree import ElementTree

import httpx

from bot.adapters.outbox import PermanentSendError
from bot.channels.sms.http_sender import FormSender, gsm7
from bot.support.dlt import DltStamp

__all__ = ["ExotelSender", "encoding_type"]


def encoding_type(body: str) -> str:
    """Exotel's ``EncodingType``: ``plain`` for GSM-7 text, else ``unicode``."""
    return "plain" if gsm7(body) else "unicode"


def _field(xml: str, *path: str) -> str:
    """The text at ``path`` in an Exotel XML answer ("" if it is not there)."""
    try:
        node: ElementTree.Element | None = ElementTree.fromstring(xml)
    except ElementTree.ParseError:
        return ""
    for tag in path:
        node = node.find(tag) if node is not None else None
    return (node.text or "").strip() if node is not None else ""


class ExotelSender(FormSender):
    """Sends one SMS per call through Exotel; use it inside ``async with``."""

    provider = "exotel"

    def __init__(
        self,
        api_key: str,
        api_token: str,
        account_sid: str,
        from_number: str,
        *,
        subdomain: str = "api.in.exotel.com",
        api_url: str = "",
        status_callback: str = "",
        default_dlt: DltStamp | None = None,
    ) -> None:
        super().__init__(default_dlt=default_dlt, auth=httpx.BasicAuth(api_key, api_token))
        self._sid, self._from = account_sid, from_number
        self._base = (api_url or f"https://{subdomain}").rstrip("/")
        self._callback = status_callback

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str:
        """Send an SMS; returns Exotel's ``Sid`` of it."""
        stamp = self.stamp(dlt)
        form = {
            "From": self._from,
            "To": recipient,
            "Body": body,
            "EncodingType": encoding_type(body),
        }
        if stamp is not None:
            form |= {"DltEntityId": stamp.entity_id, "DltTemplateId": stamp.template_id}
        if self._callback:
            form["StatusCallback"] = self._callback
        url = f"{self._base}/v1/Accounts/{self._sid}/Sms/send"
        response = await self.post(url, form)
        if not response.is_success:
            why = _field(response.text, "RestException", "Message") or response.text[:200]
            raise PermanentSendError(f"exotel {response.status_code}: {why}")
        sid = _field(response.text, "SMSMessage", "Sid")
        if not sid:
            raise PermanentSendError(f"exotel {response.status_code}: no Sid in the answer")
        return sid
