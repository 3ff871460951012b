"""Tables. Money is integer paise (BIGINT); times are stored in UTC.

Why it is long: every table of the database, so that the schema reads in one place."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    event,
    select,
    text,
    union,
)
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from bot.store.search_text import IN_POUND_SQL

__all__ = [
    "Authority",
    "Base",
    "CaseEvent",
    "CaseLot",
    "CaseRow",
    "ConfigChange",
    "ConfigVersion",
    "Contact",
    "Conversation",
    "DeadlineRow",
    "InboxRow",
    "Instance",
    "Invite",
    "LedgerEntry",
    "LotOwnerPhone",
    "MediaFetch",
    "OutboxRow",
    "Payment",
    "PhotoRow",
    "Pound",
    "ReminderJob",
    "SaleLot",
    "SenderCount",
    "SettlementRow",
    "User",
    "UserChange",
    "UtcDateTime",
    "WebLink",
    "WebSession",
    "naming_phone",
]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """An aware datetime stored as UTC on every engine (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UtcDateTime, dict[str, Any]: JSON}


class Authority(Base):
    """A local authority (from configuration)."""

    __tablename__ = "authorities"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))


class Pound(Base):
    """A pound (from configuration) and its case counter."""

    __tablename__ = "pounds"
    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    authority_code: Mapped[str] = mapped_column(ForeignKey("authorities.code"))
    name: Mapped[str] = mapped_column(String(200))
    last_case_seq: Mapped[int] = mapped_column(Integer, default=0)


class User(Base):
    """A keeper of a pound, an officer of an authority, or an admin; and the offices they
    hold (``bot.support.offices``)."""

    __tablename__ = "users"
    __table_args__ = (
        # A pound's keepers, an authority's officers (bot.store.users, the desk's Today).
        Index("ix_users_pound", "pound_code"),
        Index("ix_users_authority", "authority_code"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    pound_code: Mapped[str | None] = mapped_column(ForeignKey("pounds.code"))
    authority_code: Mapped[str | None] = mapped_column(ForeignKey("authorities.code"))
    phone: Mapped[str | None] = mapped_column(String(20), unique=True)
    telegram_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    lang: Mapped[str | None] = mapped_column(String(2))
    #: The offices declared held (``domain.profiles.Office`` values, joined by commas; ""
    #: none declared: ``bot.support.offices.held_offices``).
    offices: Mapped[str] = mapped_column(String(200), default="", server_default="")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime]


class Invite(Base):
    """A single-use code binding a Telegram account to a role (and the offices it grants)."""

    __tablename__ = "invites"
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    pound_code: Mapped[str | None] = mapped_column(ForeignKey("pounds.code"))
    authority_code: Mapped[str | None] = mapped_column(ForeignKey("authorities.code"))
    name: Mapped[str] = mapped_column(String(200), default="")
    #: The offices the user it makes holds (as ``User.offices``).
    offices: Mapped[str] = mapped_column(String(200), default="", server_default="")
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    used_at: Mapped[datetime | None]
    #: The id of the existing user it binds a Telegram account to (``users reinvite``);
    #: None: it makes a new user.
    for_user: Mapped[int | None] = mapped_column(Integer)


class UserChange(Base):
    """A change to a user, one field a row (``bot.services.admin``): who made it (None:
    the command line), when, the old and the new value as text (None: none), and why;
    with the authority the user was of, so that an authority's audit can be exported."""

    __tablename__ = "user_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    authority_code: Mapped[str | None] = mapped_column(ForeignKey("authorities.code"))
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime]
    field: Mapped[str] = mapped_column(String(32))
    old: Mapped[str | None] = mapped_column(String(200))
    new: Mapped[str | None] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(String(500), default="")


class CaseRow(Base):
    """A case: its number and what the public search and the lists need; the owner's
    number and name, kept in step with the latest seizure facts, for staff's search only
    (the public search reads neither)."""

    __tablename__ = "cases"
    __table_args__ = (
        UniqueConstraint("pound_code", "seq"),
        # The web desk's list of cases, newest first (bot.services.desk).
        Index("ix_cases_impounded", "impounded_on", "id"),
        # The public search (FIND) over the cases still in the pound, a state's too: on
        # PostgreSQL a trigram index (pg_trgm), so that a word is found by the index and
        # not by reading every such case; partial to those stages (``IN_POUND_SQL``).
        # An authority's cases by stage, newest first: the desk's counts and pages of its
        # cases read this index alone (on PostgreSQL the kinds too), not each case's row.
        Index(
            "ix_cases_pound_stage",
            "pound_code",
            "stage",
            "impounded_on",
            "id",
            postgresql_include=["kinds"],
        ),
        # An authority's cases newest first, with what the desk's filters read (its words
        # too): its counts and pages from the index alone, on PostgreSQL.
        Index(
            "ix_cases_pound_newest",
            "pound_code",
            "impounded_on",
            "id",
            postgresql_include=["stage", "kinds", "search_text", "owner_name"],
        ),
        Index(
            "ix_cases_search_in_pound",
            "search_text",
            postgresql_using="gin",
            postgresql_ops={"search_text": "gin_trgm_ops"},
            postgresql_where=text(IN_POUND_SQL),
            sqlite_where=text(IN_POUND_SQL),
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pound_code: Mapped[str] = mapped_column(ForeignKey("pounds.code"))
    seq: Mapped[int] = mapped_column(Integer)
    number: Mapped[str] = mapped_column(String(20), unique=True)
    stage: Mapped[str] = mapped_column(String(20), index=True)
    impounded_on: Mapped[date] = mapped_column(Date)
    place_seized: Mapped[str] = mapped_column(String(300))
    owner_phone: Mapped[str | None] = mapped_column(String(20), index=True)
    #: The owner's name of the latest seizure facts, as the desk's search compares it
    #: (``bot.support.spelling.searchable_name``): None when no owner is named.
    owner_name: Mapped[str | None] = mapped_column(String(200))
    #: What the public search matches, casefolded: the place seized, then each lot's kind
    #: and public description, a line each (``search_text``), kept in step with the lots.
    search_text: Mapped[str] = mapped_column(Text, server_default="")
    #: The kinds of its lots, each once between spaces (`` cow goat ``): the desk's filter
    #: by kind (``kinds_text``), kept in step with the lots.
    kinds: Mapped[str] = mapped_column(String(200), server_default="")
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


# The trigram index of ``search_text`` needs PostgreSQL's pg_trgm (the migrations make it
# too); a schema made from these tables (the tests' ``create_all``) makes it first.
@event.listens_for(CaseRow.__table__, "before_create")
def _trigrams(target: Any, connection: Connection, **kw: Any) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")


class CaseLot(Base):
    """A lot of a case, kept in step with the latest seizure facts (for search)."""

    __tablename__ = "case_lots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    count: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text, default="")


class LotOwnerPhone(Base):
    """The number of the owner of a lot, where a case's lots are of more than one owner
    (``Lot.owner``): one row per lot that names an owner with a number, by the lot's
    place in the case's record as it is now. The case's own owner keeps
    ``cases.owner_phone``."""

    __tablename__ = "lot_owner_phones"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    phone: Mapped[str] = mapped_column(String(20), index=True)


class CaseEvent(Base):
    """The append-only audit log: every event of every case, who, when, how, under what."""

    __tablename__ = "case_events"
    __table_args__ = (UniqueConstraint("case_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(40))
    on: Mapped[date] = mapped_column(Date)
    payload: Mapped[dict[str, Any]]
    provision: Mapped[str] = mapped_column(String(24))
    actor_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    actor_role: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str] = mapped_column(String(16))
    recorded_at: Mapped[datetime]


class Payment(Base):
    """Money taken at the pound: payment on release (s.12) or deposit (s.14)."""

    __tablename__ = "payments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    amount_paise: Mapped[int] = mapped_column(BigInteger)
    on: Mapped[date] = mapped_column(Date)
    event_id: Mapped[int] = mapped_column(ForeignKey("case_events.id"))


class SaleLot(Base):
    """Heads of a lot offered at a sale: sold (price, buyer) or not (s.13(3), s.15(1))."""

    __tablename__ = "sale_lots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    lot_idx: Mapped[int] = mapped_column(Integer)
    count: Mapped[int] = mapped_column(Integer)
    sold: Mapped[bool] = mapped_column(Boolean)
    price_paise: Mapped[int | None] = mapped_column(BigInteger)
    buyer_name: Mapped[str | None] = mapped_column(String(200))
    buyer_declared_not_barred: Mapped[bool] = mapped_column(Boolean, default=False)
    disposal: Mapped[str] = mapped_column(String(16), default="auction")
    on: Mapped[date] = mapped_column(Date)
    event_id: Mapped[int] = mapped_column(ForeignKey("case_events.id"))


class SettlementRow(Base):
    """The settled money of a sale (s.15(2), s.16); a case refused by its owner after a
    first sale is settled a second time when the rest are sold as unclaimed (s.15(5))."""

    __tablename__ = "settlements"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    on: Mapped[date] = mapped_column(Date)
    proceeds_paise: Mapped[int] = mapped_column(BigInteger)
    dues_paise: Mapped[int] = mapped_column(BigInteger)
    unmet_paise: Mapped[int] = mapped_column(BigInteger)
    balance_paise: Mapped[int] = mapped_column(BigInteger)
    event_id: Mapped[int] = mapped_column(ForeignKey("case_events.id"), unique=True)


class LedgerEntry(Base):
    """One movement of money to an account of an authority, with its provision."""

    __tablename__ = "ledger_entries"
    __table_args__ = (Index("ix_ledger_authority_on", "authority_code", "on"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    authority_code: Mapped[str] = mapped_column(ForeignKey("authorities.code"))
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    account: Mapped[str] = mapped_column(String(24))
    amount_paise: Mapped[int] = mapped_column(BigInteger)
    provision: Mapped[str] = mapped_column(String(24))
    on: Mapped[date] = mapped_column(Date)
    event_id: Mapped[int] = mapped_column(ForeignKey("case_events.id"))


class InboxRow(Base):
    """Every inbound message, stored raw before it is acted on."""

    __tablename__ = "inbox"
    __table_args__ = (
        UniqueConstraint("channel", "provider_id"),
        # The log of messages, newest first, by its key; the purge, oldest first.
        Index("ix_inbox_log", "received_at", "id"),
        # The log of an authority's messages: those about the cases of its pounds.
        Index("ix_inbox_case_log", "case_number", "received_at", "id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    provider_id: Mapped[str] = mapped_column(String(64))
    sender: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    raw: Mapped[dict[str, Any]]
    received_at: Mapped[datetime]
    processed_at: Mapped[datetime | None] = mapped_column(index=True)
    reply: Mapped[str | None] = mapped_column(Text)
    #: When its personal data (the body, the number, the raw request, the reply) was
    #: purged after the retention period (``bot.services.retention``); the row stays.
    purged_at: Mapped[datetime | None]
    #: The case it was about, as acting on it found it (``Tx.about_case``): the case it
    #: named, or the sender's own case a question without a number was taken to ask of;
    #: None for a message about no case.
    case_number: Mapped[str | None] = mapped_column(String(20))


class OutboxRow(Base):
    """Every outbound message, with its idempotency key and delivery status."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_due", "status", "next_attempt_at"),
        # The log of messages, newest first, by its key (bot.store.message_reads): all,
        # and a case's (an officer's).
        Index("ix_outbox_log", "created_at", "id"),
        Index("ix_outbox_case_log", "case_number", "created_at", "id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(120), unique=True)
    channel: Mapped[str] = mapped_column(String(16))
    recipient: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    provider_id: Mapped[str | None] = mapped_column(String(64), index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime]
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None]
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    #: A WhatsApp template (Twilio Content API) sent instead of ``body`` outside the
    #: 24-hour window, and its variables as JSON; ``body`` is the SMS fallback.
    content_sid: Mapped[str | None] = mapped_column(String(64))
    content_variables: Mapped[str | None] = mapped_column(Text)
    #: The DLT template (``kind.lang``, ``bot.support.dlt``) an SMS was sent under, found when
    #: it is sent; None for other channels and where DLT is off.
    template: Mapped[str | None] = mapped_column(String(80))
    #: Why it is sent, for the checks it passes when it is sent (``bot.adapters.outbox``):
    #: ``answer`` (to the recipient's own message), ``notice`` (to an owner, of a step on
    #: their case) or ``staff`` (a reminder or an alert to a keeper, officer or admin).
    purpose: Mapped[str | None] = mapped_column(String(16))
    #: What a message about a case is (``bot.notifications.case_messages``: its kind, the
    #: case, the reader's language and what the kind names, such as the auction's day),
    #: so that it is rendered from the case's statement on the day it is sent, or
    #: dropped when the case has moved past it; None for any other message.
    kind: Mapped[str | None] = mapped_column(String(32))
    case_number: Mapped[str | None] = mapped_column(String(32))
    lang: Mapped[str | None] = mapped_column(String(2))
    ref: Mapped[str | None] = mapped_column(String(32))
    #: Who sent a failed message again from the web desk, and when (``Send again``,
    #: ``bot.services.messages.resend``): set once, on the failed row.
    resent_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    resent_at: Mapped[datetime | None]
    #: On the new row a sending again queued: the failed row it sends again.
    resend_of: Mapped[int | None] = mapped_column(ForeignKey("outbox.id"), index=True)
    #: When its personal data (the body, the number, a template's variables) was purged
    #: after the retention period (``bot.services.retention``); the row stays.
    purged_at: Mapped[datetime | None]


class Contact(Base):
    """A telephone number poundbot talks to: its language and whether it said STOP (by
    SMS; ``whatsapp_stopped_at`` by WhatsApp), the channel it last wrote on, a channel
    an administrator chose for it, and its last WhatsApp message (the 24-hour window)."""

    __tablename__ = "contacts"
    phone: Mapped[str] = mapped_column(String(20), primary_key=True)
    lang: Mapped[str | None] = mapped_column(String(2))
    opted_out_at: Mapped[datetime | None]
    updated_at: Mapped[datetime]
    last_channel: Mapped[str | None] = mapped_column(String(16))
    channel: Mapped[str | None] = mapped_column(String(16))
    whatsapp_at: Mapped[datetime | None]
    whatsapp_stopped_at: Mapped[datetime | None]


class SenderCount(Base):
    """Messages of one sender answered in the current window (``bot.channels.limits``): one row
    per channel and sender, started again when its window has passed; ``told`` once
    the sender has been told to wait."""

    __tablename__ = "sender_counts"
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)
    sender: Mapped[str] = mapped_column(String(64), primary_key=True)
    window_start: Mapped[datetime]
    count: Mapped[int] = mapped_column(Integer, default=0)
    told: Mapped[bool] = mapped_column(Boolean, default=False)


class SendCount(Base):
    """Answers sent to numbers that are not staff in one window (``bot.notifications.spending``):
    a row per window (``hour:…``, ``day:…``, ``number:…:<phone>``), on the local ``day``
    it belongs to (rows of past days are deleted)."""

    __tablename__ = "send_counts"
    window: Mapped[str] = mapped_column(String(96), primary_key=True)
    day: Mapped[date] = mapped_column(Date)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Conversation(Base):
    """The state of a half-written report in a chat, so a restart or another instance
    can continue it (Telegram's guided /seize)."""

    __tablename__ = "conversations"
    __table_args__ = (UniqueConstraint("channel", "chat_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    chat_id: Mapped[str] = mapped_column(String(64))
    flow: Mapped[str] = mapped_column(String(32))
    state: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime]


class DeadlineRow(Base):
    """A statutory deadline of a case (``domain.deadlines``), kept in step with the case in
    the transaction that changes it: moved when a date is corrected, closed (with the event
    that closed it) when the case moves past it. ``needs_plan`` marks one whose reminders
    are still to be (re)planned."""

    __tablename__ = "deadlines"
    __table_args__ = (
        UniqueConstraint("case_id", "kind"),
        Index("ix_deadlines_needs_plan", "needs_plan"),
        # The web desk's Today: open deadlines by day (covering its count), and by kind.
        Index("ix_deadlines_open_due", "status", "due_on", "pound_code", "who"),
        Index("ix_deadlines_open_kind", "status", "kind", "due_on"),
        # An authority's Today: the open deadlines of its pounds, each section by kind.
        Index("ix_deadlines_open_pound", "status", "pound_code", "kind", "due_on"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    case_number: Mapped[str] = mapped_column(String(20))
    pound_code: Mapped[str] = mapped_column(ForeignKey("pounds.code"))
    kind: Mapped[str] = mapped_column(String(32))
    who: Mapped[str] = mapped_column(String(16))
    provision: Mapped[str] = mapped_column(String(24))
    due_on: Mapped[date] = mapped_column(Date)
    counts_from: Mapped[date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(16), default="open")
    closed_reason: Mapped[str | None] = mapped_column(String(80))
    needs_plan: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]


class ReminderJob(Base):
    """One reminder to send at ``fire_at``: of a deadline to an audience on a local day, or
    a morning round (``kind`` "round") that sends the items waiting for it (``batch``)
    together, as one digest per person when there are many.

    ``status``: pending (claimable when due and not leased), waiting (in a round), done
    (its messages are in the outbox), failed, cancelled. The due index makes the claim
    read only due pending rows, however many done rows the table holds.
    """

    __tablename__ = "reminder_jobs"
    __table_args__ = (Index("ix_reminder_jobs_due", "status", "fire_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    audience: Mapped[str] = mapped_column(String(16))
    place: Mapped[str] = mapped_column(String(16))
    deadline_id: Mapped[int | None] = mapped_column(ForeignKey("deadlines.id"), index=True)
    case_number: Mapped[str | None] = mapped_column(String(20))
    provision: Mapped[str | None] = mapped_column(String(24))
    due_on: Mapped[date | None] = mapped_column(Date)
    day: Mapped[date] = mapped_column(Date)
    fire_at: Mapped[datetime]
    batch: Mapped[str | None] = mapped_column(String(120), index=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None]
    messages: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    done_at: Mapped[datetime | None]


class WebLink(Base):
    """A single-use sign-in link of the web desk: only the SHA-256 of its token is kept."""

    __tablename__ = "web_links"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class WebSession(Base):
    """A signed-in session of the web desk: only the SHA-256 of its token is kept; ended
    at sign-out (``ended_at``), at ``expires_at``, or when its user is disabled."""

    __tablename__ = "web_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class PhotoRow(Base):
    """A photo of the cattle of a case (and of one lot, when said): kept once, in the
    photo store under ``sha256`` (``bot.adapters.photo_store``), or pending a download from Telegram
    (a file id kept by an older poundbot in the lot's description)."""

    __tablename__ = "photos"
    __table_args__ = (UniqueConstraint("case_id", "sha256"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    lot: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # "kept" or "pending"
    #: Where it came from, once: ``mms:<MessageSid>:<n>``, ``tg:<file_unique_id>``.
    source_key: Mapped[str] = mapped_column(String(200), unique=True)
    #: A Telegram file id still to download (pending rows only).
    fetch_ref: Mapped[str | None] = mapped_column(String(500))
    sha256: Mapped[str | None] = mapped_column(String(64))
    format: Mapped[str | None] = mapped_column(String(8))
    width: Mapped[int | None] = mapped_column(Integer)
    height: Mapped[int | None] = mapped_column(Integer)
    size: Mapped[int | None] = mapped_column(Integer)
    added_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime]


class MediaFetch(Base):
    """The pictures of an MMS or WhatsApp message still to fetch (``bot.channels.twilio.media``):
    answered first, fetched outside any transaction, then attached to ``case_id`` and told
    in a follow-up (``key``, its outbox key too). Claimed under a lease by one instance
    (``claimed_by``, ``claimed_until``), taken over when it runs out or that instance's
    heartbeat stops."""

    __tablename__ = "media_fetches"
    __table_args__ = (Index("ix_media_fetches_due", "status", "claimed_until"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``mms-photos:<MessageSid>``: one per message, the follow-up's outbox key.
    key: Mapped[str] = mapped_column(String(120), unique=True)
    channel: Mapped[str] = mapped_column(String(16))  # the follow-up's: "sms", "whatsapp"
    recipient: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(2))
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    lot: Mapped[int | None] = mapped_column(Integer)
    added_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    #: The media URLs, in the message's order.
    urls: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # "pending", "done"
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(120))
    claimed_until: Mapped[datetime | None]
    created_at: Mapped[datetime]
    done_at: Mapped[datetime | None]


class Instance(Base):
    """A running poundbot process (its lease name) and the last time it said it was
    alive (``bot.store.instances``): the claims of one whose heartbeat stopped are taken
    over without waiting for their leases to run out."""

    __tablename__ = "instances"
    name: Mapped[str] = mapped_column(String(120), primary_key=True)
    beat_at: Mapped[datetime]


class ConfigVersion(Base):
    """A version of the configuration (``bot.services.config_versions``): the whole TOML
    document as it was imported, when, by whom (None: the command line or the server's
    first start), why, and from where (``file``: the first start's file; ``cli``: ``config
    import``; ``web``; ``dlt``: ``dlt import``). The one with the highest id is in force.
    Ids are given as the highest plus one, not by a sequence: two instances writing at
    once collide on the primary key, and one of them takes the other's version."""

    __tablename__ = "config_versions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime]
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reason: Mapped[str] = mapped_column(String(500), default="")
    source: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(Text)


class ConfigChange(Base):
    """One value changed by a configuration version written on the web desk
    (``bot.services.config_edit``): of what (``entity``: authority, pound, kind, fine,
    feeding, dlt, ...; ``key``: its code), which field, the old and the new value as text
    (None: none), and the authority it belongs to (None: the state's), so that an
    authority's audit can be exported. Who, when and why are the version's."""

    __tablename__ = "config_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("config_versions.id"), index=True)
    authority_code: Mapped[str | None] = mapped_column(String(32), index=True)
    entity: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(64))
    field: Mapped[str] = mapped_column(String(64))
    old: Mapped[str | None] = mapped_column(Text)
    new: Mapped[str | None] = mapped_column(Text)


def naming_phone(phone: Any) -> ColumnElement[bool]:
    """The cases whose owner's number is ``phone`` (a value or a bound parameter): the
    case's own owner's, or a lot's owner's (``LotOwnerPhone``); each side by its index."""
    return CaseRow.id.in_(
        union(
            select(CaseRow.id).where(CaseRow.owner_phone == phone),
            select(LotOwnerPhone.case_id).where(LotOwnerPhone.phone == phone),
        )
    )
