"""Messages to people other than the one who wrote: queued in the outbox, in their language.

Each message has an idempotency key, so the same event never queues the same message
to the same person twice. Delivery (Telegram if linked, else SMS) is the outbox's job.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select

from bot.caller import OFFICER
from bot.config import ReminderSettings
from bot.i18n import Translator, translator
from bot.store.messages import enqueue
from bot.store.models import Contact, User
from bot.store.tx import Tx

__all__ = ["notify_officers", "notify_phone", "owner_send_time", "route_of"]

Compose = Callable[[Translator], str]


def route_of(user: User) -> tuple[str, str] | None:
    """(channel, recipient) for a user: Telegram when linked, else SMS, else None."""
    if user.telegram_id is not None:
        return "telegram", str(user.telegram_id)
    if user.phone:
        return "sms", user.phone
    return None


async def notify_officers(
    tx: Tx, authority: str, key: str, compose: Compose, default_lang: str
) -> int:
    """Queue a message to every active officer of ``authority``; returns how many."""
    officers = (
        await tx.session.execute(
            select(User).where(
                User.role == OFFICER, User.authority_code == authority, User.active.is_(True)
            )
        )
    ).scalars()
    queued = 0
    for officer in officers:
        route = route_of(officer)
        if route is None:
            continue
        body = compose(translator(officer.lang or default_lang))
        if await enqueue(
            tx, key=f"{key}:u{officer.id}", channel=route[0], recipient=route[1], body=body
        ):
            queued += 1
    return queued


def owner_send_time(now: datetime, reminders: ReminderSettings) -> datetime:
    """``now``, or the end of the night hours when an owner may not be sent an SMS now."""
    local = now.astimezone(reminders.timezone)
    if not reminders.is_night(local.time()):
        return now
    morning = datetime.combine(local.date(), reminders.night_end, tzinfo=reminders.timezone)
    if morning <= local:
        morning += timedelta(days=1)
    return morning


async def notify_phone(
    tx: Tx,
    phone: str,
    key: str,
    compose: Compose,
    default_lang: str,
    reminders: ReminderSettings,
) -> bool:
    """Queue an SMS to a telephone number (an owner) unless it said STOP; never at night."""
    contact = await tx.session.get(Contact, phone)
    if contact is not None and contact.opted_out_at is not None:
        return False
    lang = (contact.lang if contact else None) or default_lang
    return await enqueue(
        tx,
        key=key,
        channel="sms",
        recipient=phone,
        body=compose(translator(lang)),
        not_before=owner_send_time(tx.now, reminders),
    )
