"""s.12: the owner claims the cattle and pays the fines and charges due that day, and
the cattle are released: all the dues, not a part (a part payment releases nothing).

On the owner's route, once part of the cattle were sold (s.15(1)) and the proceeds do not
yet meet the dues and the expenses of sale, the owner may still take the rest by paying
what remains owed after the proceeds (s.12, s.15(2)): the sale is settled from its
proceeds and the payment meets the rest, in one step, with the account (s.15(3))."""

from __future__ import annotations

from datetime import date

from domain.errors import AmountNotDueError, TransitionRefusedError
from domain.events import ClaimedAndPaid, SaleClosed
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues, DuesItem
from domain.s15_sale import DEFAULT_DEDUCTION_ORDER, close_sale, dues_unmet, sale_progress
from domain.step import AnyCase
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
    case: AnyCase,
    tariff: Tariff,
    day: date,
    today: date,
    tendered: Money | None = None,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> AnyCase:
    """The owner claims and pays the fines and charges due that day; cattle released.
    An amount given that is not the dues of the day is refused, nothing recorded.
    During a part sale on the owner's route: ``pay_rest_after_part_sale``. After a
    refused account (s.15(5)), what the first sale met is not paid again
    (``dues_unmet``)."""
    if case.pays_rest_after_part_sale:
        return pay_rest_after_part_sale(case, tariff, day, today, tendered, order)
    dues = dues_unmet(case, tariff, day, order)
    after = case.apply(ClaimedAndPaid(on=day, paid=dues.total), today)
    require_whole_dues(dues, tendered, "s.12")
    return after


@cites("s.12", "s.15(1)", "s.15(2)", "s.15(3)", "s.15(4)")
def pay_rest_after_part_sale(
    case: AnyCase,
    tariff: Tariff,
    day: date,
    today: date,
    tendered: Money | None = None,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> AnyCase:
    """s.15(1) sells "as many of them as may be necessary"; until the proceeds meet the
    dues and the expenses of sale stated (s.15(2)), the cattle not sold stay in the pound
    and the owner may take them by paying what remains owed (s.12): the dues to the day
    and those expenses, less the proceeds. The sale is settled from its proceeds (the
    s.15(3) account, nothing to the owner) and the payment meets the rest: the case after
    both steps. Refused, nothing recorded, once the proceeds meet the dues (the sale is
    settled and the rest delivered with the account) or for an amount that is not what
    remains owed."""
    expenses = case.expected_expenses
    probe = SaleClosed(
        on=day, expenses=expenses, to_owner_or_deposit=Money.zero(), owner_appeared=True
    )
    case.apply(probe, today)  # the day and the stage, before the amounts
    progress = sale_progress(case, tariff, day)
    if not progress.still_owed:
        raise TransitionRefusedError(
            f"the proceeds of {progress.proceeds} meet the dues and the expenses of sale: "
            "nothing is owed; the sale is settled and the rest go back with the account",
            "s.15(1)",
            reason="sale_met_dues",
        )
    settled, settlement = close_sale(
        case, tariff, on=day, expenses=expenses, today=today, order=order
    )
    owed = settlement.unmet
    if tendered is not None and tendered != owed:
        raise AmountNotDueError(
            f"{tendered} is not the {owed} that remains owed on {day.isoformat()} after the "
            f"proceeds of {progress.proceeds}",
            "s.12",
            tendered=tendered,
            dues=settlement.dues,
            owed=owed,
            proceeds=progress.proceeds,
        )
    return settled.apply(ClaimedAndPaid(on=day, paid=owed), today)
