"""The offices that hold the Act's powers, and how an officer names one.

An order is an office's, not a person's: the proviso to s.13(3) gives the power to order
another disposal to "the Director". The offices are configured (each office's name as
it is recorded, and every way an officer may write it: a code, its names and short forms
in each language); a name that is not one of them names another office. This module
reads no event of a case: the configuration reads it (``poundbot config check`` starts
fast)."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping

from domain.errors import TransitionRefusedError
from domain.provisions import cites

__all__ = [
    "Offices",
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
