"""The owners of a case's cattle, each by their number (s.7): which lots are whose, and
the case an owner's lots would make on their own, to answer and to tell each owner of
their own cattle alone, never of the other owner's (nor their name or number).

The numbers are those the store keeps: each lot's own owner's (``Tx.lot_phones``), else
the case owner's (``cases.owner_phone``) for a lot without an owner of its own."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from bot.store.port import CaseStore
from bot.store.tx import LoadedCase
from domain.case import Case
from domain.errors import DomainError
from domain.events import LotsSeparated
from domain.s07_seizure import Seizure

__all__ = [
    "is_owners_number",
    "lots_of_phone",
    "owners_case",
    "owners_lots",
    "owners_part",
    "phone_of_lot",
]


def phone_of_lot(
    seizure: Seizure, lot_phones: Sequence[str | None], owner_phone: str | None, lot: int
) -> str | None:
    """The number of the owner of the lot at index ``lot``: its own owner's, else the
    case owner's when the lot names no owner of its own."""
    own = lot_phones[lot] if lot < len(lot_phones) else None
    if own:
        return own
    return owner_phone if seizure.lots[lot].owner is None else None


def lots_of_phone(
    seizure: Seizure, lot_phones: Sequence[str | None], owner_phone: str | None, phone: str
) -> tuple[int, ...]:
    """The indexes of the lots whose owner has the number ``phone``."""
    return tuple(
        i
        for i in range(len(seizure.lots))
        if phone_of_lot(seizure, lot_phones, owner_phone, i) == phone
    )


def owners_lots(
    seizure: Seizure, lot_phones: Sequence[str | None], owner_phone: str | None
) -> tuple[tuple[tuple[int, ...], str | None], ...]:
    """Each owner's lots (indexes) with their number, in the order of the lots: the lots
    of one number together; those of an owner without a number by owner
    (``Seizure.lots_of_owner``: a lot of an owner not known alone)."""
    groups: dict[tuple[str, object], list[int]] = {}
    for i in range(len(seizure.lots)):
        phone = phone_of_lot(seizure, lot_phones, owner_phone, i)
        key: tuple[str, object] = ("phone", phone) if phone else ("lots", seizure.lots_of_owner(i))
        groups.setdefault(key, []).append(i)
    return tuple(
        (tuple(lots), str(key[1]) if key[0] == "phone" else None) for key, lots in groups.items()
    )


def owners_part(case: Case, lots: tuple[int, ...], today: date) -> Case | None:
    """The case the lots at ``lots`` would make on their own, under the case's number
    (``Case.part``: nothing written), when they are some of the lots of a case of more
    than one owner and could still be separated (s.7); else None: the lots are all the
    case's, or its cattle were dealt with together (a head offered, money moved), and
    what is asked of them is the whole case's."""
    if not lots or len(lots) >= len(case.seizure.lots) or not case.seizure.owned_apart:
        return None
    try:
        case.apply(LotsSeparated(on=today, lots=lots, into=case.number), today)
    except DomainError:
        return None
    return case.part(lots, into=case.number)


async def owners_case(
    tx: CaseStore, loaded: LoadedCase, phone: str | None, today: date
) -> Case | None:
    """The case an owner with the number ``phone`` would see of ``loaded``: their lots on
    their own (``owners_part``) when the case is of more than one owner; None when the
    whole case is theirs to see (one owner's, the cattle dealt with together, or the
    number none of its owners')."""
    case = loaded.case
    if phone is None or not case.seizure.owned_apart:
        return None
    phones = await tx.lot_phones(loaded)
    return owners_part(
        case, lots_of_phone(case.seizure, phones, loaded.row.owner_phone, phone), today
    )


async def is_owners_number(tx: CaseStore, loaded: LoadedCase, phone: str) -> bool:
    """Whether ``phone`` is the number of an owner of some of the case's cattle now (the
    case owner's, or a lot's own owner's)."""
    return phone == loaded.row.owner_phone or phone in await tx.lot_phones(loaded)
