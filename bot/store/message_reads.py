"""The SQL of the web desk's log of messages (``bot.services.messages``): a page of the
inbox and the outbox, newest first, narrowed by case, number, channel, status and time.
Who may see which rows and how a row's status is named stay in the use case."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, false, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.store.models import InboxRow, OutboxRow, User

__all__ = ["FAILED", "STATUSES", "LogKey", "MessageLogReading", "log_key", "status_of_row"]

_QUEUED = ("queued", "sending")


#: The provider's statuses of a message given up (Twilio's, Exotel's).
FAILED = ("failed", "undelivered", "expired", "failed_dnd")

#: The statuses of the log, in the order the desk counts them (failed first).
STATUSES = (
    "failed",
    "dlt",
    "stop",
    "ceiling",
    "overtaken",
    "held",
    "queued",
    "sent",
    "delivered",
    "received",
    "answered",
)


def status_of_row(
    direction: str, status: str, last_error: str | None, attempts: int, due: Any, now: datetime
) -> str:
    """The status of the log (``STATUSES``) of a row as ``MessageReads.message_rows``
    gives it (``due``: when it is next tried; ``now``: the clock's time)."""
    if direction == "in":
        return "answered" if status == "answered" else "received"
    error = last_error or ""
    if status in FAILED:
        return "dlt" if error.startswith("dlt:") else "failed"
    if status == "dropped":
        name = error.split(":", 1)[0]
        return name if name in ("stop", "ceiling", "overtaken") else "failed"
    if status in ("delivered", "read"):
        return "delivered"
    if status == "sent":
        return "sent"
    if (
        status == "queued"
        and attempts == 0
        and due is not None
        and (due if due.tzinfo else due.replace(tzinfo=UTC)) > now
    ):
        return "held"
    return "queued"


def _outbox_status(status: str, now: datetime) -> ColumnElement[bool] | None:
    """The outbox rows of a status of the log (``STATUSES``); None: no outbox row has it."""
    o = OutboxRow
    held = and_(o.status == "queued", o.attempts == 0, o.next_attempt_at > now)
    dropped = {"stop": "stop:%", "ceiling": "ceiling:%", "overtaken": "overtaken:%"}
    if status == "queued":
        return and_(o.status.in_(_QUEUED), ~held)
    if status == "held":
        return held
    if status == "sent":
        return o.status == "sent"
    if status == "delivered":
        return o.status.in_(("delivered", "read"))
    if status == "failed":
        return and_(o.status.in_(FAILED), or_(o.last_error.is_(None), ~o.last_error.like("dlt:%")))
    if status == "dlt":
        return and_(o.status.in_(FAILED), o.last_error.like("dlt:%"))
    if status in dropped:
        return and_(o.status == "dropped", o.last_error.like(dropped[status]))
    return None


def _outbox_category(now: datetime) -> ColumnElement[str]:
    """The status of the log (``STATUSES``) of an outbox row, in SQL: what
    ``status_of_row`` says of it."""
    o = OutboxRow
    given_up, dropped = o.status.in_(FAILED), o.status == "dropped"
    return case(
        (and_(given_up, o.last_error.like("dlt:%")), "dlt"),
        (given_up, "failed"),
        *(
            (and_(dropped, o.last_error.like(f"{n}:%")), n)
            for n in ("stop", "ceiling", "overtaken")
        ),
        (dropped, "failed"),
        (o.status.in_(("delivered", "read")), "delivered"),
        (o.status == "sent", "sent"),
        (and_(o.status == "queued", o.attempts == 0, o.next_attempt_at > now), "held"),
        else_="queued",
    )


def _aware(moment: datetime) -> datetime:
    """A time read back from SQLite (naive, in UTC) made comparable."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


#: The place of a message in the log's order (newest first): its time, its direction
#: ("in" before "out" at the same time, reading up), its row's id.
LogKey = tuple[datetime, str, int]


def log_key(row: tuple[Any, ...]) -> LogKey:
    """The key of a row as ``message_rows`` gives it."""
    return (_aware(row[1]), str(row[0]), int(row[12]))


def _from_key(
    at: Any, row_id: Any, direction: str, before: LogKey | None, after: LogKey | None
) -> list[ColumnElement[bool]]:
    """The conditions on one source (``direction``: "in" the inbox, "out" the outbox) of
    the rows older than ``before`` and newer than ``after``, in the order (time,
    direction, id)."""
    where: list[ColumnElement[bool]] = []
    if before is not None:
        t, d, key_id = before
        if d == direction:
            where.append(or_(at < t, and_(at == t, row_id < key_id)))
        else:  # the other source's rows at t come before ("in" < "out") or after it
            where.append(at < t if direction > d else at <= t)
    if after is not None:
        t, d, key_id = after
        if d == direction:
            where.append(or_(at > t, and_(at == t, row_id > key_id)))
        else:
            where.append(at > t if direction < d else at >= t)
    return where


def _order(at: Any, row_id: Any, newest_first: bool) -> tuple[Any, Any]:
    return (at.desc(), row_id.desc()) if newest_first else (at.asc(), row_id.asc())


class MessageLogReading:
    """The log's reads as methods of the transaction (``bot.store.tx.Tx``)."""

    session: AsyncSession

    async def message_counts(
        self, pounds: list[str] | None, *, since: datetime, until: datetime, now: datetime
    ) -> dict[str, int]:
        """How many messages from ``since`` up to before ``until`` have each status of the
        log (``STATUSES``; none: left out), counted by the database: those about cases of
        ``pounds``, in and out (None: every message)."""
        o, i = OutboxRow, InboxRow
        status = _outbox_category(now)
        outs = select(status, func.count()).where(o.created_at >= since, o.created_at < until)
        if pounds is not None:
            outs = outs.where(_of_pounds(o.case_number, pounds))
        counted = {str(s): int(n) for s, n in (await self.session.execute(outs.group_by(status)))}
        answered = i.processed_at.is_not(None)
        ins = (
            select(answered, func.count())
            .where(i.received_at >= since, i.received_at < until)
            .group_by(answered)
        )
        if pounds is not None:
            ins = ins.where(_of_pounds(i.case_number, pounds))
        for done, n in await self.session.execute(ins):
            counted["answered" if done else "received"] = int(n)
        return counted

    async def message_rows(
        self,
        pounds: list[str] | None,
        *,
        case: str,
        phone: str,
        channel: str,
        status: str,
        since: datetime | None,
        until: datetime | None,
        now: datetime,
        upto: int,
        before: LogKey | None = None,
        after: LogKey | None = None,
    ) -> list[tuple[Any, ...]]:
        """Up to ``upto`` messages, newest first, older than the key ``before`` or (the ``upto``
        nearest to it) newer than ``after`` when given (a keyset: each source read by its index from
        the key on, however deep the page): those about cases of ``pounds``, in and out (None:
        every message), narrowed by the filters given (empty: not narrowed; ``case`` as
        stored, ``KNM-17``; ``since`` up to before ``until``). Each row: direction ("in", "out"),
        time, channel, number, status ("received" or "answered" for the inbox, the outbox's own),
        last_error, attempts, next_attempt_at, template, case_number, body, sent_at, id; then, for a
        message out, when it was sent again and by whom (a user's name) and the id of the row that
        sends it again, and the id of the row it sends again (None, or for a message in: each None);
        and when it was purged (None: not)."""
        o, i, again = OutboxRow, InboxRow, aliased(OutboxRow)
        out_where: list[Any] = []
        if pounds is not None:
            out_where.append(_of_pounds(o.case_number, pounds))
        if case:
            out_where.append(o.case_number == case)
        if phone:
            out_where.append(o.recipient == phone)
        if channel:
            out_where.append(o.channel == channel)
        if since is not None:
            out_where.append(o.created_at >= since)
        if until is not None:
            out_where.append(o.created_at < until)
        out_where += _from_key(o.created_at, o.id, "out", before, after)
        newest_first = after is None
        found: list[tuple[Any, ...]] = []
        wanted = _outbox_status(status, now) if status else None
        if not status or wanted is not None:
            if wanted is not None:
                out_where.append(wanted)
            outs = (
                select(
                    literal("out"),
                    o.created_at,
                    o.channel,
                    o.recipient,
                    o.status,
                    o.last_error,
                    o.attempts,
                    o.next_attempt_at,
                    o.template,
                    o.case_number,
                    o.body,
                    o.sent_at,
                    o.id,
                    o.resent_at,
                    User.name,
                    select(again.id).where(again.resend_of == o.id).limit(1).scalar_subquery(),
                    o.resend_of,
                    o.purged_at,
                )
                .outerjoin(User, User.id == o.resent_by)
                .where(*out_where)
                .order_by(*_order(o.created_at, o.id, newest_first))
                .limit(upto)
            )
            found += [tuple(r) for r in (await self.session.execute(outs)).all()]
        if status in ("", "received", "answered"):
            in_where: list[Any] = []
            if pounds is not None:
                in_where.append(_of_pounds(i.case_number, pounds))
            if case:
                in_where.append(i.case_number == case)
            if phone:
                in_where.append(i.sender == phone)
            if channel:
                in_where.append(i.channel == channel)
            if since is not None:
                in_where.append(i.received_at >= since)
            if until is not None:
                in_where.append(i.received_at < until)
            if status == "received":
                in_where.append(i.processed_at.is_(None))
            if status == "answered":
                in_where.append(i.processed_at.is_not(None))
            in_where += _from_key(i.received_at, i.id, "in", before, after)
            answered = i.processed_at.is_not(None)
            ins = (
                select(
                    literal("in"),
                    i.received_at,
                    i.channel,
                    i.sender,
                    answered,
                    literal(None),
                    literal(0),
                    literal(None),
                    literal(None),
                    i.case_number,
                    i.body,
                    i.processed_at,
                    i.id,
                    literal(None),
                    literal(None),
                    literal(None),
                    literal(None),
                    i.purged_at,
                )
                .where(*in_where)
                .order_by(*_order(i.received_at, i.id, newest_first))
                .limit(upto)
            )
            found += [
                ("in", r[1], r[2], r[3], "answered" if r[4] else "received", *r[5:])
                for r in (await self.session.execute(ins)).all()
            ]
        found.sort(key=lambda r: (_aware(r[1]), r[0], r[12]), reverse=newest_first)
        kept = found[:upto]
        return kept if newest_first else kept[::-1]


def _of_pounds(number: Any, pounds: list[str]) -> ColumnElement[bool]:
    """A case number of one of ``pounds``: ``KNM-17`` is of ``KNM`` (``<POUND>-<n>``, and
    ``.`` follows ``-``), as ranges of the outbox's index by case number, so that a day's
    count reads the messages of those pounds' cases and not every message of the state's
    day joined to the pounds' cases."""
    return or_(*(and_(number >= f"{p}-", number < f"{p}.") for p in pounds), false())
