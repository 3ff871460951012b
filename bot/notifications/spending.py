"""The ceiling of answers to numbers that are not staff: a check of the send gate
(``bot.adapters.outbox.Gate``), registered by the composition root.

A missed call costs its caller nothing and an SMS little, while each answer (SMS or
WhatsApp) costs the authority: a stranger with many numbers must not be able to make
poundbot spend without end. Beside the limit per sender (``bot.channels.limits``), the
answers to numbers that no active keeper, officer or administrator has are counted by
local hour, by local day, and by number and day (``send_counts``); past
``[limits] answers_per_hour``, ``answers_per_day`` or ``answers_per_number_per_day`` an
answer is dropped, and the state admins are told once in the hour or the day the
ceiling was reached. A notice to an owner of a step on their case (what the Act requires
them to be told) and every message to staff are never held back: they are counted
(``PAID_MESSAGES``) and go. The counts are taken when a message is sent, in the
transaction of its check, so they hold across instances.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, time, timedelta
from typing import Final, NamedTuple

from bot.adapters.send_gate import ANSWER, STAFF, Outgoing
from bot.adapters.whatsapp_route import CHANNEL as WHATSAPP
from bot.adapters.whatsapp_route import phone_of
from bot.config import Config
from bot.i18n import render, reply_language, translator
from bot.i18n.dlt_probe import rendering_sms
from bot.notifications.notify import route_of
from bot.observe.metrics import ANSWER_CEILING_REACHED, PAID_MESSAGES
from bot.store.messages import enqueue
from bot.store.send_counts import count, count_unless_staff, forget_before, uncount
from bot.store.tx import Tx
from bot.store.users import admins

__all__ = ["Ceiling"]

#: The channels an answer costs money on.
PAID: Final = ("sms", WHATSAPP)


class _Window(NamedTuple):
    """A window of the ceiling: its name, its row's key, its limit, when it ends (None:
    a number's day, of which the admins are not told)."""

    name: str
    key: str
    limit: int
    until: datetime | None


class Ceiling:
    """Refuses an answer to a number that is not staff past the ceiling of the hour, of
    the day, or of that number's day; counts every paid message it lets go."""

    name = "ceiling"

    def __init__(self, config: Callable[[], Config]) -> None:
        #: The configuration in force when a message is sent (``App.config``).
        self.config = config

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None:
        if message.channel not in PAID:
            return None
        phone = phone_of(message.recipient)
        if message.purpose != ANSWER:
            PAID_MESSAGES.labels(message.purpose).inc()
            return None
        config = self.config()
        limits = config.limits
        local = tx.now.astimezone(config.reminders.timezone)
        today = local.date()
        next_hour = local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        midnight = datetime.combine(today + timedelta(days=1), time(0), tzinfo=local.tzinfo)
        windows = (
            _Window("number", f"number:{today}:{phone}", limits.answers_per_number_per_day, None),
            _Window("day", f"day:{today}", limits.answers_per_day, midnight),
            _Window("hour", f"hour:{local:%Y-%m-%dT%H}", limits.answers_per_hour, next_hour),
        )
        counted = await count_unless_staff(tx, phone, today, [w.key for w in windows])
        if counted is None:  # an answer to staff
            PAID_MESSAGES.labels(message.purpose).inc()
            return None
        counts = [counted[window.key] for window in windows]
        if counts[-1] == 1:  # a new hour: the counts of the days before yesterday go
            await forget_before(tx, today - timedelta(days=1))
        over = [w for w, count in zip(windows, counts, strict=True) if count > w.limit]
        if not over:
            PAID_MESSAGES.labels(ANSWER).inc()
            return None
        await uncount(tx, [w.key for w in windows])  # the counts are of the answers sent
        window = over[0]
        if window.until is None:
            return (
                f"the number has had its {window.limit} answers of the day "
                "([limits] answers_per_number_per_day)"
            )
        if await count(tx, f"held:{window.key}", today) == 1:  # the first held back
            ANSWER_CEILING_REACHED.labels(window.name).inc()
            await _tell_admins(tx, config, window.name, window.limit, window.until)
        return (
            f"the ceiling of {window.limit} answers to the public a {window.name} is "
            f"reached ([limits] answers_per_{window.name})"
        )


async def _tell_admins(tx: Tx, config: Config, window: str, limit: int, until: datetime) -> None:
    """Tell every active state admin, once for the window, that answers to the public
    are held back until ``until``."""
    stamp = f"{until:%Y-%m-%dT%H}"
    for admin in await admins(tx):
        found = route_of(admin)
        if found is None:
            continue
        channel, recipient = found
        lang = admin.lang or reply_language()
        with rendering_sms(channel == "sms"):  # by SMS in parts, a template each
            body = render.answers_held_back(window, limit, until, translator(lang))
        await enqueue(
            tx,
            key=f"alert:ceiling:{window}:{stamp}:u{admin.id}",
            channel=channel,
            recipient=recipient,
            body=body,
            purpose=STAFF,
        )
