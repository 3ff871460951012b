"""ss.16 and 17: what becomes of the proceeds of a sale.

s.16(1) the fines go to the local authority, s.16(2) the feeding charges to the
pound-keeper; s.16(3) a surplus no one claims is held in deposit for three months, and a
claim preferred within them is heard; s.17(1) what is not claimed in time is credited to
the authority's fund. The postings themselves are in ``domain.ledger``; the settling of
a sale in ``domain.s15_sale``."""

from __future__ import annotations

from datetime import date

from domain.calendar import add_months, day_after_period
from domain.provisions import cites

__all__ = [
    "deposit_window_end",
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
