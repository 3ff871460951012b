"""The accounts of the ledger and its postings: a posting is an amount of integer paise to
an account, under a provision. Each step that moves money declares its postings in its
section's module (``domain.step.Step.postings``); ``domain.ledger`` takes them.

Accounts: ``fines`` (s.12, s.16(1), s.14) and the local authority's ``fund``
(s.17(1)); ``keeper_feeding`` (s.16(2)); ``protest_deposit`` (s.14) and
``owner_refund`` (s.19); ``sale_expenses`` (s.15(2)); ``owner_balance`` (s.15(3))
and ``surplus_deposit`` (s.16(3)).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.money import Money, total

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
    "legs",
    "move",
]

FINES = "fines"
FUND = "fund"
KEEPER_FEEDING = "keeper_feeding"
PROTEST_DEPOSIT = "protest_deposit"
OWNER_REFUND = "owner_refund"
SALE_EXPENSES = "sale_expenses"
OWNER_BALANCE = "owner_balance"
SURPLUS_DEPOSIT = "surplus_deposit"


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


def legs(*legs: Posting) -> tuple[Posting, ...]:
    """The legs given, those of nothing left out."""
    return tuple(leg for leg in legs if leg.amount)


def move(amount: Money, source: str, to: str, provision: str) -> tuple[Posting, ...]:
    """A transfer of ``amount`` from one account to another (sums to nothing)."""
    return legs(Posting(source, Money.zero() - amount, provision), Posting(to, amount, provision))
