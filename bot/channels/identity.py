"""Who wrote: a registered user (by phone or Telegram id) or a member of the public."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import String, and_, bindparam, select

from bot.caller import Caller
from bot.phones import DEFAULT_REGION, sender_number
from bot.services.admin import find_user
from bot.store.models import Contact, User
from bot.store.tx import Tx

__all__ = ["Sender", "caller_for_phone", "caller_for_telegram", "caller_of", "sender_of"]


def caller_of(user: User, channel: str, *, phone: str | None = None) -> Caller:
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
    )


_NUMBER = select(bindparam("number", type_=String()).label("phone")).subquery("number")
#: Built once, run for every SMS: the active user with the number (if any) and what the
#: number's contact row says (its language, the channel it last wrote on), in one row.
_SENDER = (
    select(User, Contact.lang, Contact.last_channel)
    .select_from(_NUMBER)
    .outerjoin(User, and_(User.phone == _NUMBER.c.phone, User.active.is_(True)))
    .outerjoin(Contact, Contact.phone == _NUMBER.c.phone)
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
    language the number chose), read in one statement; the number is read as
    ``normalize_phone`` reads it (``09847000010`` is ``+919847000010``)."""
    phone = sender_number(phone, region)
    user, lang, last_channel = (await tx.session.execute(_SENDER, {"number": phone})).one()
    if user is not None:
        return Sender(caller_of(user, channel, phone=phone), last_channel)
    return Sender(Caller.public(channel, phone=phone, number_lang=lang or ""), last_channel)


async def caller_for_phone(
    tx: Tx, phone: str, channel: str = "sms", region: str = DEFAULT_REGION
) -> Caller:
    """A keeper or officer registered with this number, else the public (``sender_of``)."""
    return (await sender_of(tx, phone, channel, region)).caller


async def caller_for_telegram(tx: Tx, telegram_id: int) -> Caller | None:
    """The registered user behind a Telegram account, or None."""
    user = await find_user(tx, telegram_id=telegram_id)
    return caller_of(user, "telegram") if user else None
