"""Delivery reports, whichever provider sends them (Twilio, Exotel; Mobile Seva sends
none): the message's status moves only forward, with the provider's error; a number
that unsubscribed is marked stopped on its channel; a WhatsApp message refused in a way
SMS may carry instead (``bot.adapters.whatsapp_route.FALLBACK_CODES``) goes by SMS,
once. A provider's webhook reads its report into a ``StatusReport`` and hands it here.
"""

from __future__ import annotations

from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import fall_back_to_sms
from bot.channels.sms.port import StatusReport
from bot.services.runtime import App
from bot.store.delivery import move_status
from bot.store.messages import set_contact
from bot.store.models import OutboxRow
from bot.store.tx import Tx

__all__ = ["record_status", "status_rank", "take_status"]

#: The providers' message statuses in the order they happen (Twilio's, and Exotel's
#: ``submitted``, ``failed_dnd``, ``expired``); a report only moves forward.
_RANK = {
    "accepted": 1,
    "queued": 1,
    "scheduled": 1,
    "sending": 2,
    "submitted": 2,
    "sent": 3,
    "failed": 4,
    "failed_dnd": 4,
    "expired": 4,
    "undelivered": 4,
    "delivered": 5,
    "read": 6,
}


def status_rank(status: str) -> int:
    """Where a status stands in a message's life (0 for our own ``queued`` and unknown)."""
    return _RANK.get(status, 0)


async def record_status(tx: Tx, report: StatusReport) -> OutboxRow | None:
    """A delivery report of any provider: the message's status moves only forward, with
    the provider's error; an unsubscribed number is marked stopped on its channel.
    Returns the message (None: not one of ours)."""
    row = await move_status(tx, report.provider_id, report.status, report.error, status_rank)
    if row is None:
        return None
    if report.unsubscribed:
        await set_contact(tx, row.recipient, opted_out=True, channel=row.channel)
    return row


async def take_status(app: App, report: StatusReport) -> None:
    """Record ``report`` (``record_status``) and, for a WhatsApp message that failed in
    a way SMS may carry instead, queue the same text by SMS, once."""
    async with app.store.transaction() as tx:
        row = await record_status(tx, report)
        if (
            row is not None
            and row.channel == WHATSAPP
            and report.falls_back
            and status_rank(report.status) == status_rank("failed")
        ):  # WhatsApp refused it after taking it: the same text by SMS, once
            await fall_back_to_sms(tx, row.idempotency_key)
