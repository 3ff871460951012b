"""The send gate's check of a STOP (``bot.adapters.outbox.Gate``): a number that said STOP
on a channel gets nothing more there but the answers to its own messages, even a message
queued before the STOP (an owner's notice held for the morning, a reminder queued a
moment before). The composition root registers it (``bot.bootstrap``)."""

from __future__ import annotations

from typing import Final

from bot.adapters.send_gate import ANSWER, Outgoing
from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import phone_of
from bot.store.contacts import contact as contact_of
from bot.store.tx import Tx

__all__ = ["StoppedSince"]

#: The channels a number can say STOP on (Telegram has none: a chat is left, or blocked).
_STOPPABLE: Final = ("sms", WHATSAPP)


class StoppedSince:
    """Refuses a message, other than an answer, to a number that said STOP on its
    channel (at any time before it is sent)."""

    name = "stop"

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None:
        if message.purpose == ANSWER or message.channel not in _STOPPABLE:
            return None
        contact = await contact_of(tx, phone_of(message.recipient))
        if contact is None:
            return None
        whatsapp = message.channel == WHATSAPP
        stopped = contact.whatsapp_stopped_at if whatsapp else contact.opted_out_at
        if stopped is None:
            return None
        return f"the number said STOP by {message.channel} ({stopped:%Y-%m-%d %H:%M} UTC)"
