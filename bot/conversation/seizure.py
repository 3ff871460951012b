"""Cattle brought in, from any channel: the seizure report a SEIZE (or a CORRECT of it)
makes, and the use case that records it, returning what was done (``Seized``: the
owner's SMS is a handler of it, ``bot.notifications.handlers``; the keeper's reply is
worded from it, ``bot.conversation.rendering``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, time

from bot.conversation import orders as o
from bot.services import keeper as keeping
from bot.services.base import Deps
from bot.services.outcomes import Seized
from bot.store.tx import Tx
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.errors import NotAllowedError
from domain.s07_seizure import Lot, Person, Seizure

__all__ = ["corrected", "person_of", "pound_of", "report_seizure", "seizure_of"]


def person_of(text: str) -> Person | None:
    """``"Rajan, Pathimangalam"`` -> a person with a residence (s.7); blank -> None."""
    if not text.strip():
        return None
    name, _, residence = text.partition(",")
    return Person(name.strip(), residence.strip())


def pound_of(command: o.Seize, caller: Caller) -> str:
    """The pound a SEIZE brings the cattle to (s.7): a keeper's own pound; the pound an
    officer's names (whether it is of the officer's authority is the use case's to say,
    ``bot.services.keeper.record_seizure``). The chat's SEIZE has no word for a pound, so
    an officer records a seizure on the web desk's form, which names it. Anyone else may
    not report a seizure."""
    if caller.role == KEEPER and caller.pound is not None:
        if command.pound not in (None, caller.pound):
            raise NotAllowedError("not the keeper of this pound", pound=command.pound)
        return caller.pound
    if caller.role == OFFICER and command.pound is not None:
        return command.pound
    raise NotAllowedError("only a pound's keeper, or an officer naming its pound, reports one")


def seizure_of(command: o.Seize, caller: Caller, now: datetime) -> Seizure:
    """The seizure report (s.7) a SEIZE makes, at the local time ``now``, into the pound
    ``pound_of`` gives."""
    pound = pound_of(command, caller)
    day = command.on or now.date()
    # Without an hour, a report of today is taken as brought now; of an earlier day, the
    # hour is unknown and not shown.
    hour_known = command.at is not None or day == now.date()
    hour = command.at or (now.time() if day == now.date() else time())
    return Seizure(
        pound=pound,
        lots=tuple(
            Lot(lot.kind, lot.count, lot.description, owner=person_of(lot.owner))
            for lot in command.lots
        ),
        place_seized=command.place,
        brought_at=datetime.combine(day, hour.replace(second=0, microsecond=0)),
        seizer=person_of(command.seizer),
        owner=person_of(command.owner),
        seized_on=command.seized_on,
        hour_known=hour_known,
    )


def corrected(seizure: Seizure, command: o.Correct) -> Seizure:
    """The seizure report with the one fact ``command`` corrects (s.7)."""
    field = command.fact
    if field == "cattle":
        # A lot written without a description keeps the one it had, if of the same kind.
        # A lot keeps the owner of its own it had, by its place.
        old = seizure.lots
        lots = tuple(
            Lot(
                lot.kind,
                lot.count,
                lot.description
                or (old[i].description if i < len(old) and old[i].kind == lot.kind else ""),
                owner=old[i].owner if i < len(old) else None,
            )
            for i, lot in enumerate(command.lots)
        )
        return replace(seizure, lots=lots)
    if field == "place":
        return replace(seizure, place_seized=command.text)
    if field == "brought":
        assert command.on is not None
        brought = datetime.combine(command.on, command.at or time())
        return replace(seizure, brought_at=brought, hour_known=command.at is not None)
    if field == "seized":
        return replace(seizure, seized_on=command.seized_on)
    if field == "seizer":
        return replace(seizure, seizer=person_of(command.text))
    if command.lot is not None:  # OWNER LOT n: that lot's owner, of it alone
        index = seizure.index_of_lot(command.lot)
        owned = list(seizure.lots)
        owned[index] = replace(owned[index], owner=person_of(command.owner) or owned[index].owner)
        return replace(seizure, lots=tuple(owned))
    return replace(seizure, owner=person_of(command.owner) or seizure.owner)


async def report_seizure(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    seizure: Seizure,
    owner_phone: str | None,
    lot_phones: Sequence[str | None] = (),
) -> Seized:
    """Record cattle brought in (s.7): the case, its fines (s.11), what one more day
    costs, the pound's name and the owner's number (``render.seizure_ack`` words the
    keeper's reply: case number, fines, daily charge, s.13(1) date)."""
    recorded = await keeping.record_seizure(
        tx, deps, caller, seizure, owner_phone=owner_phone, lot_phones=lot_phones
    )
    # The rate in force on the day brought (s.4), not today's: a report entered late
    # quotes what the days in the pound were charged at.
    daily = keeping.daily_charge(deps, recorded.case, seizure.impounded_on)
    pound_name = deps.config.pounds[seizure.pound].name
    phones = tuple(lot_phones) + (None,) * (len(seizure.lots) - len(lot_phones))
    return Seized(
        recorded.loaded, recorded.dues, daily, pound_name, owner_phone, phones[: len(seizure.lots)]
    )
