"""The web desk's log of messages: every message in and out, newest first, narrowed by
case, number, channel, status and day, and Today's counts of the day by status.

Who sees what: a state admin every message, with full numbers and bodies; an authority
admin the messages about cases of their authority's pounds, sent and received (a message
received is about the case acting on it found: ``InboxRow.case_number``), with full
numbers; an officer those same messages, the numbers masked (the last four digits).
Neither sees another authority's, nor a message about no case (a HELP, the replies to
strangers): those are the state admin's alone. A keeper is refused: the log is the office's, not the
pound's.

A message out that failed (or that DLT refused) may be sent again, once (``resend``), by
anyone who sees it in the log: a new row is queued, a copy of it, which passes every
check of the send gate when it is sent (a STOP since, the ceiling, DLT, a case that has
moved on); the failed row records who sent it again and when. A message whose text and
number were purged (``bot.services.retention``) shows when.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Protocol

from bot.observe.logsafe import mask_phone
from bot.services.base import Deps
from bot.services.desk import pounds_of
from bot.store.message_care import OutboxMessage
from bot.store.message_reads import STATUSES, LogKey, log_key, status_of_row
from bot.support.caller import ADMIN, OFFICER, Caller
from bot.support.errors import (
    BadInputError,
    NotAllowedError,
    NotFailedError,
    PurgedMessageError,
    UnknownMessageError,
)

__all__ = [
    "PAGE",
    "RESENDABLE",
    "STATUSES",
    "MessageFilter",
    "MessageItem",
    "MessageLog",
    "MessageReads",
    "Resending",
    "Resent",
    "cursor",
    "day_counts",
    "log",
    "resend",
    "status_of_row",
]

#: How many messages a page of the log shows.
PAGE = 50

#: The statuses of the log of a message that may be sent again: given up by the
#: provider, or refused by DLT (``bot.store.message_reads.STATUSES``).
RESENDABLE = ("failed", "dlt")


class MessageReads(Protocol):
    """The log's read (``bot.store.message_reads``; the memory store's fake)."""

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
    ) -> list[tuple[Any, ...]]: ...

    async def message_counts(
        self, pounds: list[str] | None, *, since: datetime, until: datetime, now: datetime
    ) -> dict[str, int]: ...


class Resending(Protocol):
    """What sending a message again reads and writes (``bot.store.message_care``)."""

    now: datetime

    async def outbox_message(
        self, row_id: int, *, for_update: bool = False
    ) -> OutboxMessage | None: ...

    async def send_again(self, row_id: int, by: int | None) -> int | None: ...


@dataclass(frozen=True, slots=True)
class MessageFilter:
    """What the log is narrowed to; empty fields narrow nothing."""

    case: str = ""
    phone: str = ""
    channel: str = ""
    status: str = ""
    day: date | None = None
    #: The page's number, as shown (1: the newest messages).
    page: int = 1
    #: Where the page begins: after the message whose ``cursor`` is ``older`` (the next
    #: page down), or before the one whose cursor is ``newer`` (the page up); "" both: the
    #: newest messages.
    older: str = ""
    newer: str = ""


@dataclass(frozen=True, slots=True)
class MessageItem:
    """A line of the log: its time, direction, channel, number (masked for an officer),
    status, DLT template, case and body."""

    at: datetime
    direction: str
    channel: str
    number: str
    status: str
    template: str
    case: str
    body: str
    done_at: datetime | None
    #: Its row's id (of the inbox or the outbox, by ``direction``).
    id: int = 0
    #: Sent again: when, by whom, as which row (None: not sent again).
    resent_at: datetime | None = None
    resent_by: str = ""
    resent_as: int | None = None
    #: The row this one sends again (None: a message of its own).
    resend_of: int | None = None
    #: Purged after this many days (None: not purged): no body, no number.
    purged_after: int | None = None
    #: Whether the reader may send it again (``resend``).
    may_resend: bool = False


@dataclass(frozen=True, slots=True)
class Resent:
    """What sending a message again did: the new row queued (``again``), by whom and
    when; ``already``: it had been sent again before (then by whom, when, as which row),
    and nothing was changed."""

    message: int
    again: int | None
    by: str
    at: datetime
    already: bool = False


@dataclass(frozen=True, slots=True)
class MessageLog:
    """A page of the log and whether older messages follow."""

    items: list[MessageItem]
    page: int
    more: bool
    #: The cursors of the pages down (older messages; "" none) and up (newer; "" none).
    older: str = ""
    newer: str = ""
    statuses: tuple[str, ...] = STATUSES
    channels: tuple[str, ...] = field(default=("sms", "whatsapp", "telegram"))


def _pounds(deps: Deps, caller: Caller) -> list[str] | None:
    """None for a state admin (every message); an authority admin's or an officer's
    authority's pounds; else refused."""
    if caller.is_state_admin:
        return None
    if caller.role in (ADMIN, OFFICER):
        return pounds_of(deps, caller)
    raise NotAllowedError("only an officer or an admin reads the log of messages")


def _case(text: str) -> str:
    """A case number in any spelling the desk accepts, as stored (``KNM-17``)."""
    from bot.store.tx import parse_case_number

    pound, seq = parse_case_number(text)
    return f"{pound}-{seq}"


def _phone(text: str) -> str:
    from bot.support.phones import PhoneError, normalize_phone

    try:
        return normalize_phone(text)
    except PhoneError:
        raise BadInputError("not a phone number", text=text) from None


def _day_bounds(deps: Deps, day: date) -> tuple[datetime, datetime]:
    zone = deps.config.reminders.timezone
    start = datetime.combine(day, time(0), tzinfo=zone)
    return start, start + timedelta(days=1)


async def log(tx: MessageReads, deps: Deps, caller: Caller, wanted: MessageFilter) -> MessageLog:
    """A page of the messages the caller may see, newest first."""
    pounds = _pounds(deps, caller)
    since, until = _day_bounds(deps, wanted.day) if wanted.day else (None, None)
    before, after = _cursor(wanted.older), _cursor(wanted.newer)
    if before is None and after is None:
        page = 1
    else:
        page = max(2, wanted.page) if after is None else max(1, wanted.page)
    rows = await tx.message_rows(
        pounds,
        case=_case(wanted.case) if wanted.case.strip() else "",
        phone=_phone(wanted.phone) if wanted.phone.strip() else "",
        channel=wanted.channel,
        status=wanted.status if wanted.status in STATUSES else "",
        since=since,
        until=until,
        now=deps.clock.now(),
        upto=PAGE + 1,
        before=before,
        after=after,
    )
    now = deps.clock.now()
    if after is not None:  # the page up: the PAGE nearest to it, and whether more are above
        above = len(rows) > PAGE
        rows = rows[-PAGE:]
        page = max(2, page) if above else 1
        more = True
    else:
        above, more = before is not None, len(rows) > PAGE
        rows = rows[:PAGE]
    # an officer reads the last four digits of a number; an admin, of any scope, all
    items = [_item(r, now, admin=caller.is_admin) for r in rows]
    older = cursor(log_key(rows[-1])) if more and rows else ""
    newer = cursor(log_key(rows[0])) if above and rows else ""
    return MessageLog(items, page, bool(older), older, newer)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def cursor(key: LogKey) -> str:
    """A page's cursor: the key of a message as text for a link (``KEY-DIR-ID``, the time
    in microseconds)."""
    at, direction, row_id = key
    return f"{(at - _EPOCH) // timedelta(microseconds=1)}-{direction}-{row_id}"


def _cursor(text: str) -> LogKey | None:
    """The key of a cursor (None: none, or not one: the newest messages)."""
    parts = text.split("-")
    if len(parts) != 3 or parts[1] not in ("in", "out"):
        return None
    micros, direction, row_id = parts
    if not (micros.isascii() and micros.isdigit() and row_id.isascii() and row_id.isdigit()):
        return None
    if len(micros) > 18 or len(row_id) > 12:
        return None
    return (_EPOCH + timedelta(microseconds=int(micros)), direction, int(row_id))


def _item(r: tuple[Any, ...], now: datetime, *, admin: bool) -> MessageItem:
    """A line of the log from a row as ``MessageReads.message_rows`` gives it."""
    status = status_of_row(r[0], r[4], r[5], r[6], r[7], now)
    purged = r[17]
    return MessageItem(
        at=r[1],
        direction=r[0],
        channel=r[2],
        number="" if purged is not None else r[3] if admin else mask_phone(r[3]),
        status=status,
        template=r[8] or "",
        case=r[9] or "",
        body="" if purged is not None else r[10],
        done_at=r[11],
        id=r[12],
        resent_at=r[13],
        resent_by=r[14] or "",
        resent_as=r[15],
        resend_of=r[16],
        purged_after=_days_between(r[1], purged) if purged is not None else None,
        may_resend=r[0] == "out" and status in RESENDABLE and r[13] is None and purged is None,
    )


def _days_between(start: datetime, end: datetime) -> int:
    """Whole days from ``start`` to ``end`` (SQLite's times, naive, are UTC)."""
    aware = [t if t.tzinfo is not None else t.replace(tzinfo=UTC) for t in (start, end)]
    return max(0, (aware[1] - aware[0]).days)


async def resend(tx: Resending, deps: Deps, caller: Caller, message: int) -> Resent:
    """Send the failed message out ``message`` again, once: a copy queued as a new row
    (``bot.store.message_care.MessageCare.send_again``), which the send gate checks as
    any message when it is sent. An admin may send any such message again, an officer
    one about a case of their authority's pounds (those the log shows them); a keeper
    is refused. Refused too: a message that is unknown, did not fail, or was purged. One
    sent again already (a second click, another tab, another instance) is left as it
    is: the outcome says by whom and when (``already``)."""
    pounds = _pounds(deps, caller)
    found = await tx.outbox_message(message, for_update=True)
    if found is None:
        raise UnknownMessageError("no such message", id=message)
    if pounds is not None and found.pound not in pounds:
        raise NotAllowedError("a message about another authority's case, or none")
    if found.resent_at is not None:
        if found.resent_as is None:  # its lock waited for that sending again: read its row
            found = await tx.outbox_message(message) or found
        return _already(found)
    if found.purged_at is not None:
        raise PurgedMessageError("purged", id=message)
    status = status_of_row(
        "out", found.status, found.last_error, found.attempts, found.next_attempt_at, tx.now
    )
    if status not in RESENDABLE:
        raise NotFailedError("only a failed message is sent again", id=message, status=status)
    again = await tx.send_again(found.id, caller.user_id)
    if again is None:  # another sending again came first, since it was read
        now_found = await tx.outbox_message(message)
        assert now_found is not None
        return _already(now_found)
    return Resent(found.id, again, caller.name, tx.now)


def _already(found: OutboxMessage) -> Resent:
    assert found.resent_at is not None
    return Resent(found.id, found.resent_as, found.resent_by or "", found.resent_at, already=True)


async def day_counts(tx: MessageReads, deps: Deps, caller: Caller) -> list[tuple[str, int]]:
    """Today's messages the caller may see, counted by status, failed first (statuses
    with none left out); none for a keeper."""
    if caller.role not in (ADMIN, OFFICER):
        return []
    pounds = _pounds(deps, caller)
    since, until = _day_bounds(deps, deps.today())
    now = deps.clock.now()
    counted = await tx.message_counts(pounds, since=since, until=until, now=now)
    return [(s, counted[s]) for s in STATUSES if s in counted]
