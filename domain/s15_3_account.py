"""s.15(3) to s.15(5): after a sale on the owner's refusal, the account delivered with
the remaining cattle and the balance, stating (a) the cattle seized, (b) the time
impounded, (c) the fines and charges, (d) the cattle sold, (e) the proceeds and (f) how
they were disposed of; the owner's receipt (s.15(4)); an owner who refuses delivery
(s.15(5)), whose cattle and proceeds are then deemed unclaimed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.case import Case
from domain.errors import TransitionRefusedError
from domain.events import (
    AccountDelivered,
    AccountRefused,
    DisposedOtherwise,
    LotOffered,
    SaleClosed,
)
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues
from domain.s15_sale import Disbursement, Settlement

__all__ = [
    "Account",
    "Receipt",
    "account_for",
    "deliver_account",
    "receipt_for",
    "refuse_account",
]


@dataclass(frozen=True, slots=True)
class Account:
    """The account delivered with the remaining cattle and the balance (s.15(3))."""

    case_number: str
    cattle_seized: int  # (a)
    impounded_from: date  # (b)
    impounded_until: date  # (b)
    fines_and_charges: Money  # (c)
    dues: Dues  # (c), line by line
    cattle_sold: int  # (d)
    proceeds: Money  # (e)
    disposal: tuple[Disbursement, ...]  # (f)
    cattle_remaining: int
    balance: Money

    @property
    def days_impounded(self) -> int:
        """Calendar days in the pound, the first and the last both counted (s.15(3)(b))."""
        return (self.impounded_until - self.impounded_from).days + 1


@cites(
    "s.15(3)", "s.15(3)(a)", "s.15(3)(b)", "s.15(3)(c)", "s.15(3)(d)", "s.15(3)(e)", "s.15(3)(f)"
)
def account_for(case: Case, settlement: Settlement, closed_on: date) -> Account:
    """The s.15(3) account of a settled sale, items (a) to (f).

    Of a second sale (the rest of a refused account sold as unclaimed, s.15(5)), the
    heads sold and the proceeds are those of that sale.
    """
    sold, gone = _heads_gone(case, closed_on)
    return Account(
        case_number=case.number,
        cattle_seized=case.seizure.head_count,  # (a) the number of cattle seized
        impounded_from=case.seizure.impounded_on,  # (b) the time during which impounded
        impounded_until=closed_on,  # (b)
        fines_and_charges=settlement.dues.total,  # (c) fines and charges incurred
        dues=settlement.dues,  # (c)
        cattle_sold=sold,  # (d) the number of cattle sold
        proceeds=settlement.proceeds,  # (e) the proceeds of sale
        disposal=settlement.disbursements,  # (f) how the proceeds were disposed of
        cattle_remaining=case.seizure.head_count - gone,
        balance=settlement.balance,
    )


def _heads_gone(case: Case, closed_on: date) -> tuple[int, int]:
    """Heads sold or disposed of in the sale that closed on ``closed_on``, and in all
    the sales up to it."""
    in_round = gone = 0
    for event in case.events:
        if isinstance(event, SaleClosed):
            if event.on >= closed_on:
                break
            in_round = 0  # an earlier sale, already settled
        elif (isinstance(event, LotOffered) and event.sold) or isinstance(event, DisposedOtherwise):
            in_round += event.count
            gone += event.count
    return in_round, gone


@dataclass(frozen=True, slots=True)
class Receipt:
    """The owner's receipt for the cattle and the balance delivered (s.15(4))."""

    case_number: str
    received_by: str
    on: date
    cattle_received: int
    balance_received: Money


@cites("s.15(4)")
def receipt_for(account: Account, received_by: str, on: date) -> Receipt:
    """s.15(4): the owner or agent gives a receipt for the cattle and the balance."""
    return Receipt(account.case_number, received_by, on, account.cattle_remaining, account.balance)


@cites("s.15(4)")
def deliver_account(case: Case, *, received_by: str, on: date, today: date) -> Case:
    """The owner took the remaining cattle and the balance and signed the receipt."""
    if not received_by.strip():
        raise TransitionRefusedError(
            "a receipt needs the name of who received", "s.15(4)", reason="receipt_without_name"
        )
    return case.apply(AccountDelivered(on=on, receipt_by=received_by), today)


@cites("s.15(5)", "s.16(3)")
def refuse_account(case: Case, *, on: date, today: date) -> Case:
    """s.15(5): the owner refused; cattle and proceeds are deemed unclaimed, the balance
    goes into deposit (s.16(3)). Remaining cattle are then dealt with as unclaimed."""
    return case.apply(AccountRefused(on=on), today)
