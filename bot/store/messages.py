"""Inbox and outbox: every message in and out, each exactly once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import String, Table, and_, bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import FromClause

from bot.observe.logformat import handling
from bot.observe.metrics import MESSAGES_ANSWERED, MESSAGES_FAILED, MESSAGES_RECEIVED
from bot.store.models import CaseRow, Contact, InboxRow, OutboxRow, User
from bot.store.tx import CASE_AHEAD, Store, Tx
from bot.support.dlt import PART

__all__ = [
    "SENDER_COLUMNS",
    "About",
    "Acted",
    "Handler",
    "Inbound",
    "act_on_inbound",
    "enqueue",
    "process_inbound",
    "sender_joined",
    "set_contact",
    "store_inbound",
]

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


_INBOX = cast(Table, InboxRow.__table__)
#: Built once: the inbox statements run for every message, and building costs more
#: than running them on SQLite.
_INBOX_INSERT = {
    name: insert(_INBOX)
    .values({c: bindparam(c) for c in ("channel", "provider_id", "sender", "body", "raw")})
    .values(received_at=bindparam("now"))
    .on_conflict_do_nothing(index_elements=["channel", "provider_id"])
    for name, insert in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
}
_INBOX_CLAIM = (
    select(_INBOX.c.id, _INBOX.c.processed_at, _INBOX.c.reply)
    .where(_INBOX.c.channel == bindparam("channel"))
    .where(_INBOX.c.provider_id == bindparam("provider_id"))
    .with_for_update()
)
_USERS, _CONTACTS = cast(Table, User.__table__), cast(Table, Contact.__table__)
_CASES = cast(Table, CaseRow.__table__)
#: Who a number is (``bot.channels.identity.sender_of``): the active user with it, if
#: any, and what its contact row says (its language, the channel it last wrote on).
SENDER_COLUMNS = (
    _USERS.c.id.label("user_id"),
    _USERS.c.role,
    _USERS.c.pound_code,
    _USERS.c.authority_code,
    _USERS.c.telegram_id,
    _USERS.c.name,
    _USERS.c.lang.label("user_lang"),
    _USERS.c.offices,
    _CONTACTS.c.lang.label("number_lang"),
    _CONTACTS.c.last_channel,
)


def sender_joined(source: FromClause, number: Any) -> FromClause:
    """``source`` (one row) with the ``SENDER_COLUMNS`` of ``number`` joined to it."""
    return source.outerjoin(
        _USERS, and_(_USERS.c.phone == number, _USERS.c.active.is_(True))
    ).outerjoin(_CONTACTS, _CONTACTS.c.phone == number)


#: The claim with the sender's user and contact read in the same statement (an SMS is
#: always asked who sent it: one statement fewer for every message).
_INBOX_CLAIM_WITH_SENDER = (
    select(_INBOX.c.id, _INBOX.c.processed_at, _INBOX.c.reply, *SENDER_COLUMNS)
    .select_from(sender_joined(_INBOX, bindparam("number", type_=String())))
    .where(_INBOX.c.channel == bindparam("channel"))
    .where(_INBOX.c.provider_id == bindparam("provider_id"))
    .with_for_update(of=_INBOX)
)
#: The same, with the row of the case the message names and the id of its last event
#: (``Tx.case_ahead``): an answer about a case kept folded reads nothing more.
_INBOX_CLAIM_WITH_SENDER_AND_CASE = (
    select(_INBOX.c.id, _INBOX.c.processed_at, _INBOX.c.reply, *SENDER_COLUMNS, *CASE_AHEAD)
    .select_from(
        sender_joined(_INBOX, bindparam("number", type_=String())).outerjoin(
            _CASES,
            and_(_CASES.c.pound_code == bindparam("pound"), _CASES.c.seq == bindparam("seq")),
        )
    )
    .where(_INBOX.c.channel == bindparam("channel"))
    .where(_INBOX.c.provider_id == bindparam("provider_id"))
    .with_for_update(of=_INBOX)
)
_INBOX_DONE = (
    update(_INBOX)
    .where(_INBOX.c.id == bindparam("row_id"))
    .values(reply=bindparam("reply"), processed_at=bindparam("now"), case_number=bindparam("about"))
)


async def process_inbound(store: Store, message: Inbound, handler: Handler) -> str:
    """Store the raw message, then act on it once; a repeat gets the same reply.

    1. The raw message is committed first (unique on channel + provider id), so a
       crash while acting on it loses nothing: it stays unprocessed and can be retried.
    2. Acting on it and marking it processed (with the reply) is one transaction,
       holding the inbox row's lock: a concurrent repeat waits, then reads the reply.

    Both steps are one turn on the Store (SQLite): a burst is answered in the order it
    came, each message stored and acted on before the next is stored.
    """
    async with store.turn():
        await store_inbound(store, message)
        return (await act_on_inbound(store, message, handler)).reply


async def store_inbound(store: Store, message: Inbound) -> None:
    """Step 1: commit the raw message (a repeat changes nothing)."""
    stored = await store.execute(
        _INBOX_INSERT[store.engine.dialect.name],
        {
            "channel": message.channel,
            "provider_id": message.provider_id,
            "sender": message.sender,
            "body": message.body,
            "raw": message.raw,
            "now": store.clock.now(),
        },
    )
    if stored:
        MESSAGES_RECEIVED.labels(message.channel).inc()


class Acted:
    """What step 2 found: the reply, and whether this call made it (False: a repeat)."""

    __slots__ = ("fresh", "reply")

    def __init__(self, reply: str, *, fresh: bool) -> None:
        self.reply = reply
        self.fresh = fresh


async def act_on_inbound(
    store: Store,
    message: Inbound,
    handler: Handler,
    *,
    sender: str | None = None,
    case: tuple[str, int] | None = None,
) -> Acted:
    """Step 2: act on a stored message and mark it processed, in one transaction; a
    message processed already (a repeat, or a sweep got there first) is left as it is.

    ``sender``: the number (as stored) whose user and contact are read with the claim,
    for the handler to find in ``Tx.read_ahead`` (``bot.channels.identity.sender_of``);
    ``case``: with ``sender``, the case the message names (``bot.store.tx.case_named``),
    its row read with them for ``Tx.load_case``.

    Every line logged while the message is handled names it (``bot.observe.logformat``); when
    handling fails, so does the caller's report of the failure (the id is left set)."""
    key = {"channel": message.channel, "provider_id": message.provider_id}
    handled = handling.set(f"{message.channel}:{message.provider_id}")
    try:
        async with store.transaction() as tx:
            claimed: Any
            if sender is None:
                claimed = (await tx.session.execute(_INBOX_CLAIM, key)).one()
            elif case is None:
                claimed = (
                    await tx.session.execute(_INBOX_CLAIM_WITH_SENDER, {**key, "number": sender})
                ).one()
                tx.read_ahead[("sender", sender)] = claimed
            else:
                named = {"pound": case[0], "seq": case[1]}
                claimed = (
                    await tx.session.execute(
                        _INBOX_CLAIM_WITH_SENDER_AND_CASE, {**key, "number": sender, **named}
                    )
                ).one()
                tx.read_ahead[("sender", sender)] = claimed
                tx.case_ahead(case, claimed[-len(CASE_AHEAD) :])
            row_id, processed_at, reply = claimed[:3]
            if processed_at is None:
                reply = await handler(tx)
                await tx.session.execute(
                    _INBOX_DONE,
                    {"row_id": row_id, "reply": reply, "now": tx.now, "about": tx.about_case},
                )
    except BaseException:  # rolled back: not acted on (cancelled too)
        MESSAGES_FAILED.labels(message.channel).inc()
        raise
    if processed_at is None:
        MESSAGES_ANSWERED.labels(message.channel).inc()  # committed
    handling.reset(handled)
    return Acted(str(reply or ""), fresh=processed_at is None)


class About(NamedTuple):
    """What a message about a case is (``bot.notifications.case_messages``): its kind, the
    case's number, the reader's language, and what the kind names (the day of the
    auction it announces; "" for none)."""

    kind: str
    case: str
    lang: str
    ref: str = ""


async def enqueue(
    tx: Tx,
    *,
    key: str,
    channel: str,
    recipient: str,
    body: str,
    not_before: datetime | None = None,
    content_sid: str | None = None,
    content_variables: str | None = None,
    purpose: str = "notice",
    about: About | None = None,
    case: str | None = None,
) -> bool:
    """Queue an outbound message once per idempotency key; False if it was queued already.
    ``content_sid`` and ``content_variables``: a WhatsApp template sent instead of ``body``.
    ``purpose``: why it is sent (``bot.adapters.outbox``: ``answer``, ``notice`` or
    ``staff``), read by the checks it passes when it is sent. ``about``: what a message
    about a case is (``About``), rendered again from the case when it is sent; ``case``:
    the case a message not rendered again is about (an answer), for the log.

    A body in parts (``sms_fit.in_parts``) goes by SMS as one SMS a part, in order (the
    first under ``key``, the next under ``key#2``, ...), each its own DLT template; on
    any other channel as one message, a part a line."""
    parts = [p for p in body.split(PART) if p.strip()] if PART in body else [body]
    if channel != "sms":
        parts = ["\n".join(parts)]
    queued = False
    for n, part in enumerate(parts):
        one = await _enqueue_one(
            tx,
            key=key if n == 0 else f"{key}#{n + 1}",
            channel=channel,
            recipient=recipient,
            body=part,
            not_before=not_before,
            content_sid=content_sid,
            content_variables=content_variables,
            purpose=purpose,
            about=about,
            case=case,
        )
        queued = queued or one
    return queued


async def _enqueue_one(
    tx: Tx,
    *,
    key: str,
    channel: str,
    recipient: str,
    body: str,
    not_before: datetime | None,
    content_sid: str | None,
    content_variables: str | None,
    purpose: str,
    about: About | None,
    case: str | None,
) -> bool:
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
            content_sid=content_sid,
            content_variables=content_variables,
            purpose=purpose,
            kind=about.kind if about else None,
            case_number=about.case if about else case,
            lang=about.lang if about else None,
            ref=about.ref if about else None,
        )
        .on_conflict_do_nothing(index_elements=["idempotency_key"])
    )
    queued = bool(getattr(result, "rowcount", 0))
    if queued:
        tx.queued.append(key)
    return queued


async def set_contact(
    tx: Tx,
    phone: str,
    *,
    lang: str | None = None,
    opted_out: bool | None = None,
    channel: str = "sms",
) -> None:
    """Remember a telephone number's language or its STOP (an opt-out keeps its first day);
    a STOP or START on WhatsApp (``channel``) is WhatsApp's alone."""
    contact = await tx.session.get(Contact, phone)
    if contact is None:
        contact = Contact(phone=phone, updated_at=tx.now)
        tx.session.add(contact)
    if lang is not None:
        contact.lang = lang
    if opted_out is not None and channel == "whatsapp":
        stopped = contact.whatsapp_stopped_at
        contact.whatsapp_stopped_at = (stopped or tx.now) if opted_out else None
    elif opted_out is not None:
        contact.opted_out_at = (contact.opted_out_at or tx.now) if opted_out else None
    contact.updated_at = tx.now
    await tx.session.flush()
