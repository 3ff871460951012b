"""Typed answers of the guided seizure report read, and the report recorded (s.7).

The report ends as the one-line SEIZE does: the same order (``Seize``) through the same
dispatcher (``run_command``), so the same use case, intake SMS to an owner whose number
is known, reply and refusals. The report's photos, already in the photo store, are attached
to the new case in the same transaction (``bot.conversation.photos``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time
from typing import Any, Final

from bot.adapters.photo_store import add_pending
from bot.channels.telegram.photos import staged
from bot.channels.telegram.seize_view import brought_at
from bot.channels.telegram.turn import Turn
from bot.conversation.commands import ParseError, name_and_phone, parse_date
from bot.conversation.orders import Seize, SeizeLot
from bot.conversation.photos import Target, attach_pictures
from bot.conversation.reply import Reply, run_command
from bot.i18n import LANGUAGES

__all__ = ["kind_of", "lot_owner_of", "now", "owner_of", "record", "seized_of", "when_of"]

_TIME: Final = re.compile(r"^(\d{1,2})[:.](\d{2})$")


def now(turn: Turn) -> datetime:
    """Local time now, to the minute, as the domain takes it (naive, Asia/Kolkata)."""
    return turn.deps.local_now().replace(tzinfo=None, second=0, microsecond=0)


def kind_of(turn: Turn, word: str) -> str | None:
    """The kind a typed word names, in any of the four languages, or None."""
    config = turn.deps.config
    for lang in (turn.lang, *LANGUAGES):
        found = config.kind_for_word(lang, word)
        if found is not None:
            return found
    return word.lower() if word.lower() in config.kinds else None


def owner_of(turn: Turn, value: str) -> tuple[str, str | None]:
    """``Suresh, Chathamangalam, 9847012345`` -> ("Suresh, Chathamangalam", "+919847012345");
    ParseError naming the fault when the number is not a valid mobile number."""
    return name_and_phone(value, turn.deps.config.phone_region)


def lot_owner_of(turn: Turn, lot: int, value: str) -> tuple[str, str | None]:
    """The owner of lot number ``lot`` typed, as ``owner_of`` reads it; a number without
    a name is refused too (ParseError), as a SEIZE line refuses an OWNER without one."""
    name, phone = owner_of(turn, value)
    if not name:
        raise ParseError("lot_owner_without_name", lot=lot)
    return name, phone


def _time(value: str) -> time | None:
    match = _TIME.match(value)
    if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        return None
    return time(int(match.group(1)), int(match.group(2)))


def when_of(turn: Turn, value: str) -> tuple[datetime, bool] | None:
    """``20-11-2026 14:30``, ``20-11-2026`` (now if today, else the day alone), ``14:30``
    (today) -> when brought, and whether the hour is known; None if not a date."""
    today = now(turn)
    parts = value.split()
    if len(parts) == 1 and _TIME.match(parts[0]):
        at = _time(parts[0])
        return (datetime.combine(today.date(), at), True) if at else None
    if not 1 <= len(parts) <= 2:
        return None
    try:
        day = parse_date(parts[0], today.date())
    except ParseError:
        return None
    if len(parts) == 1:
        return (today, True) if day == today.date() else (datetime.combine(day, time()), False)
    at = _time(parts[1])
    return (datetime.combine(day, at), True) if at else None


def seized_of(turn: Turn, value: str) -> date | None:
    """The day of seizure typed (``18-11-2026``), or None if it is not a date (s.19)."""
    try:
        return parse_date(value.strip(), now(turn).date())
    except ParseError:
        return None


def _order(turn: Turn, state: dict[str, Any]) -> Seize:
    """The report as the SEIZE order a line would give (``bot.conversation.orders``)."""
    brought = brought_at(state)
    hour_known = state.get("hour_known", True)
    description = state["description"]
    # Lots of different owners: each lot's owner and number, as ``SEIZE 1 cow OWNER ...
    # 1 goat OWNER ...`` gives them (None: not known); else the case's one owner.
    owners = state.get("owners") or [None] * len(state["lots"])
    return Seize(
        lang=turn.lang,
        lots=tuple(
            SeizeLot(count, kind, description, *(owner or ("", None)))
            for (kind, count), owner in zip(state["lots"], owners, strict=True)
        ),
        place=state["place"],
        on=brought.date() if brought is not None else None,
        at=brought.time() if brought is not None and hour_known else None,
        seizer=state["seizer"],
        description=description,
        owner=state["owner"],
        owner_phone=state["owner_phone"],
        seized_on=date.fromisoformat(state["seized_on"]) if state.get("seized_on") else None,
    )


async def record(turn: Turn, state: dict[str, Any]) -> Reply:
    """Record the seizure and queue the owner's SMS, through the dispatcher as a SEIZE
    line is (``run_command``); the photos of the report kept with the new case; the
    outcome, its reply with the photos' lines. Raises what keeping the photos refuses
    (``DomainError``, ``AppError``), for the caller to roll back and tell."""
    tx, deps, caller = turn.tx, turn.deps, turn.caller
    assert caller.pound is not None
    reply = await run_command(tx, deps, caller, _order(turn, state), turn.tr.lang, sms=False)
    seized = reply.loaded
    if reply.refused or seized is None:
        return reply
    pictures = staged(state)
    # A report begun before photos were downloaded holds bare file ids: fetched later.
    file_ids = [p for p in state.get("photos", []) if isinstance(p, str)]
    if not pictures and not file_ids:
        return reply
    for file_id in file_ids:
        await add_pending(tx, seized.row.id, None, file_id)
    lines = await attach_pictures(tx, deps, caller, Target(seized, None), pictures, turn.tr)
    return replace(reply, text="\n".join([reply.text, *lines]))
