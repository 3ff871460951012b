"""s.15(3) to s.15(5): after a sale on the owner's refusal, the account delivered with
the remaining cattle and the balance, stating (a) the cattle seized, (b) the time
impounded, (c) the fines and charges, (d) the cattle sold, (e) the proceeds and (f) how
they were disposed of; the owner's receipt (s.15(4)); an owner who refuses delivery
(s.15(5)), whose cattle and proceeds are then deemed unclaimed."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Protocol

from domain.accounts import OWNER_BALANCE, SURPLUS_DEPOSIT, Postings, move
from domain.dues_items import DuesItem
from domain.errors import TransitionRefusedError
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    ClaimedAndPaid,
    DeliveredOnDeposit,
    DisposedOtherwise,
    LotOffered,
    SaleClosed,
    SaleExpensesStated,
)
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Lot
from domain.s13_unclaimed import head_gone
from domain.s15_sale import Disbursement, Settlement
from domain.stages import Folded, Stage
from domain.step import AnyCase, Case, Step
from domain.tariff import Tariff

__all__ = [
    "ACCOUNT_DELIVERED",
    "ACCOUNT_REFUSED",
    "Account",
    "Left",
    "Receipt",
    "SaleFacts",
    "Stay",
    "account_for",
    "deliver_account",
    "receipt_for",
    "refuse_account",
    "time_impounded",
]


class Left(enum.Enum):
    """How heads left the pound, which ends their time impounded (s.15(3)(b))."""

    SOLD = "sold"  # at the public auction (s.13(3), s.15(1))
    DISPOSED = "disposed"  # otherwise, by the Director's order (s.13(3) proviso)
    DELIVERED = "delivered"  # to the owner: on payment (s.12), deposit (s.14), or account
    IN_POUND = "in_pound"  # not yet: still in the pound on the day counted to


@dataclass(frozen=True, slots=True)
class Stay:
    """Heads that left the pound together, the same day and the same way, and their time
    impounded: from the day brought in to the day they left, both days counted."""

    heads: int
    left: Left
    since: date
    until: date

    @property
    def days(self) -> int:
        """Calendar days in the pound, the first and the last both counted (s.15(3)(b))."""
        return (self.until - self.since).days + 1


@cites("s.15(3)(b)", "s.15(3)", "s.15(5)")
def time_impounded(case: Case, on: date) -> tuple[Stay, ...]:
    """The time every head of ``case`` was impounded (s.15(3)(b)), as of ``on``: from
    the day brought in to the day it left the pound, both days counted, in lots of heads
    that left the same day the same way, in the order they left.

    A head leaves the pound the day it is sold (s.13(3), s.15(1)) or disposed of
    otherwise (s.13(3) proviso), or delivered to the owner: released on payment (s.12),
    on a deposit (s.14), or, the remaining cattle of a sale on the owner's refusal, with
    the account on the day the sale is settled (s.15(3)), when their feeding stops too;
    unless the owner refused them, when they stay, deemed unclaimed, until sold (s.15(5)).
    Heads still in the pound on ``on`` count to ``on``; steps after ``on`` are not read.
    """
    since = case.seizure.impounded_on
    last_refusal = max(
        (i for i, e in enumerate(case.events) if isinstance(e, AccountRefused)), default=-1
    )
    left: dict[tuple[date, Left], int] = {}
    remaining = case.seizure.head_count
    for index, event in enumerate(case.events):
        if event.on > on or remaining <= 0:
            break
        if isinstance(event, ClaimedAndPaid | DeliveredOnDeposit):
            gone, how = remaining, Left.DELIVERED
        elif isinstance(event, LotOffered) and event.sold:
            gone, how = event.count, Left.SOLD
        elif isinstance(event, DisposedOtherwise):
            gone, how = event.count, Left.DISPOSED
        elif isinstance(event, SaleClosed) and event.owner_appeared and index > last_refusal:
            gone, how = remaining, Left.DELIVERED  # handed back with the account
        else:
            continue
        gone = min(gone, remaining)
        if gone > 0:
            left[event.on, how] = left.get((event.on, how), 0) + gone
            remaining -= gone
    if remaining > 0:
        left[on, Left.IN_POUND] = remaining
    return tuple(Stay(heads, how, since, day) for (day, how), heads in left.items())


@dataclass(frozen=True, slots=True)
class Account:
    """The account delivered with the remaining cattle and the balance (s.15(3))."""

    case_number: str
    cattle_seized: int  # (a)
    #: (b) each lot's time impounded, in the order the lots left the pound.
    stays: tuple[Stay, ...]
    fines_and_charges: Money  # (c)
    dues: Dues  # (c), line by line
    cattle_sold: int  # (d) sold at the auction, never the heads disposed of otherwise
    proceeds: Money  # (e)
    disposal: tuple[Disbursement, ...]  # (f)
    cattle_remaining: int
    balance: Money
    #: Heads disposed of otherwise by the Director's order (s.13(3) proviso): not sold,
    #: so counted apart from (d).
    cattle_disposed: int = 0
    #: What the owner paid of the dues the proceeds did not meet, to take the remaining
    #: cattle (s.12, s.15(1)); nothing when the proceeds met them.
    paid: Money = field(default_factory=Money.zero)

    @property
    def impounded_from(self) -> date:
        """(b) The day the cattle were brought in."""
        return self.stays[0].since

    @property
    def impounded_until(self) -> date:
        """(b) The day the last head of the account left the pound."""
        return max(stay.until for stay in self.stays)

    @property
    def days_impounded(self) -> int:
        """(b) Calendar days to the day the last head left, both days counted."""
        return max(stay.days for stay in self.stays)

    @property
    def left_together(self) -> bool:
        """Whether every head of the account left the pound on the same day (its time
        impounded is then one figure)."""
        return len({stay.until for stay in self.stays}) == 1


@cites(
    "s.15(3)", "s.15(3)(a)", "s.15(3)(b)", "s.15(3)(c)", "s.15(3)(d)", "s.15(3)(e)", "s.15(3)(f)"
)
def account_for(case: Case, settlement: Settlement, closed_on: date) -> Account:
    """The s.15(3) account of a settled sale, items (a) to (f).

    Of a second sale (the rest of a refused account sold as unclaimed, s.15(5)), the
    heads sold and the proceeds are those of that sale.
    """
    sold, disposed, gone = _heads_gone(case, closed_on)
    return Account(
        case_number=case.number,
        cattle_seized=case.seizure.head_count,  # (a) the number of cattle seized
        stays=time_impounded(case, closed_on),  # (b) the time during which impounded
        fines_and_charges=settlement.dues.total,  # (c) fines and charges incurred
        dues=settlement.dues,  # (c)
        cattle_sold=sold,  # (d) the number of cattle sold
        proceeds=settlement.proceeds,  # (e) the proceeds of sale
        disposal=settlement.disbursements,  # (f) how the proceeds were disposed of
        cattle_remaining=case.seizure.head_count - gone,
        balance=settlement.balance,
        cattle_disposed=disposed,  # not sold (s.13(3) proviso)
    )


def _heads_gone(case: Case, closed_on: date) -> tuple[int, int, int]:
    """Heads sold and heads disposed of otherwise in the sale that closed on
    ``closed_on``, and the heads gone in all the sales up to it."""
    sold = disposed = gone = 0
    for event in case.events:
        if isinstance(event, SaleClosed):
            if event.on >= closed_on:
                break
            sold = disposed = 0  # an earlier sale, already settled
        elif isinstance(event, LotOffered) and event.sold:
            sold += event.count
            gone += event.count
        elif isinstance(event, DisposedOtherwise):
            disposed += event.count
            gone += event.count
    return sold, disposed, gone


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
def deliver_account(case: AnyCase, *, received_by: str, on: date, today: date) -> AnyCase:
    """The owner took the remaining cattle and the balance and signed the receipt."""
    if not received_by.strip():
        raise TransitionRefusedError(
            "a receipt needs the name of who received", "s.15(4)", reason="receipt_without_name"
        )
    return case.apply(AccountDelivered(on=on, receipt_by=received_by), today)


@cites("s.15(5)", "s.16(3)")
def refuse_account(case: AnyCase, *, on: date, today: date) -> AnyCase:
    """s.15(5): the owner refused; cattle and proceeds are deemed unclaimed, the balance
    goes into deposit (s.16(3)). Remaining cattle are then dealt with as unclaimed."""
    return case.apply(AccountRefused(on=on), today)


# --- what a case's events say of its heads sold, and the proceeds -------------------


class SaleFacts:
    """What a case's events say of the heads sold or disposed of and the proceeds, as
    the account states them (s.15(3)(d), (e)) (``domain.case.Case`` reads them so)."""

    __slots__ = ()

    @property
    def expected_expenses(self: Folded) -> Money:
        """The expenses of sale last stated: when the auction was fixed, or at a
        settlement that found them higher (s.15(2)); nothing if none was stated."""
        for event in reversed(self.events):
            if isinstance(event, SaleExpensesStated):
                return event.expenses
            if isinstance(event, AuctionScheduled) and event.expected_expenses is not None:
                return event.expected_expenses
        return Money.zero()

    def disposed_heads(self: Folded, lot: int) -> int:
        """Heads of lot ``lot`` sold or otherwise disposed of so far."""
        return sum(
            e.count
            for e in self.events
            if head_gone(e) and isinstance(e, LotOffered | DisposedOtherwise) and e.lot == lot
        )

    def remaining_heads(self: _Heads, lot: int) -> int:
        return self.seizure.lots[lot].count - self.disposed_heads(lot)

    @property
    def heads_remaining(self: _Heads) -> int:
        return sum(self.remaining_heads(i) for i in range(len(self.seizure.lots)))

    @property
    def lots_remaining(self: _Heads) -> tuple[Lot, ...]:
        """The lots of the seizure cut to the heads not sold or disposed of, a lot with
        none left out: the cattle a notice of the round states (s.13(2)(a)) and a
        payment takes back (s.12)."""
        return tuple(
            replace(lot, count=self.remaining_heads(index))
            for index, lot in enumerate(self.seizure.lots)
            if self.remaining_heads(index)
        )

    @property
    def sale_outcome(self: _Heads) -> str | None:
        """``sold``, ``partly_sold``, ``disposed_otherwise`` or, when every head has gone
        and some were sold (s.13(3), s.15(1)) and some disposed of by the Director's order
        (s.13(3) proviso), ``sold_and_disposed`` once lots have gone."""
        sold = any(isinstance(e, LotOffered) and e.sold for e in self.events)
        other = any(isinstance(e, DisposedOtherwise) for e in self.events)
        if not sold and not other:
            return None
        if self.heads_remaining:
            return "partly_sold"
        if sold and other:
            return "sold_and_disposed"
        return "sold" if sold else "disposed_otherwise"

    @property
    def proceeds(self: Folded) -> Money:
        """Proceeds of sale and of other disposal so far (s.15(3)(e))."""
        paise = 0
        for e in self.events:
            if isinstance(e, LotOffered) and e.price is not None:
                paise += e.price.paise
            elif isinstance(e, DisposedOtherwise):
                paise += e.proceeds.paise
        return Money(paise)


class _Heads(Folded, Protocol):
    def disposed_heads(self, lot: int) -> int: ...

    def remaining_heads(self, lot: int) -> int: ...

    @property
    def heads_remaining(self) -> int: ...


# --- the steps of s.15(4) and s.15(5), each declared once ---------------------------

ACCOUNT_DELIVERED: Step[AccountDelivered] = Step(
    event=AccountDelivered,
    provision="s.15(4)",
    follows=frozenset({Stage.ACCOUNT_DUE}),
    leads_to=Stage.CLOSED,
)


@cites("s.15(5)", "s.16(3)")
def _after_refusal(case: Case, event: AccountRefused) -> Stage:
    """s.15(5): the cattle left are deemed unclaimed (they go the s.13 way); with none
    left, the balance goes into deposit (s.16(3))."""
    if case.heads_remaining:
        return Stage.DEEMED_UNCLAIMED
    closed = case.last(SaleClosed)
    balance = closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()
    return Stage.IN_DEPOSIT if balance.paise > 0 else Stage.CLOSED


@cites("s.15(5)", "s.16(3)")
def _refusal_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.15(5): the balance the owner refused is deemed unclaimed and held in deposit."""
    closed = after.last(SaleClosed)
    balance = closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()
    return Postings(Money.zero(), move(balance, OWNER_BALANCE, SURPLUS_DEPOSIT, "s.15(5)"))


ACCOUNT_REFUSED: Step[AccountRefused] = Step(
    event=AccountRefused,
    provision="s.15(5)",
    follows=frozenset({Stage.ACCOUNT_DUE}),
    leads_to=_after_refusal,
    postings=_refusal_postings,
)
