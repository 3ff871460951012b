"""Messages to people other than the one who wrote: queued in the outbox, in their language.

Each message has an idempotency key, so the same event never queues the same message
to the same person twice. Delivery (Telegram if linked, else the number's channel: SMS
or WhatsApp, ``bot.adapters.whatsapp_route``) is the outbox's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta

from bot.adapters.whatsapp_route import Route, Template, route
from bot.config import ReminderSettings
from bot.i18n import Translator, translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.public.sms_fit import one_text
from bot.store.contacts import contact as contact_of
from bot.store.messages import About, enqueue
from bot.store.models import User
from bot.store.tx import Tx
from bot.store.users import staff_of
from bot.support.caller import OFFICER
from bot.support.offices import declared_offices, held_offices
from domain.profiles import KERALA_1961, Office, Power, Profile

NO_TEMPLATES: Mapping[str, Mapping[str, str]] = {}

__all__ = [
    "for_office",
    "notify_officers",
    "notify_phone",
    "owner_send_time",
    "queue_to_staff",
    "route_of",
    "user_route",
]

Compose = Callable[[Translator], str]


def route_of(user: User) -> tuple[str, str] | None:
    """(channel, recipient) for a user: Telegram when linked, else SMS, else None."""
    if user.telegram_id is not None:
        return "telegram", str(user.telegram_id)
    if user.phone:
        return "sms", user.phone
    return None


async def user_route(
    tx: Tx,
    phone: str,
    lang: str,
    template: Template | None,
    templates: Mapping[str, Mapping[str, str]] = NO_TEMPLATES,
) -> Route | None:
    """How a message to a keeper's or officer's number goes (``bot.adapters.whatsapp_route.route``);
    None when the number said STOP on every channel it could go on: a number that said
    STOP gets nothing there but the answers to its own messages, duties or not (the
    person was told so, and on Telegram if linked; the desk lists them)."""
    contact = await contact_of(tx, phone)
    return route(contact, tx.now, lang, template, templates)


async def notify_officers(
    tx: Tx,
    authority: str,
    key: str,
    compose: Compose,
    default_lang: str,
    templates: Mapping[str, Mapping[str, str]] = NO_TEMPLATES,
    *,
    about: About | None = None,
    act: Profile = KERALA_1961,
    power: Power | None = None,
) -> int:
    """Queue a message to the active officers of ``authority``; returns how many.
    ``about``: what the message is (``bot.notifications.case_messages``), in each officer's
    language, so that it is rendered again when it is sent; ``act``: the Act of the case
    it is about, in whose words it is; ``power``: the power of ``act`` it is for, and
    then it goes to the officers who hold the office the Act gives that power to (those
    ``for_office`` gives: every officer when none does)."""
    officers = await staff_of(tx, OFFICER, authority)
    if power is not None:
        officers = for_office(officers, act.office_for(power))
    queued = 0
    for officer in officers:
        route = route_of(officer)
        if route is None:
            continue
        lang = officer.lang or default_lang
        with rendering_sms(route[0] == "sms"):  # names in DLT variables by SMS
            body = compose(translator(lang).under(act))
        if await queue_to_staff(tx, officer.id, route, lang, body, key, templates, about=about):
            queued += 1
    return queued


def for_office(officers: list[User], office: Office) -> list[User]:
    """Of ``officers``, those who hold ``office`` and can be reached (``route_of``); all
    of them when none does, so that nothing for an office nobody holds is lost."""
    holders = [
        o
        for o in officers
        if route_of(o) is not None and office in held_offices(o.role, declared_offices(o.offices))
    ]
    return holders or officers


async def queue_to_staff(
    tx: Tx,
    user_id: int,
    to: tuple[str, str],
    lang: str,
    body: str,
    key: str,
    templates: Mapping[str, Mapping[str, str]] = NO_TEMPLATES,
    *,
    sep: str = "\n",
    about: About | None = None,
) -> bool:
    """Queue ``body`` to a keeper, officer or admin, once per ``key`` and person (the key
    ends in ``:u<id>``), on their route (``route_of``: Telegram as it is; a number on its
    channel, WhatsApp outside the 24-hour window as the ``reminder`` template of the body's
    parts joined by ``sep`` when there is one, else SMS; not at all to a number that said
    STOP there). Whether it was new."""
    channel, recipient = to
    how: Route | None = Route(channel)
    if channel == "sms":
        template = Template("reminder", (one_text(body, sep),))
        how = await user_route(tx, recipient, lang, template, templates)
    if how is None:  # the number said STOP: nothing goes to it but answers
        return False
    return await enqueue(
        tx,
        key=f"{key}:u{user_id}",
        channel=how.channel,
        recipient=recipient,
        body=body,
        content_sid=how.content_sid,
        content_variables=how.content_variables,
        purpose="staff",
        about=about._replace(lang=lang) if about else None,
    )


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
    *,
    template: Callable[[Translator], Template] | None = None,
    templates: Mapping[str, Mapping[str, str]] = NO_TEMPLATES,
    about: About | None = None,
    act: Profile = KERALA_1961,
) -> bool:
    """Queue a message to a telephone number (an owner) on its channel unless it said
    STOP there; never at night. Outside WhatsApp's window it goes as ``template`` (its
    values in the owner's language) when the configuration has one, else by SMS.
    ``about``: what the message is (``bot.notifications.case_messages``), in the owner's
    language, so that it is rendered again when it is sent; ``act``: the Act of the case
    it is about, in whose words it is."""
    contact = await contact_of(tx, phone)
    lang = (contact.lang if contact else None) or default_lang
    tr = translator(lang).under(act)
    found = route(contact, tx.now, lang, template(tr) if template else None, templates)
    if found is None:
        return False
    return await enqueue(
        tx,
        key=key,
        channel=found.channel,
        recipient=phone,
        body=compose(tr),
        not_before=owner_send_time(tx.now, reminders),
        content_sid=found.content_sid,
        content_variables=found.content_variables,
        purpose="notice",
        about=about._replace(lang=lang) if about else None,
    )
