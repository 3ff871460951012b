"""The SQL of the telephone numbers' rows (``contacts``), for the routing of messages
(``bot.adapters.whatsapp_route``), the notices and the conversation: a number's row, made
when it has none, its language, its channel back to SMS."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, select, update

from bot.store.models import Contact
from bot.store.tx import Tx

__all__ = ["back_to_sms", "contact", "contact_lang", "contact_to_change"]

_SMS = "sms"
_CONTACTS = cast(Table, Contact.__table__)
#: Built once: an SMS from a number that last wrote on another channel (it runs for
#: every SMS).
_BACK_TO_SMS = (
    update(_CONTACTS)
    .where(
        _CONTACTS.c.phone == bindparam("number"),
        _CONTACTS.c.last_channel.is_not(None),
        _CONTACTS.c.last_channel != _SMS,
    )
    .values(last_channel=_SMS, updated_at=bindparam("now"))
)
_CONTACT_LANG = select(Contact.lang).where(Contact.phone == bindparam("phone"))


async def contact(tx: Tx, phone: str) -> Contact | None:
    """The row of ``phone``, if it has one."""
    return await tx.session.get(Contact, phone)


async def contact_to_change(tx: Tx, phone: str) -> Contact:
    """The row of ``phone``, a new one (added, written with the next flush) if it has
    none."""
    row = await tx.session.get(Contact, phone)
    if row is None:
        row = Contact(phone=phone, updated_at=tx.now)
        tx.session.add(row)
    return row


async def contact_lang(tx: Tx, phone: str) -> str | None:
    """The language chosen for ``phone`` (``LANG``), if any."""
    return await tx.session.scalar(_CONTACT_LANG, {"phone": phone})


async def back_to_sms(tx: Tx, phone: str, now: datetime) -> None:
    """``phone`` wrote by SMS at ``now``: its last channel, if it had another, is SMS."""
    await tx.session.execute(_BACK_TO_SMS, {"number": phone, "now": now})
