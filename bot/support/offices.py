"""The offices a user holds: who acts under an Act is an office, not a name
(``domain.profiles.Office``).

A keeper holds the pound-keeper's office. An officer holds the offices the operator
declared (``poundbot users add --office``, ``poundbot users offices``); an officer who
holds none declared stands, as every officer did before offices were declared, for the
local authority: its council, its Secretary and the officer the Director specifies
(``UNDECLARED``). What an Act gives to an office goes to its holders among the
authority's officers, and only they take its steps; where none of them holds it, every
officer (``bot.notifications.notify``, ``bot.services.base.require_office``).

Stored as the offices' values joined by commas, in the order of ``Office``
(``users.offices``, ``invites.offices``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from domain.profiles import Office

__all__ = [
    "KEEPER_OFFICES",
    "UNDECLARED",
    "declared_offices",
    "held_offices",
    "office_of",
    "offices_text",
    "refused_office",
]

#: What a keeper holds.
KEEPER_OFFICES: Final = frozenset({Office.POUND_KEEPER})
#: What an officer who holds no office declared holds: the local authority.
UNDECLARED: Final = frozenset({Office.LOCAL_AUTHORITY, Office.SECRETARY, Office.SPECIFIED_OFFICER})

_KEEPER, _OFFICER = "keeper", "officer"  # bot.support.caller's roles (it imports this)


def office_of(value: str) -> Office:
    """The office named by its value (``district_magistrate``); another is ValueError,
    naming those there are."""
    try:
        return Office(value.strip().lower())
    except ValueError:
        names = ", ".join(o.value for o in Office)
        raise ValueError(f"unknown office {value!r}: one of {names}") from None


def offices_text(offices: Iterable[Office]) -> str:
    """Offices as they are stored: their values, in the order of ``Office``, once each."""
    held = set(offices)
    return ",".join(o.value for o in Office if o in held)


def declared_offices(text: str | None) -> tuple[Office, ...]:
    """The offices a stored ``offices`` column declares (none for "" or None); a value no
    office has (written by hand) is passed over: it grants nothing."""
    values = {v.strip() for v in (text or "").split(",")}
    return tuple(o for o in Office if o.value in values)


def held_offices(role: str, declared: Iterable[Office]) -> frozenset[Office]:
    """The offices a user in ``role`` with the offices ``declared`` holds: a keeper the
    pound-keeper's; an officer those declared, or the local authority's
    (``UNDECLARED``) when none is; anyone else none."""
    if role == _KEEPER:
        return KEEPER_OFFICES
    if role == _OFFICER:
        return frozenset(declared) or UNDECLARED
    return frozenset()


def refused_office(role: str, office: Office) -> str | None:
    """Why a user in ``role`` may not be declared to hold ``office`` (English, for the
    operator), or None: a keeper holds only the pound-keeper's office, an officer any
    other, an admin none."""
    if role == _KEEPER and office is not Office.POUND_KEEPER:
        return f"a keeper holds only the office pound_keeper, not {office.value}"
    if role == _OFFICER and office is Office.POUND_KEEPER:
        return "an officer cannot hold the office pound_keeper: register a keeper"
    if role not in (_KEEPER, _OFFICER):
        return f"an {role} holds no office"
    return None
