"""Who wrote: a registered user (by phone or Telegram id) or a member of the public."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.services.admin import find_user
from bot.store.senders import sender_row
from bot.store.tx import Tx
from bot.support.caller import Caller
from bot.support.offices import declared_offices
from bot.support.phones import DEFAULT_REGION, sender_number

__all__ = [
    "Registered",
    "Sender",
    "caller_for_phone",
    "caller_for_telegram",
    "caller_of",
    "sender_of",
]


class Registered(Protocol):
    """What makes a Caller of a registered user: a ``User``, or a row of its columns."""

    @property
    def id(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def pound_code(self) -> str | None: ...
    @property
    def authority_code(self) -> str | None: ...
    @property
    def phone(self) -> str | None: ...
    @property
    def telegram_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def lang(self) -> str | None: ...
    @property
    def offices(self) -> str | None: ...


def caller_of(user: Registered, channel: str, *, phone: str | None = None) -> Caller:
    """The Caller a registered user acts as."""
    return Caller(
        role=user.role,
        channel=channel,
        user_id=user.id,
        pound=user.pound_code,
        authority=user.authority_code,
        phone=phone or user.phone,
        telegram_id=user.telegram_id,
        name=user.name,
        lang=user.lang,
        offices=declared_offices(user.offices),
    )


@dataclass(frozen=True, slots=True)
class Sender:
    """Who wrote from a number, and the channel that number last wrote on (None: never
    on WhatsApp, or never)."""

    caller: Caller
    last_channel: str | None


async def sender_of(
    tx: Tx, phone: str, channel: str = "sms", region: str = DEFAULT_REGION
) -> Sender:
    """A keeper or officer registered with this number, else the public (with the
    language the number chose), read in one statement (or with the claim of the
    message, ``bot.store.messages.act_on_inbound``); the number is read as
    ``normalize_phone`` reads it (``09847000010`` is ``+919847000010``)."""
    phone = sender_number(phone, region)
    row: Any = tx.read_ahead.pop(("sender", phone), None)
    if row is None:
        row = await sender_row(tx, phone)
    if row.user_id is None:
        caller = Caller.public(channel, phone=phone, number_lang=row.number_lang or "")
        return Sender(caller, row.last_channel)
    caller = Caller(
        role=row.role,
        channel=channel,
        user_id=row.user_id,
        pound=row.pound_code,
        authority=row.authority_code,
        phone=phone,
        telegram_id=row.telegram_id,
        name=row.name,
        lang=row.user_lang,
        offices=declared_offices(row.offices),
    )
    return Sender(caller, row.last_channel)


async def caller_for_phone(
    tx: Tx, phone: str, channel: str = "sms", region: str = DEFAULT_REGION
) -> Caller:
    """A keeper or officer registered with this number, else the public (``sender_of``)."""
    return (await sender_of(tx, phone, channel, region)).caller


async def caller_for_telegram(tx: Tx, telegram_id: int) -> Caller | None:
    """The registered user behind a Telegram account, or None."""
    user = await find_user(tx, telegram_id=telegram_id)
    return caller_of(user, "telegram") if user else None
