"""Sending WhatsApp messages through Twilio, with the SMS fallback.

A queued WhatsApp message is sent as free text, or — when it was queued outside the
24-hour window — as its approved template (``ContentSid`` and ``ContentVariables``,
Twilio's Content API; no ``Body`` then). When Twilio refuses it with one of
``bot.adapters.whatsapp_route.FALLBACK_CODES`` (outside the window, not a WhatsApp user, the
template refused), the same text is queued by SMS, once, and the WhatsApp message is
marked failed.
"""

from __future__ import annotations

from bot.adapters.outbox import PermanentSendError
from bot.adapters.whatsapp_route import FALLBACK_CODES, PREFIX, fall_back_to_sms
from bot.channels.twilio.sender import Refused, TwilioSender
from bot.store.delivery import template_of
from bot.store.tx import Store

__all__ = ["WhatsAppSender"]


class WhatsAppSender:
    """Sends one WhatsApp message per call, from ``from_address`` (``whatsapp:+…``)."""

    def __init__(self, twilio: TwilioSender, store: Store, from_address: str) -> None:
        self._twilio, self._store, self._from = twilio, store, from_address

    async def send(self, recipient: str, body: str, key: str) -> str:
        """Send the message ``key``: its template if it has one, else ``body``."""
        async with self._store.transaction() as tx:
            sid, variables = await template_of(tx, key)
        fields = (
            {"content_sid": sid, "content_variables": variables or "{}"} if sid else {"body": body}
        )
        try:
            return await self._twilio.create(from_=self._from, to=PREFIX + recipient, **fields)
        except Refused as exc:
            if exc.code not in FALLBACK_CODES:
                raise
            async with self._store.transaction() as tx:
                queued = await fall_back_to_sms(tx, key)
            raise PermanentSendError(
                f"{exc}; by SMS instead" if queued else f"{exc}; no SMS (stopped or sent)"
            ) from exc
