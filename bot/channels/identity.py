"""Who wrote: a registered user (by phone or Telegram id) or a member of the public."""

from __future__ import annotations

from bot.caller import Caller
from bot.phones import DEFAULT_REGION, sender_number
from bot.services.admin import find_user
from bot.store.models import User
from bot.store.tx import Tx

__all__ = ["caller_for_phone", "caller_for_telegram", "caller_of"]


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


async def caller_for_phone(
    tx: Tx, phone: str, channel: str = "sms", region: str = DEFAULT_REGION
) -> Caller:
    """A keeper or officer registered with this number, else the public; the number is
    read as ``normalize_phone`` reads it (``09847000010`` is ``+919847000010``)."""
    phone = sender_number(phone, region)
    user = await find_user(tx, phone=phone)
    return caller_of(user, channel, phone=phone) if user else Caller.public(channel, phone=phone)


async def caller_for_telegram(tx: Tx, telegram_id: int) -> Caller | None:
    """The registered user behind a Telegram account, or None."""
    user = await find_user(tx, telegram_id=telegram_id)
    return caller_of(user, "telegram") if user else None
