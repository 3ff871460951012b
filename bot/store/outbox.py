"""The SQL of the outbox's delivery (``bot.adapters.outbox``): the claim of due messages
under a lease (``FOR UPDATE SKIP LOCKED``, one message per recipient on a paced
channel), the lease renewed before a send, the rows given back, the outcome of a send,
what the send gate wrote again or dropped; and a message found by its key. Queuing a
message is ``bot.store.messages.enqueue``."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, func, not_, or_, select, update

from bot.store.instances import taken_over
from bot.store.models import OutboxRow
from bot.store.tx import Tx

__all__ = [
    "claim_due",
    "dlt_refusal",
    "drop",
    "failed_since",
    "finish",
    "give_back",
    "message_keyed",
    "reminders_queued",
    "renew_lease",
    "rewrite",
    "set_template",
    "undelivered",
]


def _due(
    now: datetime, channels: Sequence[str], busy: Mapping[str, Collection[str]]
) -> list[ColumnElement[bool]]:
    """Due messages of ``channels``, leaving out the ``busy`` recipients of a channel."""
    where: list[ColumnElement[bool]] = [
        OutboxRow.channel.in_(channels),
        or_(
            and_(OutboxRow.status == "queued", OutboxRow.next_attempt_at <= now),
            and_(
                OutboxRow.status == "sending",
                or_(OutboxRow.claimed_until < now, taken_over(OutboxRow.claimed_by, now)),
            ),
        ),
    ]
    for channel, recipients in busy.items():
        if recipients:
            where.append(
                not_(and_(OutboxRow.channel == channel, OutboxRow.recipient.in_(recipients)))
            )
    return where


async def claim_due(
    tx: Tx,
    worker: str,
    channels: Sequence[str],
    limit: int,
    until: datetime,
    busy: Mapping[str, Collection[str]],
) -> list[OutboxRow]:
    """Lease up to ``limit`` due messages of ``channels`` to ``worker`` until ``until``,
    one attempt more each, oldest first; on a channel named in ``busy``, only the oldest
    of each recipient and none for the recipients it names."""
    now = tx.now
    ranked = (
        select(
            OutboxRow.id,
            OutboxRow.channel,
            func.row_number()
            .over(
                partition_by=(OutboxRow.channel, OutboxRow.recipient),
                order_by=(OutboxRow.next_attempt_at, OutboxRow.id),
            )
            .label("nth"),
        )
        .where(*_due(now, channels, busy))
        .subquery()
    )
    first = or_(ranked.c.nth == 1, ranked.c.channel.not_in(list(busy)))
    # The window is one level down: PostgreSQL refuses FOR UPDATE beside it. The due
    # conditions are repeated on the locked rows: PostgreSQL rechecks only those on a
    # row another worker has just claimed and committed, so without them the row
    # would be claimed (and sent) a second time.
    due = (
        select(OutboxRow.id)
        .where(OutboxRow.id.in_(select(ranked.c.id).where(first)), *_due(now, channels, busy))
        .order_by(OutboxRow.next_attempt_at, OutboxRow.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    ids = (
        (
            await tx.session.execute(
                update(OutboxRow)
                .where(OutboxRow.id.in_(due.scalar_subquery()))
                .values(
                    status="sending",
                    claimed_by=worker,
                    claimed_until=until,
                    attempts=OutboxRow.attempts + 1,
                )
                .returning(OutboxRow.id)
                .execution_options(synchronize_session=False)
            )
        )
        .scalars()
        .all()
    )
    if not ids:
        return []
    rows = await tx.session.execute(
        select(OutboxRow)
        .where(OutboxRow.id.in_(ids))
        .order_by(OutboxRow.next_attempt_at, OutboxRow.id)
    )
    return list(rows.scalars())


async def renew_lease(tx: Tx, row_id: int, worker: str, until: datetime) -> bool:
    """Lease the row ``row_id`` until ``until``, if it is still ``worker``'s and being
    sent; whether it was."""
    result = await tx.session.execute(
        update(OutboxRow)
        .where(
            OutboxRow.id == row_id,
            OutboxRow.claimed_by == worker,
            OutboxRow.status == "sending",
        )
        .values(claimed_until=until)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))


async def give_back(tx: Tx, row_ids: Sequence[int], worker: str) -> None:
    """Those of ``row_ids`` that ``worker`` is sending: queued again, due at once, the
    claim not counted as an attempt."""
    await tx.session.execute(
        update(OutboxRow)
        .where(
            OutboxRow.id.in_(row_ids),
            OutboxRow.claimed_by == worker,
            OutboxRow.status == "sending",
        )
        .values(
            status="queued",
            claimed_by=None,
            claimed_until=None,
            attempts=OutboxRow.attempts - 1,
        )
        .execution_options(synchronize_session=False)
    )


async def finish(tx: Tx, row_id: int, worker: str, **values: object) -> None:
    """The outcome ``values`` of a send of the row ``row_id``, its lease ended, if the
    lease is still ``worker``'s."""
    await tx.session.execute(
        update(OutboxRow)
        .where(OutboxRow.id == row_id, OutboxRow.claimed_by == worker)
        .values(claimed_until=None, **values)
    )


async def set_template(tx: Tx, row_id: int, template: str) -> None:
    """Record the DLT template an SMS goes under."""
    await tx.session.execute(
        update(OutboxRow).where(OutboxRow.id == row_id).values(template=template)
    )


async def rewrite(tx: Tx, row_id: int, worker: str, body: str) -> None:
    """The text of the row ``row_id``, written again, if ``worker`` holds it."""
    await tx.session.execute(
        update(OutboxRow)
        .where(OutboxRow.id == row_id, OutboxRow.claimed_by == worker)
        .values(body=body)
    )


async def drop(tx: Tx, row_id: int, worker: str, reason: str) -> None:
    """The row ``row_id`` dropped for ``reason``, if ``worker`` holds it."""
    await tx.session.execute(
        update(OutboxRow)
        .where(OutboxRow.id == row_id, OutboxRow.claimed_by == worker)
        .values(status="dropped", claimed_until=None, last_error=reason)
    )


async def failed_since(tx: Tx, since: datetime) -> list[OutboxRow]:
    """The messages given up, queued since ``since``, by id."""
    rows = await tx.session.execute(
        select(OutboxRow)
        .where(OutboxRow.status == "failed", OutboxRow.created_at >= since)
        .order_by(OutboxRow.id)
    )
    return list(rows.scalars())


async def dlt_refusal(tx: Tx) -> str | None:
    """The reason of a message given up because DLT refused it, if one was."""
    query = select(OutboxRow.last_error).where(
        OutboxRow.status == "failed", OutboxRow.last_error.startswith("dlt:")
    )
    return (await tx.session.scalars(query)).first()


async def undelivered(tx: Tx, channels: Sequence[str] = ()) -> int:
    """How many messages of ``channels`` (every channel if none is named) are due or
    being sent."""
    due = or_(
        (OutboxRow.status == "queued") & (OutboxRow.next_attempt_at <= tx.now),
        OutboxRow.status == "sending",
    )
    query = select(func.count()).where(due)
    if channels:
        query = query.where(OutboxRow.channel.in_(channels))
    return int(await tx.session.scalar(query) or 0)


async def reminders_queued(tx: Tx) -> list[OutboxRow]:
    """Every reminder message queued (key ``rem:``), by id."""
    rows = await tx.session.execute(
        select(OutboxRow).where(OutboxRow.idempotency_key.startswith("rem:")).order_by(OutboxRow.id)
    )
    return list(rows.scalars())


async def message_keyed(tx: Tx, key: str) -> OutboxRow | None:
    """The outbox row with the idempotency key ``key``."""
    return await tx.session.scalar(select(OutboxRow).where(OutboxRow.idempotency_key == key))
