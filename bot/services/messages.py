"""The web desk's log of messages: every message in and out, newest first, narrowed by
case, number, channel, status and day, and Today's counts of the day by status.

Who sees what: a state admin every message, with full numbers and bodies; an authority
admin the messages about cases of their authority's pounds, with full numbers; an officer
those same messages, the numbers masked (the last four digits). Neither sees another
authority's, nor a message about no case (the inbox's, the replies to strangers): those
are the state admin's alone. A keeper is refused: the log is the office's, not the
pound's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Protocol

from bot.observe.logsafe import mask_phone
from bot.services.base import Deps
from bot.services.desk import pounds_of
from bot.store.message_reads import STATUSES, status_of_row
from bot.support.caller import ADMIN, OFFICER, Caller
from bot.support.errors import BadInputError, NotAllowedError

__all__ = [
    "PAGE",
    "STATUSES",
    "MessageFilter",
    "MessageItem",
    "MessageLog",
    "MessageReads",
    "day_counts",
    "log",
    "status_of_row",
]

#: How many messages a page of the log shows.
PAGE = 50


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
    ) -> list[tuple[Any, ...]]: ...

    async def message_counts(
        self, pounds: list[str] | None, *, since: datetime, until: datetime, now: datetime
    ) -> dict[str, int]: ...


@dataclass(frozen=True, slots=True)
class MessageFilter:
    """What the log is narrowed to; empty fields narrow nothing."""

    case: str = ""
    phone: str = ""
    channel: str = ""
    status: str = ""
    day: date | None = None
    page: int = 1


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


@dataclass(frozen=True, slots=True)
class MessageLog:
    """A page of the log and whether older messages follow."""

    items: list[MessageItem]
    page: int
    more: bool
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
    page = max(1, wanted.page)
    rows = await tx.message_rows(
        pounds,
        case=_case(wanted.case) if wanted.case.strip() else "",
        phone=_phone(wanted.phone) if wanted.phone.strip() else "",
        channel=wanted.channel,
        status=wanted.status if wanted.status in STATUSES else "",
        since=since,
        until=until,
        now=deps.clock.now(),
        upto=page * PAGE + 1,
    )
    now = deps.clock.now()
    shown = rows[(page - 1) * PAGE :]
    whole = caller.is_admin  # an officer reads the last four digits of a number
    items = [
        MessageItem(
            at=r[1],
            direction=r[0],
            channel=r[2],
            number=r[3] if whole else mask_phone(r[3]),
            status=status_of_row(r[0], r[4], r[5], r[6], r[7], now),
            template=r[8] or "",
            case=r[9] or "",
            body=r[10],
            done_at=r[11],
        )
        for r in shown[:PAGE]
    ]
    return MessageLog(items, page, len(shown) > PAGE)


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
