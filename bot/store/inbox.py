"""The inbox's rows as the channels read and mark them: a message marked processed or
failed, the SMS the sweep answers, the Telegram updates stored and never handled.

The channels (``bot.channels``) speak to the inbox only through these functions (and
``bot.store.messages``): they take plain values and return plain values or rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update

from bot.store.models import InboxRow
from bot.store.tx import Tx

__all__ = [
    "Waiting",
    "mark_failed",
    "mark_processed",
    "next_unanswered",
    "processed_at",
    "rekey",
    "unprocessed",
]


@dataclass(frozen=True, slots=True)
class Waiting:
    """A stored message not yet processed."""

    id: int
    provider_id: str
    sender: str
    body: str
    channel: str
    raw: Any


async def mark_failed(tx: Tx, channel: str, provider_id: str, reply: str) -> bool:
    """Mark a stored, unprocessed message processed with ``reply`` (the failure's words);
    False if it was not (processed meanwhile, or not stored)."""
    result = await tx.session.execute(
        update(InboxRow)
        .where(
            InboxRow.channel == channel,
            InboxRow.provider_id == provider_id,
            InboxRow.processed_at.is_(None),
        )
        .values(processed_at=tx.now, reply=reply)
    )
    return bool(getattr(result, "rowcount", 0))


async def mark_processed(tx: Tx, row_id: int, reply: str) -> None:
    """Mark the inbox row ``row_id`` processed with ``reply``, about the case acting on it
    found (``Tx.about_case``), as ``bot.store.messages.act_on_inbound`` marks one."""
    await tx.session.execute(
        update(InboxRow)
        .where(InboxRow.id == row_id)
        .values(processed_at=tx.now, reply=reply, case_number=tx.about_case)
    )


async def next_unanswered(
    tx: Tx,
    channels: Sequence[str],
    cutoff: datetime,
    handed: Collection[str],
    tried: Collection[int],
) -> Waiting | None:
    """The oldest unprocessed message on ``channels`` received before ``cutoff`` or
    handed over (by provider id), not among ``tried`` (row ids); locked for this
    transaction, skipping those another holds (PostgreSQL)."""
    due = (
        select(
            InboxRow.id,
            InboxRow.provider_id,
            InboxRow.sender,
            InboxRow.body,
            InboxRow.channel,
            InboxRow.raw,
        )
        .where(InboxRow.channel.in_(channels), InboxRow.processed_at.is_(None))
        .where(or_(InboxRow.received_at < cutoff, InboxRow.provider_id.in_(handed)))
        .order_by(InboxRow.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    if tried:
        due = due.where(InboxRow.id.not_in(tried))
    found = (await tx.session.execute(due)).first()
    if found is None:
        return None
    row_id, provider_id, sender, body, channel, raw = found
    return Waiting(row_id, provider_id, sender, body, channel, raw)


async def processed_at(tx: Tx, channel: str, provider_id: str) -> datetime | None:
    """When the stored message was processed (None: not yet, or not stored)."""
    done: datetime | None = await tx.session.scalar(
        select(InboxRow.processed_at).where(
            InboxRow.channel == channel, InboxRow.provider_id == provider_id
        )
    )
    return done


async def unprocessed(tx: Tx, channel: str) -> list[tuple[int, str, Any]]:
    """The id, provider id and raw message of every unprocessed message on ``channel``,
    oldest first."""
    rows = await tx.session.execute(
        select(InboxRow.id, InboxRow.provider_id, InboxRow.raw)
        .where(InboxRow.channel == channel, InboxRow.processed_at.is_(None))
        .order_by(InboxRow.id)
    )
    return [(row_id, key, raw) for row_id, key, raw in rows.all()]


async def rekey(tx: Tx, row_id: int, provider_id: str) -> None:
    """Store the inbox row ``row_id`` under ``provider_id``."""
    await tx.session.execute(
        update(InboxRow).where(InboxRow.id == row_id).values(provider_id=provider_id)
    )
