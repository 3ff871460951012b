"""The steps of a case its answers tell of: the last payment, the deposit delivered, the
lot offered, the claim preferred, the voiding and its reason, ... each as it was recorded.

The statement of a case (``domain.statement``) holds them, so that a reply to a step
reads the step it tells of from the statement, as it reads every figure, and never
searches the case's events itself. They are the case's and not the day's: the same on
any day the statement is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from domain.case import Case
from domain.events import (
    AccountRefused,
    CaseVoided,
    ClaimedAndPaid,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    Event,
    LotOffered,
    OwnerRefusedToPay,
    SaleClosed,
    SeizureCorrected,
)

__all__ = ["Recorded", "recorded_of"]

E = TypeVar("E", bound=Event)


@dataclass(frozen=True, slots=True)
class Recorded:
    """The steps of a case the answers tell of, each the last of its kind recorded
    (unless said otherwise); None when the case has none."""

    #: The latest day any step of the case is dated (a step may be recorded late).
    latest_on: date
    #: The last step recorded, whatever its kind: how a closed case ended.
    last_step: Event
    #: The last payment of the dues, and the cattle released (s.12).
    payment: ClaimedAndPaid | None
    #: The last delivery of the cattle on a deposit of the dues (s.14).
    deposit: DeliveredOnDeposit | None
    #: What became of the s.14 deposit once the complaint was decided (s.19).
    deposit_outcome: DepositOutcome | None
    #: The owner's last refusal or omission to pay (s.15(1)).
    owner_refusal: OwnerRefusedToPay | None
    #: The day the owner first refused or omitted to pay: the owner's route began (s.15(1)).
    owner_first_refused_on: date | None
    #: The last lot offered at the auction, sold or not (s.13(3), s.15(1)).
    lot_offered: LotOffered | None
    #: The last disposal otherwise by the Director's order (s.13(3) proviso).
    disposal: DisposedOtherwise | None
    #: The last settlement of a sale (s.15(2)).
    sale_closed: SaleClosed | None
    #: The owner's refusal of the account (s.15(5)), the last.
    account_refused: AccountRefused | None
    #: The last claim to the deposit preferred (s.16(3)).
    claim_preferred: ClaimPreferred | None
    #: The last claim to the deposit rejected (s.16(3)).
    claim_rejected: ClaimRejected | None
    #: The claim to the deposit established (s.16(3)).
    claim_established: DepositClaimed | None
    #: The unclaimed surplus credited to the fund (s.17(1)).
    credited: CreditedToFund | None
    #: The last correction of the intake facts, with its reason (s.7).
    correction: SeizureCorrected | None
    #: The voiding of a case entered by mistake, with its reason.
    voiding: CaseVoided | None
    #: The provisions the heads sold were sold under: s.13(3) unclaimed, s.15(1) on the
    #: owner's refusal to pay (both when a refused account sent the rest the s.13 way,
    #: s.15(5)).
    sold_under: frozenset[str]


def recorded_of(case: Case) -> Recorded:
    """The steps of ``case`` its answers tell of. Kept with the case (``Case.kept``):
    the case never changes, and one pass over its events finds them all."""
    return case.kept("recorded", (), lambda: _recorded(case))


def _recorded(case: Case) -> Recorded:
    last: dict[type[Event], Event] = {}
    first_refused: date | None = None
    sold_under: set[str] = set()
    for event, provision in zip(case.events, case.provisions, strict=True):
        last[type(event)] = event
        if isinstance(event, OwnerRefusedToPay) and first_refused is None:
            first_refused = event.on
        elif isinstance(event, LotOffered) and event.sold:
            sold_under.add(provision)

    def of(kind: type[E]) -> E | None:
        found = last.get(kind)
        return found if isinstance(found, kind) else None

    return Recorded(
        latest_on=max(e.on for e in case.events),
        last_step=case.events[-1],
        payment=of(ClaimedAndPaid),
        deposit=of(DeliveredOnDeposit),
        deposit_outcome=of(DepositOutcome),
        owner_refusal=of(OwnerRefusedToPay),
        owner_first_refused_on=first_refused,
        lot_offered=of(LotOffered),
        disposal=of(DisposedOtherwise),
        sale_closed=of(SaleClosed),
        account_refused=of(AccountRefused),
        claim_preferred=of(ClaimPreferred),
        claim_rejected=of(ClaimRejected),
        claim_established=of(DepositClaimed),
        credited=of(CreditedToFund),
        correction=of(SeizureCorrected),
        voiding=of(CaseVoided),
        sold_under=frozenset(sold_under),
    )
