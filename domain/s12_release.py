"""s.12: the owner claims the cattle and pays the fines and charges due that day, and
the cattle are released: all the dues, not a part (a part payment releases nothing)."""

from __future__ import annotations

from datetime import date

from domain.case import Case
from domain.errors import AmountNotDueError
from domain.events import ClaimedAndPaid
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues, DuesItem
from domain.s15_sale import DEFAULT_DEDUCTION_ORDER, dues_unmet
from domain.tariff import Tariff

__all__ = [
    "release_on_payment",
    "require_whole_dues",
]


@cites("s.12", "s.14")
def require_whole_dues(dues: Dues, tendered: Money | None, provision: str) -> None:
    """s.12: the cattle are released "on payment of the fines and charges"; s.14: on
    "deposit of the fines and charges incurred": all of them, not a part. An amount
    given (``tendered``) must be the dues of the day; none given means the dues."""
    if tendered is not None and tendered != dues.total:
        raise AmountNotDueError(
            f"{tendered} is not the {dues.total} due on {dues.on.isoformat()}",
            provision,
            tendered=tendered,
            dues=dues,
        )


@cites("s.12")
def release_on_payment(
    case: Case,
    tariff: Tariff,
    day: date,
    today: date,
    tendered: Money | None = None,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> Case:
    """The owner claims and pays the fines and charges due that day; cattle released.
    After a refused account (s.15(5)), what the first sale met is not paid again
    (``dues_unmet``). An amount given that is not the dues of the day is refused,
    nothing recorded."""
    dues = dues_unmet(case, tariff, day, order)
    after = case.apply(ClaimedAndPaid(on=day, paid=dues.total), today)
    require_whole_dues(dues, tendered, "s.12")
    return after
