"""The provisions of the Act that poundbot applies, where their rules live, and the
``@cites`` decorator.

Every public rule function in ``domain`` carries the provisions it applies as
``fn.__provisions__``; a meta-test checks that each one is in ``PROVISIONS``, and that a
rule lives in the module of its section (``MODULES``): from s.13 to ``s13_unclaimed``
and ``tests/unit/test_s13_unclaimed.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

__all__ = [
    "FOUNDATIONS",
    "MODULES",
    "PROVISIONS",
    "WHOLE_CASE",
    "UnknownProvisionError",
    "cites",
    "home_of",
    "provisions_of",
]

#: The table of provisions: citation -> what it provides (short, English).
PROVISIONS: Final[dict[str, str]] = {
    "s.2(1)": "meaning of cattle (kinds configurable, others notified by the Government)",
    "s.4": "rates for feeding and watering fixed by the local authority",
    "s.7": "pound-keeper records the cattle, the day and hour brought, seizer and owner",
    "s.11": "fines per head by kind of animal, on the scale notified",
    "s.12": "owner claims, pays fines and charges, cattle released",
    "s.13(1)": "unclaimed within seven days of impounding: keeper reports",
    "s.13(2)": "notice affixed at the office and proclaimed by beat of drum",
    "s.13(2)(a)": "notice: number and description of the cattle",
    "s.13(2)(b)": "notice: place where seized",
    "s.13(2)(c)": "notice: place where impounded",
    "s.13(3)": "unclaimed within seven days of the notice: public auction",
    "s.13(3) proviso": "the Director may order other disposal when no fair price is likely",
    "s.14": "owner disputing the seizure gets the cattle on deposit of fines and charges",
    "s.15(1)": "owner refusing or omitting to pay: as many cattle as necessary sold",
    "s.15(2)": "fines, feeding and watering and sale expenses deducted from proceeds",
    "s.15(3)": "remaining cattle and balance delivered to the owner with an account",
    "s.15(3)(a)": "account: number of cattle seized",
    "s.15(3)(b)": "account: time during which impounded",
    "s.15(3)(c)": "account: fines and charges incurred",
    "s.15(3)(d)": "account: number of cattle sold",
    "s.15(3)(e)": "account: proceeds of sale",
    "s.15(3)(f)": "account: manner in which the proceeds were disposed of",
    "s.15(4)": "owner gives a receipt for cattle and balance delivered",
    "s.15(5)": "owner refusing delivery: cattle and proceeds deemed unclaimed",
    "s.16(1)": "fines deducted sent to the local authority",
    "s.16(2)": "feeding and watering charges paid to the pound-keeper",
    "s.16(3)": "surplus unclaimed proceeds held in deposit for three months",
    "s.17(1)": "fines and unclaimed proceeds credited to the fund of the local authority",
    "s.18": "officers, pound-keepers and members may not buy at these sales",
    "s.19": "complaint of illegal seizure within ten days from the date of seizure",
    "GCA s.8": "general clauses: a period 'from' a date excludes that date",
}

#: Where the rules of each provision live: the module of its section (``domain/<name>.py``,
#: tested in ``tests/unit/test_<name>.py``), then any other module of that section. A rule
#: citing provisions of one section lives in that section's module; a rule that joins
#: several sections lives in one of theirs or in a module of the whole case.
MODULES: Final[dict[str, tuple[str, ...]]] = {
    "s.2(1)": ("kinds",),
    "s.4": ("s04_s11_dues", "tariff", "dues_items"),
    "s.7": ("s07_seizure", "s07_correction", "s07_owners"),
    "s.11": ("s04_s11_dues", "tariff", "dues_items"),
    "s.12": ("s12_release", "s12_claim"),
    "s.13(1)": ("s13_unclaimed",),
    "s.13(2)": ("s13_unclaimed",),
    "s.13(2)(a)": ("s13_unclaimed",),
    "s.13(2)(b)": ("s13_unclaimed",),
    "s.13(2)(c)": ("s13_unclaimed",),
    "s.13(3)": ("s13_unclaimed",),
    "s.13(3) proviso": ("s13_3_proviso", "offices"),
    "s.14": ("s14_deposit",),
    "s.15(1)": ("s15_sale",),
    "s.15(2)": ("s15_sale",),
    "s.15(3)": ("s15_3_account",),
    "s.15(3)(a)": ("s15_3_account",),
    "s.15(3)(b)": ("s15_3_account",),
    "s.15(3)(c)": ("s15_3_account",),
    "s.15(3)(d)": ("s15_3_account",),
    "s.15(3)(e)": ("s15_3_account",),
    "s.15(3)(f)": ("s15_3_account",),
    "s.15(4)": ("s15_3_account",),
    "s.15(5)": ("s15_3_account",),
    "s.16(1)": ("s16_s17_proceeds",),
    "s.16(2)": ("s16_s17_proceeds",),
    "s.16(3)": ("s16_s17_proceeds",),
    "s.17(1)": ("s16_s17_proceeds",),
    "s.18": ("s18_buyers",),
    "s.19": ("s14_deposit",),
    "GCA s.8": ("calendar",),
}

#: The modules of the whole case: each joins the rules of many sections, and why.
WHOLE_CASE: Final[dict[str, str]] = {
    "case": "the fold of a case's events, each step taken by its declaration",
    "step": "what a section declares of each step, and what its rules read of a case",
    "steps": "the declarations of every section, gathered for the fold",
    "events": "the events of a case, one per step the Act provides",
    "stages": "where a case stands, the vocabulary of the fold",
    "statement": "the one statement of a case on a day that every answer renders",
    "recorded": "the steps of a case its answers tell of, as the statement holds them",
    "figures": "the figures of the statement every view of a case is built from",
    "deadlines": "the statutory deadlines of a case in any stage, as its steps declare them",
    "deadline": "what a statutory deadline is: its day, who acts, under which provision",
    "reminders": "who is told of each deadline, on which days",
    "record": "what the pound's record shows of each case, for the charts",
    "ledger": "the postings every step makes, as each declares them, kept in one book",
    "accounts": "the accounts of the book and what a posting is",
    "profiles": "the Acts poundbot applies: how each cites every step, who holds each power",
}

#: What every section stands on, and cites nothing of its own.
FOUNDATIONS: Final = ("calendar", "errors", "money", "provisions")


def home_of(provision: str) -> str:
    """The module of the section of ``provision`` (``s.13(2)`` -> ``s13_unclaimed``)."""
    return MODULES[provision][0]


F = TypeVar("F", bound=Callable[..., object])


class UnknownProvisionError(ValueError):
    """A citation that is not in the table of provisions."""


def cites(*provisions: str) -> Callable[[F], F]:
    """Mark a rule function with the provisions of the Act it applies."""
    for p in provisions:
        if p not in PROVISIONS:
            raise UnknownProvisionError(p)
    if not provisions:
        raise UnknownProvisionError("a rule must cite at least one provision")

    def mark(fn: F) -> F:
        fn.__provisions__ = tuple(provisions)  # type: ignore[attr-defined]
        return fn

    return mark


def provisions_of(fn: Callable[..., object]) -> tuple[str, ...]:
    """The provisions a rule function cites (empty if it cites none)."""
    return tuple(getattr(fn, "__provisions__", ()))
