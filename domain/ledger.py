"""The ledger rules: for each event of a case, the postings it makes.

A posting is an amount of integer paise to an account, under a provision. The postings
of one event add up to the money it brought in (a payment, a deposit, the proceeds of
a sale) or to nothing (a transfer between accounts: fines credited to the fund, a
balance moved into deposit); ``Postings`` refuses any other set. The store writes
what these rules return; no use case writes a leg by hand.

Accounts: ``fines`` (s.12, s.16(1), s.14) and the local authority's ``fund``
(s.17(1)); ``keeper_feeding`` (s.16(2)); ``protest_deposit`` (s.14) and
``owner_refund`` (s.19); ``sale_expenses`` (s.15(2)); ``owner_balance`` (s.15(3))
and ``surplus_deposit`` (s.16(3)).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.case import Case
from domain.events import (
    AccountRefused,
    ClaimedAndPaid,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    Event,
    SaleClosed,
)
from domain.money import Money, total
from domain.provisions import cites
from domain.s04_s11_dues import DuesItem, dues_on
from domain.s15_sale import DEFAULT_DEDUCTION_ORDER, Payee, dues_unmet, round_settlements
from domain.tariff import Tariff

__all__ = [
    "FINES",
    "FUND",
    "KEEPER_FEEDING",
    "NO_POSTINGS",
    "OWNER_BALANCE",
    "OWNER_REFUND",
    "PROTEST_DEPOSIT",
    "SALE_EXPENSES",
    "SURPLUS_DEPOSIT",
    "Posting",
    "Postings",
    "held_in_deposit",
    "postings_for",
]

FINES = "fines"
FUND = "fund"
KEEPER_FEEDING = "keeper_feeding"
PROTEST_DEPOSIT = "protest_deposit"
OWNER_REFUND = "owner_refund"
SALE_EXPENSES = "sale_expenses"
OWNER_BALANCE = "owner_balance"
SURPLUS_DEPOSIT = "surplus_deposit"

_ACCOUNT_OF: dict[Payee, str] = {
    Payee.SALE_EXPENSES: SALE_EXPENSES,
    Payee.LOCAL_AUTHORITY: FINES,
    Payee.POUND_KEEPER: KEEPER_FEEDING,
    Payee.OWNER: OWNER_BALANCE,
    Payee.DEPOSIT: SURPLUS_DEPOSIT,
}


@dataclass(frozen=True, slots=True)
class Posting:
    """One leg: ``amount`` (negative: out of the account) to ``account`` under ``provision``."""

    account: str
    amount: Money
    provision: str


@dataclass(frozen=True, slots=True)
class Postings:
    """The legs of one event; they add up to ``whole``, the money the event brought in
    (zero for a transfer between accounts). Zero legs are left out."""

    whole: Money
    legs: tuple[Posting, ...]

    def __post_init__(self) -> None:
        if total([leg.amount for leg in self.legs]) != self.whole:
            raise ValueError(
                f"postings add up to {total([leg.amount for leg in self.legs])}, "
                f"not to the {self.whole} the event moved"
            )
        if any(not leg.amount for leg in self.legs):
            raise ValueError("a posting of nothing")


#: The postings of an event that moves no money.
NO_POSTINGS = Postings(Money.zero(), ())


def _legs(*legs: Posting) -> tuple[Posting, ...]:
    return tuple(leg for leg in legs if leg.amount)


def _move(amount: Money, source: str, to: str, provision: str) -> tuple[Posting, ...]:
    """A transfer of ``amount`` from one account to another (sums to nothing)."""
    return _legs(Posting(source, Money.zero() - amount, provision), Posting(to, amount, provision))


@cites("s.17(1)")
def _fines_to_fund(fines: Money) -> tuple[Posting, ...]:
    """s.17(1): "All sums received on account of fines ... shall be credited to the fund
    of the local authority": the fines received move from ``fines`` to ``fund``."""
    return _move(fines, FINES, FUND, "s.17(1)")


@cites("s.16(3)", "s.15(5)")
def held_in_deposit(case: Case) -> Money:
    """What the case put into deposit (s.16(3)), every round of sale together (s.15(5));
    before any went into deposit, the balance of the last settlement (s.15(3))."""
    held = case.deposit_total
    if held:
        return held
    closed = case.last(SaleClosed)
    return closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()


@cites("s.12", "s.16(2)", "s.17(1)", "s.15(2)")
def _payment(
    after: Case, event: ClaimedAndPaid, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.12: the fines and charges paid; the fines are received for the local authority
    and credited to its fund (s.17(1)), the feeding charges the keeper retains (s.16(2)).
    After a refused account, what an earlier sale met is not posted again: the fines it
    met, the expenses of sale it left unmet (s.15(2))."""
    dues = dues_unmet(after, tariff, event.on, order)
    fines = min(dues.fines, event.paid)
    expenses = min(dues.sale_expenses, event.paid - fines)
    legs = _legs(
        Posting(FINES, fines, "s.12"),
        Posting(SALE_EXPENSES, expenses, "s.15(2)"),
        Posting(KEEPER_FEEDING, event.paid - fines - expenses, "s.16(2)"),
    )
    return Postings(event.paid, legs + _fines_to_fund(fines))


@cites("s.15(2)", "s.16(1)", "s.16(2)", "s.16(3)", "s.15(3)", "s.17(1)")
def _settlement(after: Case, tariff: Tariff, order: tuple[DuesItem, ...]) -> Postings:
    """The proceeds of the sale just closed, to the paisa: expenses (s.15(2)), fines to
    the local authority (s.16(1)) and on to its fund (s.17(1)), feeding to the keeper
    (s.16(2)), the balance to the owner (s.15(3)) or into deposit (s.16(3))."""
    settlement = round_settlements(after, tariff, order)[-1]
    legs = tuple(
        Posting(_ACCOUNT_OF[part.payee], part.amount, part.provision)
        for part in settlement.disbursements
    )
    return Postings(
        settlement.proceeds, legs + _fines_to_fund(settlement.to(Payee.LOCAL_AUTHORITY))
    )


@cites("s.14", "s.19", "s.16(2)", "s.17(1)")
def _deposit_outcome(before: Case, event: DepositOutcome, tariff: Tariff) -> Postings:
    """The s.14 deposit after the s.19 proceedings: refunded to the owner when the seizure
    was found illegal; upheld, applied (a stated policy, the Act being silent) as the
    fines, to the fund (s.17(1)), and the feeding charges, to the keeper (s.16(2))."""
    made = before.last(DeliveredOnDeposit)
    if not isinstance(made, DeliveredOnDeposit):
        return NO_POSTINGS
    deposited = made.deposited
    out = _legs(Posting(PROTEST_DEPOSIT, Money.zero() - deposited, "s.14"))
    if event.returned:
        return Postings(Money.zero(), out + _legs(Posting(OWNER_REFUND, deposited, "s.19")))
    fines = min(dues_on(before, tariff, made.on).fines, deposited)
    legs = (
        out
        + _legs(Posting(FINES, fines, "s.14"))
        + _fines_to_fund(fines)
        + _legs(Posting(KEEPER_FEEDING, deposited - fines, "s.16(2)"))
    )
    return Postings(Money.zero(), legs)


@cites("s.12", "s.14", "s.15(2)", "s.15(5)", "s.16(3)", "s.17(1)", "s.19")
def postings_for(
    before: Case,
    after: Case,
    tariff: Tariff,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> Postings:
    """The postings of the newest event of ``after`` (``before`` is the case without it).

    s.12 payment; s.14 deposit under protest and its s.19 outcome; s.15(2)/s.16 the
    settlement of a sale; s.15(5) a refused balance into deposit; s.16(3) a claim
    established (the deposit to the owner); s.17(1) the deposit to the fund. Any other
    event moves no money.
    """
    event: Event = after.events[-1]
    if isinstance(event, ClaimedAndPaid):
        return _payment(after, event, tariff, order)
    if isinstance(event, DeliveredOnDeposit):
        legs = _legs(Posting(PROTEST_DEPOSIT, event.deposited, "s.14"))
        return Postings(event.deposited, legs)
    if isinstance(event, SaleClosed):
        return _settlement(after, tariff, order)
    if isinstance(event, AccountRefused):
        closed = after.last(SaleClosed)
        balance = closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()
        return Postings(Money.zero(), _move(balance, OWNER_BALANCE, SURPLUS_DEPOSIT, "s.15(5)"))
    if isinstance(event, DepositClaimed):
        held = held_in_deposit(after)
        return Postings(Money.zero(), _move(held, SURPLUS_DEPOSIT, OWNER_BALANCE, "s.16(3)"))
    if isinstance(event, CreditedToFund):
        held = held_in_deposit(after)
        return Postings(Money.zero(), _move(held, SURPLUS_DEPOSIT, FUND, "s.17(1)"))
    if isinstance(event, DepositOutcome):
        return _deposit_outcome(before, event, tariff)
    return NO_POSTINGS
