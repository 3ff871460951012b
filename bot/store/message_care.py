"""The SQL of the care of the log of messages (``bot.services.messages``,
``bot.services.retention``): a failed message read for sending again, marked sent again
once and queued as a new row; the personal data of old messages purged in batches.
Who may send which message again, and when a message is old enough to purge, stay in the
use cases."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Select, and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.store.models import CaseRow, InboxRow, OutboxRow, User
from bot.support.phones import strip_phones

__all__ = ["PURGED", "UNSENT", "MessageCare", "OutboxMessage", "resend_key"]

#: What a purged number reads (nothing of the number is kept).
PURGED = "purged"

#: The statuses of a message not yet given its outcome: never purged.
UNSENT = ("queued", "sending")


class OutboxMessage(NamedTuple):
    """An outbound message as sending it again reads it: its status, the pound of its
    case (None: about no case), whether and by whom and when it was sent again (and the
    new row), whether it was purged."""

    id: int
    status: str
    last_error: str | None
    attempts: int
    next_attempt_at: datetime
    pound: str | None
    resent_at: datetime | None
    resent_by: str | None
    resent_as: int | None
    purged_at: datetime | None


def resend_key(row_id: int, key: str) -> str:
    """The idempotency key of the sending again of row ``row_id`` keyed ``key``:
    ``resend:<id>``, and the original's part (``#2``) when it was a part of an SMS in
    parts, so that a message about a case is written again as that part."""
    _, mark, n = key.rpartition("#")
    return f"resend:{row_id}" + (f"#{n}" if mark and n.isdecimal() else "")


class MessageCare:
    """The writes of the log's care as methods of the transaction (``bot.store.tx.Tx``)."""

    session: AsyncSession
    now: datetime
    queued: list[str]

    async def outbox_message(
        self, row_id: int, *, for_update: bool = False
    ) -> OutboxMessage | None:
        """The outbound message ``row_id`` (None: none has that id), its row locked for
        the rest of the transaction when ``for_update`` (PostgreSQL; SQLite's writers
        take turns)."""
        o, again = OutboxRow, aliased(OutboxRow)
        query = (
            select(
                o.id,
                o.status,
                o.last_error,
                o.attempts,
                o.next_attempt_at,
                CaseRow.pound_code,
                o.resent_at,
                User.name,
                select(again.id).where(again.resend_of == o.id).limit(1).scalar_subquery(),
                o.purged_at,
            )
            .outerjoin(CaseRow, CaseRow.number == o.case_number)
            .outerjoin(User, User.id == o.resent_by)
            .where(o.id == row_id)
        )
        if for_update:
            query = query.with_for_update(of=o)
        found = (await self.session.execute(query)).first()
        return OutboxMessage(*found) if found is not None else None

    async def send_again(self, row_id: int, by: int | None) -> int | None:
        """Mark the row ``row_id`` sent again by the user ``by`` now, if it was not sent
        again yet and is not purged, and queue a copy of it as a new row (due now, no
        attempt made, keyed ``resend_key``): the new row's id; None when another sending
        again came first (nothing changed)."""
        o = OutboxRow
        marked = await self.session.execute(
            update(o)
            .where(o.id == row_id, o.resent_at.is_(None), o.purged_at.is_(None))
            .values(resent_by=by, resent_at=self.now)
            .execution_options(synchronize_session=False)
        )
        if not getattr(marked, "rowcount", 0):
            return None
        old = await self.session.get(o, row_id, populate_existing=True)
        assert old is not None  # marked above, in this transaction
        key = resend_key(old.id, old.idempotency_key)
        new = OutboxRow(
            idempotency_key=key,
            channel=old.channel,
            recipient=old.recipient,
            body=old.body,
            status="queued",
            attempts=0,
            next_attempt_at=self.now,
            created_at=self.now,
            content_sid=old.content_sid,
            content_variables=old.content_variables,
            purpose=old.purpose,
            kind=old.kind,
            case_number=old.case_number,
            lang=old.lang,
            ref=old.ref,
            resend_of=old.id,
        )
        self.session.add(new)
        await self.session.flush()
        self.queued.append(key)
        return new.id

    async def purge_counts(self, before: datetime) -> tuple[int, int]:
        """How many messages in and out, received or queued before ``before``, a purge
        would take (``purge_batch``): those not purged yet, and not queued or being sent."""
        ins = select(func.count()).select_from(_inbox_due(before).subquery())
        outs = select(func.count()).select_from(_outbox_due(before).subquery())
        return int(await self.session.scalar(ins) or 0), int(await self.session.scalar(outs) or 0)

    async def purge_batch(self, before: datetime, limit: int) -> tuple[int, int]:
        """Purge up to ``limit`` messages in and out received or queued before ``before``
        (``purge_counts``' messages), oldest first: the body emptied, the number
        ``PURGED``, the raw request and the reply of a message in, a template's
        variables of one out; ``purged_at`` now. The row, its time, channel and status
        stay. How many messages in and out were purged ((0, 0): none is left)."""
        i, o = InboxRow, OutboxRow
        in_ids = list((await self.session.scalars(_inbox_due(before).limit(limit))).all())
        if in_ids:
            await self.session.execute(
                update(i)
                .where(i.id.in_(in_ids), i.purged_at.is_(None))
                .values(body="", sender=PURGED, raw={}, reply=None, purged_at=self.now)
                .execution_options(synchronize_session=False)
            )
        left = limit - len(in_ids)
        out_ids = (
            list((await self.session.scalars(_outbox_due(before).limit(left))).all())
            if left > 0
            else []
        )
        if out_ids:
            await self.session.execute(
                update(o)
                .where(o.id.in_(out_ids), o.purged_at.is_(None), o.status.not_in(UNSENT))
                .values(body="", recipient=PURGED, content_variables=None, purged_at=self.now)
                .execution_options(synchronize_session=False)
            )
            await self._purge_errors(out_ids)
        return len(in_ids), len(out_ids)

    async def _purge_errors(self, out_ids: list[int]) -> None:
        """The last error of each of ``out_ids`` without the telephone numbers a provider's
        answer may quote (``strip_phones``); the rest of it (the reason it failed) kept."""
        o = OutboxRow
        rows = await self.session.execute(
            select(o.id, o.last_error).where(o.id.in_(out_ids), o.last_error.is_not(None))
        )
        for row_id, error in rows.all():
            kept = strip_phones(error or "")
            if kept != error:
                await self.session.execute(
                    update(o)
                    .where(o.id == row_id)
                    .values(last_error=kept)
                    .execution_options(synchronize_session=False)
                )


def _inbox_due(before: datetime) -> Select[int]:
    i = InboxRow
    return select(i.id).where(i.received_at < before, i.purged_at.is_(None)).order_by(i.id)


def _outbox_due(before: datetime) -> Select[int]:
    o = OutboxRow
    return (
        select(o.id)
        .where(and_(o.created_at < before, o.purged_at.is_(None), o.status.not_in(UNSENT)))
        .order_by(o.id)
    )
