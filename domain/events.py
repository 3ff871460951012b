"""The events of a case: each step the Act provides, as a fact recorded once.

A case is the fold of these (``domain.case``); the provision each is recorded under is
``domain.case.provision_of``. They are stored as JSON in the audit log
(``bot.store.codec``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from domain.money import Money
from domain.s07_seizure import Person, Seizure

__all__ = [
    "AccountDelivered",
    "AccountRefused",
    "AuctionScheduled",
    "CaseVoided",
    "ClaimPreferred",
    "ClaimRejected",
    "ClaimedAndPaid",
    "CreditedToFund",
    "DeliveredOnDeposit",
    "DepositClaimed",
    "DepositOutcome",
    "DepositRefunded",
    "DisposedOtherwise",
    "Event",
    "Impounded",
    "LotOffered",
    "LotsSeparated",
    "NoticePosted",
    "OwnerRefusedToPay",
    "ReportedUnclaimed",
    "SaleClosed",
    "SaleExpensesStated",
    "SeizureCorrected",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened to a case, on a local date."""

    on: date


@dataclass(frozen=True, slots=True, kw_only=True)
class Impounded(Event):
    """The cattle were brought to the pound (s.7). ``separated_from``: the case these
    cattle were first recorded in, with cattle of another owner, when their owner's
    step separated them into a case of their own (``LotsSeparated``)."""

    seizure: Seizure
    separated_from: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeizureCorrected(Event):
    """The intake facts were corrected; the reason is kept (never a silent edit).

    ``supersedes_notice``: the correction changed what the posted s.13(2) notice states
    (the number and description of the cattle, the place of seizure), so that notice no
    longer stands: a new one is posted and the s.13(3) seven days run from it."""

    seizure: Seizure
    reason: str
    supersedes_notice: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LotsSeparated(Event):
    """The lots at ``lots`` (indexes in the record before), one owner's of a case whose
    cattle are of more than one owner, went into a case of their own, ``into``, for a
    step of that owner's (paying, depositing, refusing): the case goes on for the rest."""

    lots: tuple[int, ...]
    into: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseVoided(Event):
    """The case was entered by mistake and is withdrawn from every list, with its reason.

    The Act has no such step: it corrects the s.7 record. Allowed only while no money
    has moved (no payment, deposit, sale or settlement).
    """

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimedAndPaid(Event):
    """The owner claimed and paid fines and charges; cattle released (s.12)."""

    paid: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class DeliveredOnDeposit(Event):
    """The owner disputed the seizure, deposited fines and charges, took the cattle (s.14)."""

    deposited: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class DepositOutcome(Event):
    """What became of a s.14 deposit: returned after a complaint upheld, or applied to dues.

    The Act leaves this to the s.19 proceedings; poundbot records the outcome and its
    reference (a declared gap, not a rule).
    """

    returned: bool
    reference: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DepositRefunded(Event):
    """The s.14 deposit ordered refunded, the seizure found illegal, was paid back to the
    owner (s.19): recorded apart from the order, so that what is said is what is known."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportedUnclaimed(Event):
    """The pound-keeper reported the cattle unclaimed to the local authority (s.13(1))."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NoticePosted(Event):
    """The notice was affixed at the office and proclaimed by beat of drum (s.13(2))."""

    office: str
    proclaimed_at: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnerRefusedToPay(Event):
    """The owner appeared and refused or omitted to pay or deposit (s.15(1))."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AuctionScheduled(Event):
    """The public auction was fixed for a day and place (s.13(3), s.15(1)), with the
    expenses of sale the officer expects (s.15(2)), counted in what is still owed."""

    auction_on: date
    place: str
    expected_expenses: Money | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SaleExpensesStated(Event):
    """The officer stated the actual expenses of sale, and they left the dues unmet
    while heads remain: one more head may be sold before settling (s.15(1), s.15(2))."""

    expenses: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class LotOffered(Event):
    """Heads of one lot offered at the auction: sold for ``price`` to ``buyer``, or unsold.

    ``buyer_declared_not_barred`` is the buyer's declaration under s.18.
    """

    lot: int
    count: int
    price: Money | None
    buyer: Person | None = None
    buyer_declared_not_barred: bool = False

    @property
    def sold(self) -> bool:
        return self.price is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class DisposedOtherwise(Event):
    """Heads disposed of otherwise by the Director's order (s.13(3) proviso)."""

    lot: int
    count: int
    manner: str
    ordered_by: str
    order_reference: str
    proceeds: Money = field(default_factory=Money.zero)


@dataclass(frozen=True, slots=True, kw_only=True)
class SaleClosed(Event):
    """The sale is over and its money settled (s.15(2), s.16); amounts as computed then."""

    expenses: Money
    to_owner_or_deposit: Money  # the balance: to the owner (s.15(3)) or deposit (s.16(3))
    owner_appeared: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountDelivered(Event):
    """The owner took the remaining cattle and the balance and gave a receipt (s.15(4))."""

    receipt_by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountRefused(Event):
    """The owner refused the remaining cattle and the balance: deemed unclaimed (s.15(5))."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DepositClaimed(Event):
    """A claim to the deposited surplus was preferred in time and established (s.16(3))."""

    claimant: str
    preferred_on: date
    reference: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimPreferred(Event):
    """A claim to the deposited surplus was preferred, not yet established (s.16(3)).

    ``on`` is the day it was entered; ``preferred_on`` the day it was preferred, when
    that was earlier (a claim made in time and entered late)."""

    claimant: str
    preferred_on: date | None = None

    @property
    def preferred(self) -> date:
        """The day the claim was preferred (s.16(3) counts the three months to it)."""
        return self.preferred_on or self.on


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimRejected(Event):
    """A claim preferred to the deposit was not established (s.16(3)); ``claimant``
    names which, when more than one is pending (empty: the only one pending)."""

    reference: str
    claimant: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CreditedToFund(Event):
    """The unclaimed surplus was credited to the fund of the local authority (s.17(1))."""
