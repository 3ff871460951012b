"""Small look-ups of cases for the conversation: the newest event's id, the case a
keeper's SEIZE has just recorded, the newest case of an owner's number."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select

from bot.store.models import CaseEvent, CaseRow, naming_phone
from bot.store.tx import Tx

__all__ = [
    "case_recorded_after",
    "cases_recorded_after",
    "last_event_id",
    "newest_case_of_owner",
]

#: Built once: the example in an answer to the public runs it.
_NEWEST_OF_NUMBER = (
    select(CaseRow.number)
    .where(naming_phone(bindparam("phone")))
    .order_by(CaseRow.impounded_on.desc(), CaseRow.id.desc())
    .limit(1)
)


async def last_event_id(tx: Tx) -> int:
    """The newest audit-log row id (0: none)."""
    return int(await tx.session.scalar(select(func.coalesce(func.max(CaseEvent.id), 0))) or 0)


async def case_recorded_after(tx: Tx, user_id: int, after_event: int) -> str | None:
    """The number of the newest case whose first event, after ``after_event``, is by
    ``user_id``."""
    number = await tx.session.scalar(
        select(CaseRow.number)
        .join(CaseEvent, CaseEvent.case_id == CaseRow.id)
        .where(
            CaseEvent.id > after_event,
            CaseEvent.seq == 0,
            CaseEvent.actor_user_id == user_id,
        )
        .order_by(CaseEvent.id.desc())
        .limit(1)
    )
    return str(number) if number else None


async def cases_recorded_after(tx: Tx, user_id: int, after_event: int) -> int:
    """How many cases have their first event, after ``after_event``, by ``user_id``."""
    found = await tx.session.scalar(
        select(func.count())
        .select_from(CaseEvent)
        .where(
            CaseEvent.id > after_event,
            CaseEvent.seq == 0,
            CaseEvent.actor_user_id == user_id,
        )
    )
    return int(found or 0)


async def newest_case_of_owner(tx: Tx, phone: str) -> str | None:
    """The number of the newest case of an owner with this phone number, if any."""
    newest = await tx.session.scalar(_NEWEST_OF_NUMBER, {"phone": phone})
    return str(newest) if newest else None
