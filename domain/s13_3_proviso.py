"""The proviso to s.13(3): cattle that in the opinion of the Director are not likely to
fetch a fair price may be disposed of in such other manner as he thinks fit. The order
is the Director's: the office that holds the power is configured (its name in each
language and a code an officer types), and a BY that names it exactly is the office's
order; anything else ("Deputy Director of Panchayats", "Secretary for the Director") is
refused. It is recorded with its reference, the manner and any proceeds, instead of a
sale."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping
from datetime import date
from typing import TYPE_CHECKING

from domain.errors import TransitionRefusedError
from domain.money import Money
from domain.provisions import cites

if TYPE_CHECKING:
    from domain.case import Case

__all__ = [
    "Offices",
    "dispose_otherwise",
    "office_named",
    "require_director",
]

#: The offices whose holder may order another disposal: each office as it is recorded
#: (its name), with every way an officer may write it after BY (its code, its names and
#: short forms in each language).
Offices = Mapping[str, Collection[str]]


def _said(text: str) -> str:
    """Text as compared: NFC, casefolded, single-spaced, without zero-width (non-)joiners
    (typed or not in Malayalam, Tamil and Kannada, they do not change the word)."""
    text = unicodedata.normalize("NFC", text).replace("\u200c", "").replace("\u200d", "")
    return " ".join(text.casefold().split())


@cites("s.13(3) proviso")
def office_named(ordered_by: str, offices: Offices) -> str | None:
    """The office ``ordered_by`` names, as it is recorded, or None.

    s.13(3) proviso: "in the opinion of the Director". Only the office itself names it:
    its code or one of its names, whole (case and spacing aside). A title that contains
    the word ("Deputy Director of Panchayats"), or someone acting "for the Director",
    names another office."""
    said = _said(ordered_by)
    for office, spellings in offices.items():
        if said and any(_said(form) == said for form in (office, *spellings)):
            return office
    return None


@cites("s.13(3) proviso")
def require_director(ordered_by: str, offices: Offices) -> str:
    """s.13(3) proviso: cattle "in the opinion of the Director, not likely to fetch a
    fair price" may be disposed of "in such other manner as he thinks fit": the order is
    the Director's. The office named (as recorded); whoever else is named as ordering
    it (a secretary, a keeper, a deputy) is refused."""
    office = office_named(ordered_by, offices)
    if office is None:
        raise TransitionRefusedError(
            f"{ordered_by!r} is not the office that may order another disposal "
            f"({', '.join(offices)})",
            "s.13(3) proviso",
            reason="not_director",
            facts={"who": ordered_by[:60]},
        )
    return office


@cites("s.13(3) proviso")
def dispose_otherwise(
    case: Case,
    *,
    lot: int,
    count: int,
    manner: str,
    ordered_by: str,
    order_reference: str,
    proceeds: Money,
    on: date,
    today: date,
    offices: Offices,
) -> Case:
    """The Director, of the opinion that the cattle will not fetch a fair price, ordered
    another disposal. The opinion is the Director's, recorded with the order and the
    office as it is named (``offices``); poundbot never judges a fair price itself. An
    order said to be anyone else's is refused."""
    # Here, not at the top: the configuration reads this module's ``office_named``
    # without the events of a case (``poundbot config check`` starts fast).
    from domain.events import DisposedOtherwise

    office = office_named(ordered_by, offices)
    event = DisposedOtherwise(
        on=on,
        lot=lot,
        count=count,
        manner=manner,
        ordered_by=office or ordered_by,
        order_reference=order_reference,
        proceeds=proceeds,
    )
    after = case.apply(event, today)  # the stage and the lot first
    require_director(ordered_by, offices)
    return after
