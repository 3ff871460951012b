"""ss.16 and 17: what becomes of the proceeds of a sale.

s.16(1) the fines go to the local authority, s.16(2) the feeding charges to the
pound-keeper; s.16(3) a surplus no one claims is held in deposit for three months, and a
claim preferred within them is heard; s.17(1) what is not claimed in time is credited to
the authority's fund. The postings themselves are in ``domain.ledger``; the settling of
a sale in ``domain.s15_sale``."""

from __future__ import annotations

from datetime import date
from typing import TypeVar

from domain.calendar import add_months, day_after_period
from domain.errors import TransitionRefusedError
from domain.events import CreditedToFund, DepositClaimed
from domain.provisions import cites
from domain.stages import CaseSteps, Stage

_Case = TypeVar("_Case", bound=CaseSteps)

__all__ = [
    "credit_to_fund",
    "deposit_window_end",
    "establish_claim",
    "fund_credit_from",
    "same_claimant",
]


@cites("s.16(3)")
def deposit_window_end(deposited_on: date) -> date:
    """Last day on which a claim to deposited surplus proceeds may be preferred.

    s.16(3): "... if no claim thereto be preferred within three months ..." Calendar
    months to the corresponding date, the month's last day when there is none
    (30 November 2026 -> 28 February 2027).
    """
    return add_months(deposited_on, 3)


@cites("s.17(1)", "s.16(3)")
def fund_credit_from(deposited_on: date) -> date:
    """First day unclaimed surplus in deposit may be credited to the authority's fund.

    s.16(3): held in deposit "if no claim thereto be preferred within three months";
    s.17(1): then credited to the fund. The day after the three months end.
    """
    return day_after_period(deposit_window_end(deposited_on), 0)


@cites("s.16(3)")
def same_claimant(a: str, b: str) -> bool:
    """Two spellings of a claimant's name, ignoring case, dots and spaces."""

    def key(name: str) -> str:
        return "".join(ch for ch in name.casefold() if ch.isalnum())

    return bool(key(a)) and key(a) == key(b)


@cites("s.16(3)")
def establish_claim(
    case: _Case, *, claimant: str, preferred_on: date, reference: str, on: date, today: date
) -> _Case:
    """A claim to the deposit, preferred within three months, established on ``on``."""
    event = DepositClaimed(on=on, claimant=claimant, preferred_on=preferred_on, reference=reference)
    return case.apply(event, today)


@cites("s.17(1)", "s.16(3)")
def credit_to_fund(case: _Case, *, on: date, today: date) -> _Case:
    """s.17(1): unclaimed proceeds, three months in deposit, go to the authority's fund."""
    if case.stage is not Stage.IN_DEPOSIT:
        raise TransitionRefusedError(
            "nothing of this case is in deposit",
            "s.16(3)",
            reason="stage",
            facts={"stage": case.stage.value, "date": case.stage_since},
        )
    return case.apply(CreditedToFund(on=on), today)
