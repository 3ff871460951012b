"""WhatsApp through Twilio: who is written to on WhatsApp, and how.

A number is one person whether it writes by SMS or by WhatsApp: Twilio's
``whatsapp:+91…`` is read as ``+91…`` (``phone_of``); the contact row of the number
remembers the channel it last wrote on (``last_channel``), a channel an
administrator chose for it (``channel``, which wins), its last WhatsApp message and
its WhatsApp STOP (a STOP by WhatsApp stops WhatsApp messages, not SMS).

A message to a number (``route``) goes on its channel. On WhatsApp, within 24 hours
of the number's last WhatsApp message, as free text; outside that window only as an
approved template (``[whatsapp.templates]`` in the configuration: a Content SID per
message kind and language, ``TEMPLATES`` names each kind's variables); without one,
by SMS. When WhatsApp refuses a message (``FALLBACK_CODES``: outside the window, not
a WhatsApp user, a template refused), the same text goes by SMS, once
(``fall_back_to_sms``: one idempotency key). The Act is silent on channels: this is
the authority's policy, stated in docs/whatsapp.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.config.model import WHATSAPP_TEMPLATES
from bot.store.contacts import back_to_sms, contact_to_change
from bot.store.contacts import contact as contact_of
from bot.store.messages import enqueue
from bot.store.models import Contact
from bot.store.outbox import message_keyed
from bot.store.rows import flush
from bot.store.tx import Tx

__all__ = [
    "CHANNEL",
    "FALLBACK_CODES",
    "PREFIX",
    "SMS",
    "TEMPLATES",
    "WINDOW",
    "Route",
    "Template",
    "fall_back_key",
    "fall_back_to_sms",
    "is_whatsapp",
    "note_inbound",
    "phone_of",
    "route",
    "set_channel",
]

CHANNEL = "whatsapp"
SMS = "sms"
PREFIX = "whatsapp:"
#: WhatsApp's customer service window: free text only this long after the person's
#: last message.
WINDOW = timedelta(hours=24)

#: Twilio's error codes on which a WhatsApp message goes by SMS instead: 63016 outside
#: the 24-hour window; 63003 the number is not reachable on WhatsApp (not a user);
#: 63005 the channel did not accept the content; 63024 invalid recipient; 63032 the
#: user's number cannot be sent this message; 63049 Meta chose not to deliver it.
FALLBACK_CODES = frozenset({"63003", "63005", "63016", "63024", "63032", "63049"})

#: The message kinds that can go outside the window, and their templates' variables.
TEMPLATES = WHATSAPP_TEMPLATES


@dataclass(frozen=True, slots=True)
class Template:
    """A message kind of ``TEMPLATES`` and its variables' values, in order."""

    kind: str
    values: tuple[str, ...]

    def variables(self) -> str:
        """The ``ContentVariables`` JSON: ``{"1": ..., "2": ...}``, each value on one line
        (WhatsApp refuses a variable with a newline, a tab or many spaces)."""
        return json.dumps(
            {str(i): " ".join(value.split()) for i, value in enumerate(self.values, 1)},
            ensure_ascii=False,
        )


@dataclass(frozen=True, slots=True)
class Route:
    """How one message goes: its channel, and the template it is sent as (or None)."""

    channel: str
    content_sid: str | None = None
    content_variables: str | None = None


def is_whatsapp(address: str) -> bool:
    """Whether a Twilio address is a WhatsApp one (``whatsapp:+91…``)."""
    return address.lower().startswith(PREFIX)


def phone_of(address: str) -> str:
    """The telephone number of a Twilio address: ``whatsapp:+91…`` is ``+91…``."""
    return address[len(PREFIX) :] if is_whatsapp(address) else address


async def note_inbound(tx: Tx, phone: str, channel: str) -> None:
    """A message came from ``phone`` on ``channel``: that is its channel now, and a
    WhatsApp message opens the 24-hour window. An SMS from a number never seen on
    WhatsApp leaves no row (SMS is the default)."""
    if channel != CHANNEL:  # one statement, no read: it runs for every SMS
        await back_to_sms(tx, phone, tx.now)
        return
    contact = await contact_to_change(tx, phone)
    contact.whatsapp_at = tx.now
    contact.last_channel = channel
    contact.updated_at = tx.now
    await flush(tx)


async def set_channel(tx: Tx, phone: str, channel: str | None) -> None:
    """An administrator's choice of channel for ``phone`` (None: the one it last wrote on)."""
    if channel not in (None, SMS, CHANNEL):
        raise ValueError(f"unknown channel {channel!r}")
    contact = await contact_to_change(tx, phone)
    contact.channel = channel
    contact.updated_at = tx.now
    await flush(tx)


def _channel_of(contact: Contact | None) -> str:
    if contact is None:
        return SMS
    return contact.channel or contact.last_channel or SMS


def _in_window(contact: Contact, now: datetime) -> bool:
    return contact.whatsapp_at is not None and now - contact.whatsapp_at < WINDOW


def route(
    contact: Contact | None,
    now: datetime,
    lang: str,
    template: Template | None,
    templates: Mapping[str, Mapping[str, str]],
) -> Route | None:
    """How a message to the number of ``contact`` goes at ``now``; None when the
    number stopped the only channel it can go on."""
    sms_stopped = contact is not None and contact.opted_out_at is not None
    sms = None if sms_stopped else Route(SMS)
    if contact is None or _channel_of(contact) != CHANNEL or contact.whatsapp_stopped_at:
        return sms
    if _in_window(contact, now):
        return Route(CHANNEL)
    sid = templates.get(template.kind, {}).get(lang) if template is not None else None
    if template is None or not sid:
        return sms
    return Route(CHANNEL, sid, template.variables())


def fall_back_key(key: str) -> str:
    """The idempotency key of the SMS sent instead of a refused WhatsApp message."""
    return f"{key}:sms"


async def fall_back_to_sms(tx: Tx, key: str) -> bool:
    """Queue the text of the refused WhatsApp message ``key`` by SMS, once (unless the
    number said STOP by SMS); True if it was queued now."""
    row = await message_keyed(tx, key)
    if row is None or row.channel != CHANNEL:
        return False
    contact = await contact_of(tx, row.recipient)
    if contact is not None and contact.opted_out_at is not None:
        return False
    return await enqueue(
        tx,
        key=fall_back_key(key),
        channel=SMS,
        recipient=row.recipient,
        body=row.body,
        not_before=row.next_attempt_at,
        purpose=row.purpose or ("answer" if key.startswith("sms-reply:") else "notice"),
    )
