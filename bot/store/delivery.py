"""The outbox's rows as the channels read them: whether an answer was queued, a
delivery report's message, a WhatsApp message's template, and the backlog's figures
for ``/metrics``.

The channels (``bot.channels``) speak to the outbox only through these functions (and
``bot.store.messages.enqueue``): they take plain values and return plain values or rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, case, func, or_, select

from bot.store.models import OutboxRow, ReminderJob
from bot.store.tx import Tx

__all__ = [
    "Backlog",
    "backlog",
    "move_status",
    "queued",
    "reminders_due",
    "sent_for_update",
    "template_of",
]


async def queued(tx: Tx, key: str) -> bool:
    """Whether a message is in the outbox under ``key``."""
    found = await tx.session.scalar(select(OutboxRow.id).where(OutboxRow.idempotency_key == key))
    return found is not None


async def sent_for_update(tx: Tx, provider_id: str) -> OutboxRow | None:
    """The message the provider knows as ``provider_id``, locked for this transaction
    (None: not one of ours)."""
    row: OutboxRow | None = (
        await tx.session.execute(
            select(OutboxRow).where(OutboxRow.provider_id == provider_id).with_for_update()
        )
    ).scalar_one_or_none()
    return row


async def move_status(
    tx: Tx, provider_id: str, status: str, error: str, rank: Callable[[str], int]
) -> OutboxRow | None:
    """The message the provider knows as ``provider_id``, locked, its status moved to
    ``status`` (with ``error``, if any) when ``rank`` puts it later than the one it has;
    None: not one of ours."""
    row = await sent_for_update(tx, provider_id)
    if row is not None and rank(status) > rank(row.status):
        row.status = status
        if error:
            row.last_error = error[:500]
    return row


async def template_of(tx: Tx, key: str) -> tuple[str | None, str | None]:
    """The WhatsApp template (content SID) and its variables the message ``key`` was
    queued with: (None, None) for free text or no such message."""
    found = (
        await tx.session.execute(
            select(OutboxRow.content_sid, OutboxRow.content_variables).where(
                OutboxRow.idempotency_key == key
            )
        )
    ).first()
    return (found[0], found[1]) if found is not None else (None, None)


@dataclass(frozen=True, slots=True)
class Backlog:
    """One channel's messages not yet sent: how many, how many due now, the oldest's time."""

    channel: str
    count: int
    due: int
    oldest: datetime | None


async def backlog(tx: Tx, statuses: Sequence[str]) -> list[Backlog]:
    """The messages in ``statuses`` by channel: count, due at ``tx.now`` (queued and due,
    or claimed past their lease), the oldest's creation time."""
    now = tx.now
    due = or_(
        and_(OutboxRow.status == "queued", OutboxRow.next_attempt_at <= now),
        and_(OutboxRow.status == "sending", OutboxRow.claimed_until < now),
    )
    rows = (
        await tx.session.execute(
            select(
                OutboxRow.channel,
                func.count(),
                func.sum(case((due, 1), else_=0)),
                func.min(OutboxRow.created_at),
            )
            .where(OutboxRow.status.in_(statuses))
            .group_by(OutboxRow.channel)
        )
    ).all()
    return [Backlog(channel, count, int(n or 0), first) for channel, count, n, first in rows]


async def reminders_due(tx: Tx) -> int:
    """The reminder jobs due at ``tx.now`` and not yet fired."""
    count = await tx.session.scalar(
        select(func.count())
        .select_from(ReminderJob)
        .where(ReminderJob.status == "pending", ReminderJob.fire_at <= tx.now)
    )
    return int(count or 0)
