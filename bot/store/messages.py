"""Inbox and outbox: every message in and out, each exactly once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.models import Contact, InboxRow, OutboxRow
from bot.store.tx import Store, Tx

__all__ = ["Inbound", "enqueue", "process_inbound", "set_contact"]

Handler = Callable[[Tx], Awaitable[str]]


def _insert(tx: Tx, table: Any) -> Any:
    dialect = tx.session.bind.dialect.name if tx.session.bind else "sqlite"
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


class Inbound:
    """An inbound message as a channel received it."""

    def __init__(
        self, channel: str, provider_id: str, sender: str, body: str, raw: dict[str, Any]
    ) -> None:
        self.channel = channel
        self.provider_id = provider_id
        self.sender = sender
        self.body = body
        self.raw = raw


async def process_inbound(store: Store, message: Inbound, handler: Handler) -> str:
    """Store the raw message, then act on it once; a repeat gets the same reply.

    1. The raw message is committed first (unique on channel + provider id), so a
       crash while acting on it loses nothing: it stays unprocessed and can be retried.
    2. Acting on it and marking it processed (with the reply) is one transaction,
       holding the inbox row's lock: a concurrent repeat waits, then reads the reply.
    """
    async with store.transaction() as tx:
        await tx.session.execute(
            _insert(tx, InboxRow)
            .values(
                channel=message.channel,
                provider_id=message.provider_id,
                sender=message.sender,
                body=message.body,
                raw=message.raw,
                received_at=tx.now,
            )
            .on_conflict_do_nothing(index_elements=["channel", "provider_id"])
        )
    async with store.transaction() as tx:
        row = (
            await tx.session.execute(
                select(InboxRow)
                .where(
                    InboxRow.channel == message.channel,
                    InboxRow.provider_id == message.provider_id,
                )
                .with_for_update()
            )
        ).scalar_one()
        if row.processed_at is not None:
            return row.reply or ""
        reply = await handler(tx)
        row.reply = reply
        row.processed_at = tx.now
        return reply


async def enqueue(
    tx: Tx,
    *,
    key: str,
    channel: str,
    recipient: str,
    body: str,
    not_before: datetime | None = None,
) -> bool:
    """Queue an outbound message once per idempotency key; False if it was queued already."""
    result = await tx.session.execute(
        _insert(tx, OutboxRow)
        .values(
            idempotency_key=key,
            channel=channel,
            recipient=recipient,
            body=body,
            status="queued",
            attempts=0,
            next_attempt_at=not_before or tx.now,
            created_at=tx.now,
        )
        .on_conflict_do_nothing(index_elements=["idempotency_key"])
    )
    return bool(getattr(result, "rowcount", 0))


async def set_contact(
    tx: Tx, phone: str, *, lang: str | None = None, opted_out: bool | None = None
) -> None:
    """Remember a telephone number's language or its STOP (an opt-out keeps its first day)."""
    contact = await tx.session.get(Contact, phone)
    if contact is None:
        contact = Contact(phone=phone, updated_at=tx.now)
        tx.session.add(contact)
    if lang is not None:
        contact.lang = lang
    if opted_out is not None:
        contact.opted_out_at = (contact.opted_out_at or tx.now) if opted_out else None
    contact.updated_at = tx.now
    await tx.session.flush()
