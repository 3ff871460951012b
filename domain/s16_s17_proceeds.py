"""ss.16 and 17: what becomes of the proceeds of a sale.

s.16(1) the fines go to the local authority, s.16(2) the feeding charges to the
pound-keeper; s.16(3) a surplus no one claims is held in deposit for three months, and a
claim preferred within them is heard; s.17(1) what is not claimed in time is credited to
the authority's fund. The settling of a sale is in ``domain.s15_sale``.

Why it is long: ss.16 and 17 whole: the three months and the claims of s.16(3) with what
a case's events say of its deposit, the credit to the fund of s.17(1), and the four steps
with their guards, deadlines and postings.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Protocol, TypeVar

from domain.accounts import FINES, FUND, OWNER_BALANCE, SURPLUS_DEPOSIT, Posting, Postings, move
from domain.calendar import add_months, day_after_period
from domain.deadline import Deadline, DeadlineKind, Role
from domain.dues_items import DuesItem
from domain.errors import (
    FutureDateError,
    InvalidCaseError,
    TooEarlyError,
    TransitionRefusedError,
)
from domain.events import (
    AccountRefused,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DepositClaimed,
    SaleClosed,
)
from domain.money import Money
from domain.provisions import cites
from domain.stages import CaseSteps, Folded, Stage
from domain.step import Case, Step
from domain.tariff import Tariff

_Case = TypeVar("_Case", bound=CaseSteps)

__all__ = [
    "CLAIM_ESTABLISHED",
    "CLAIM_PREFERRED",
    "CLAIM_REJECTED",
    "FUND_CREDIT",
    "DepositFacts",
    "claim_of",
    "credit_to_fund",
    "deposit_window_end",
    "establish_claim",
    "fines_to_fund",
    "fund_credit_from",
    "held_in_deposit",
    "same_claimant",
]


@cites("s.16(3)")
def deposit_window_end(deposited_on: date, months: int) -> date:
    """Last day on which a claim to deposited surplus proceeds may be preferred:
    ``months`` (the case's Act's ``surplus_months``) from the deposit.

    s.16(3): "... if no claim thereto be preferred within three months ..." Calendar
    months to the corresponding date, the month's last day when there is none
    (30 November 2026 -> 28 February 2027).
    """
    return add_months(deposited_on, months)


@cites("s.17(1)", "s.16(3)")
def fund_credit_from(deposited_on: date, months: int) -> date:
    """First day unclaimed surplus in deposit may be credited to the authority's fund.

    s.16(3): held in deposit "if no claim thereto be preferred within three months";
    s.17(1): then credited to the fund. The day after the ``months`` end.
    """
    return day_after_period(deposit_window_end(deposited_on, months), 0)


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


# --- what a case's events say of its deposit -------------------------------------


class DepositFacts:
    """What a case's events say of the surplus held in deposit under s.16(3) and the
    claims to it (``domain.case.Case`` reads them so)."""

    __slots__ = ()

    @property
    def deposits(self: Folded) -> tuple[tuple[date, Money], ...]:
        """(day, amount) of each balance that went into deposit under s.16(3): a balance
        of unclaimed cattle when the sale closed, an owner's balance when refused."""
        out: list[tuple[date, Money]] = []
        for index, event in enumerate(self.events):
            if not isinstance(event, SaleClosed) or event.to_owner_or_deposit.paise <= 0:
                continue
            if not event.owner_appeared:
                out.append((event.on, event.to_owner_or_deposit))
                continue
            refused = next(
                (e for e in self.events[index + 1 :] if isinstance(e, AccountRefused)), None
            )
            if refused is not None:
                out.append((refused.on, event.to_owner_or_deposit))
        return tuple(out)

    @property
    def deposit_total(self: _Deposits) -> Money:
        """All the surplus of the case that went into deposit (s.16(3), s.15(5))."""
        return Money(sum(amount.paise for _, amount in self.deposits))

    @property
    def deposited_on(self: _Deposits) -> date | None:
        """Day the (last part of the) surplus went into deposit under s.16(3), if any.

        When a refused account leaves cattle to be sold as unclaimed (s.15(5)), the
        three months run from the second settlement: a declared policy that never
        shortens the time to claim any part of the deposit.
        """
        deposits = self.deposits
        if not deposits or self.stage not in (Stage.IN_DEPOSIT, Stage.CLOSED):
            return None  # none yet, or the rest of the cattle still to be sold (s.15(5))
        return max(on for on, _ in deposits)

    @property
    def pending_claims(self: Folded) -> tuple[ClaimPreferred, ...]:
        """The claims to the deposit preferred and neither established nor rejected,
        in the order entered (s.16(3): each is decided on its own)."""
        pending: list[ClaimPreferred] = []
        for event in self.events:
            if isinstance(event, ClaimPreferred):
                pending.append(event)
            elif isinstance(event, ClaimRejected | DepositClaimed):
                decided = claim_of(pending, event.claimant)
                if decided is not None:
                    pending.remove(decided)
                elif isinstance(event, ClaimRejected) and len(pending) == 1:
                    pending.clear()  # recorded before a rejection named its claimant
        return tuple(pending)

    @property
    def pending_claim(self: _Deposits) -> ClaimPreferred | None:
        """The first claim to the deposit still pending, if any."""
        pending = self.pending_claims
        return pending[0] if pending else None


class _Deposits(Folded, Protocol):
    @property
    def deposits(self) -> tuple[tuple[date, Money], ...]: ...

    @property
    def pending_claims(self) -> tuple[ClaimPreferred, ...]: ...


# --- the steps of s.16(3) and s.17(1), each declared once ---------------------------


@cites("s.17(1)")
def fines_to_fund(fines: Money) -> tuple[Posting, ...]:
    """s.17(1): "All sums received on account of fines ... shall be credited to the fund
    of the local authority": the fines received move from ``fines`` to ``fund``."""
    return move(fines, FINES, FUND, "s.17(1)")


@cites("s.16(3)", "s.15(5)")
def held_in_deposit(case: Case) -> Money:
    """What the case put into deposit (s.16(3)), every round of sale together (s.15(5));
    before any went into deposit, the balance of the last settlement (s.15(3))."""
    held = case.deposit_total
    if held:
        return held
    closed = case.last(SaleClosed)
    return closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()


@cites("s.16(3)")
def _claim_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.16(3): the deposit paid to the claimant whose claim was established."""
    held = held_in_deposit(after)
    return Postings(Money.zero(), move(held, SURPLUS_DEPOSIT, OWNER_BALANCE, "s.16(3)"))


@cites("s.17(1)", "s.16(3)")
def _fund_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.17(1): the deposit no one claimed in time, credited to the fund."""
    held = held_in_deposit(after)
    return Postings(Money.zero(), move(held, SURPLUS_DEPOSIT, FUND, "s.17(1)"))


@cites("s.16(3)")
def claim_of(pending: Sequence[ClaimPreferred], claimant: str) -> ClaimPreferred | None:
    """The pending claim of ``claimant``; with no name, the only claim pending."""
    if not claimant.strip():
        return pending[0] if len(pending) == 1 else None
    return next((c for c in pending if same_claimant(c.claimant, claimant)), None)


def _claim_time_over(deposited: date, months: int) -> TransitionRefusedError:
    end = deposit_window_end(deposited, months)
    return TransitionRefusedError(
        f"a claim must be preferred within {months} months of the deposit; they "
        f"ended on {end.isoformat()}",
        "s.16(3)",
        reason="claim_time_over",
        facts={"date": end},
    )


@cites("s.16(3)")
def _guard_claim_preferred(case: Case, event: ClaimPreferred) -> None:
    """s.16(3): a claim is preferred within three months of the deposit, by a claimant
    named, once while it is pending."""
    deposited = case.deposited_on
    if not event.claimant.strip():
        raise InvalidCaseError("a claim needs the claimant's name", "s.16(3)")
    same = claim_of(case.pending_claims, event.claimant)
    if same is not None:
        raise TransitionRefusedError(
            f"the claim of {same.claimant} preferred on {same.preferred.isoformat()} "
            "is already pending",
            "s.16(3)",
            reason="claim_already_pending",
            facts={"name": same.claimant[:60], "date": same.preferred},
        )
    months = case.profile.surplus_months
    if deposited is not None and event.preferred > deposit_window_end(deposited, months):
        raise _claim_time_over(deposited, months)
    if deposited is not None and event.preferred < deposited:
        raise TooEarlyError(
            "a claim is preferred to a deposit once it is made",
            "s.16(3)",
            reason="before_deposit",
            facts={"date": deposited},
        )
    if event.preferred > event.on:
        raise FutureDateError("a claim is entered after it is preferred", "s.16(3)")


@cites("s.16(3)")
def _claim_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.16(3): three months in deposit to prefer a claim."""
    deposited = case.deposited_on
    if case.stage is not Stage.IN_DEPOSIT or deposited is None:
        return ()
    end = deposit_window_end(deposited, case.profile.surplus_months)
    return (Deadline(DeadlineKind.DEPOSIT_WINDOW_ENDS, end, "s.16(3)", Role.OFFICER, deposited),)


CLAIM_PREFERRED: Step[ClaimPreferred] = Step(
    event=ClaimPreferred,
    provision="s.16(3)",
    follows=frozenset({Stage.IN_DEPOSIT}),
    guard=_guard_claim_preferred,
    deadlines=_claim_deadlines,
    leads_to=lambda case, event: case.stage,
)


@cites("s.16(3)")
def _guard_claim_rejected(case: Case, event: ClaimRejected) -> None:
    """s.16(3): each claim pending is rejected on its own, with the reference of the
    decision, named when more than one is pending."""
    pending = case.pending_claims
    if not pending:
        raise TransitionRefusedError(
            "no claim to the deposit is pending", "s.16(3)", reason="no_claim_pending"
        )
    if not event.reference.strip():
        raise InvalidCaseError("a rejection needs its reference", "s.16(3)")
    if claim_of(pending, event.claimant) is None:
        names = ", ".join(c.claimant for c in pending)
        raise TransitionRefusedError(
            f"say whose claim is rejected: pending are those of {names}",
            "s.16(3)",
            reason="which_claim",
            facts={"names": names[:120]},
        )


CLAIM_REJECTED: Step[ClaimRejected] = Step(
    event=ClaimRejected,
    provision="s.16(3)",
    follows=frozenset({Stage.IN_DEPOSIT}),
    guard=_guard_claim_rejected,
    leads_to=lambda case, event: case.stage,
)


@cites("s.16(3)")
def _guard_claim_established(case: Case, event: DepositClaimed) -> None:
    """s.16(3): the deposit is paid to a claimant whose claim was preferred within the
    three months, once every other claim pending is rejected."""
    deposited = case.deposited_on
    assert deposited is not None
    others = [c for c in case.pending_claims if not same_claimant(c.claimant, event.claimant)]
    if others:
        names = ", ".join(c.claimant for c in others)
        raise TransitionRefusedError(
            f"the claims of {names} are pending too: reject them before the "
            f"deposit is paid to {event.claimant}",
            "s.16(3)",
            reason="other_claims_pending",
            facts={"names": names[:120]},
        )
    if event.preferred_on < deposited:
        raise TooEarlyError(
            "a claim must be preferred within three months of the deposit",
            "s.16(3)",
            reason="before_deposit",
            facts={"date": deposited},
        )
    months = case.profile.surplus_months
    if event.preferred_on > deposit_window_end(deposited, months):
        raise _claim_time_over(deposited, months)
    if event.preferred_on > event.on:
        raise InvalidCaseError(
            "a claim is established after it is preferred",
            "s.16(3)",
            reason="established_before_preferred",
            facts={"date": event.preferred_on},
        )


CLAIM_ESTABLISHED: Step[DepositClaimed] = Step(
    event=DepositClaimed,
    provision="s.16(3)",
    follows=frozenset({Stage.IN_DEPOSIT}),
    guard=_guard_claim_established,
    leads_to=Stage.CLOSED,
    postings=_claim_postings,
)


@cites("s.17(1)", "s.16(3)")
def _guard_fund(case: Case, event: CreditedToFund) -> None:
    """s.16(3): nothing goes to the fund while a claim is pending; s.17(1): the deposit
    goes to the fund only after the three months."""
    pending = case.pending_claims
    if pending:
        names = ", ".join(c.claimant for c in pending)
        raise TransitionRefusedError(
            f"the claims of {names} are pending: the deposit goes to the fund only once "
            "each is decided",
            "s.16(3)",
            reason="claims_pending",
            facts={"names": names[:120]},
        )
    deposited = case.deposited_on
    assert deposited is not None
    months = case.profile.surplus_months
    if event.on < fund_credit_from(deposited, months):
        raise TooEarlyError(
            f"the deposit may be credited to the fund only after {months} months "
            f"(after {deposit_window_end(deposited, months).isoformat()})",
            "s.16(3)",
            lawful_from=fund_credit_from(deposited, months),
        )


@cites("s.17(1)", "s.16(3)")
def _fund_lawful(case: Case, today: date) -> bool:
    """The fund after the three months of the deposit (s.16(3), s.17(1))."""
    deposited = case.deposited_on
    return deposited is not None and today >= fund_credit_from(
        deposited, case.profile.surplus_months
    )


@cites("s.17(1)", "s.16(3)")
def _fund_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.17(1): after the three months the deposit goes to the fund; while a claim
    preferred in time is pending, the claim is to be decided instead (s.16(3))."""
    deposited = case.deposited_on
    if case.stage is not Stage.IN_DEPOSIT or deposited is None:
        return ()
    due = fund_credit_from(deposited, case.profile.surplus_months)
    pending = case.pending_claim
    if pending is None:
        return (Deadline(DeadlineKind.CREDIT_TO_FUND, due, "s.17(1)", Role.OFFICER, deposited),)
    preferred = pending.preferred
    return (Deadline(DeadlineKind.CLAIM_PENDING, due, "s.16(3)", Role.OFFICER, preferred),)


FUND_CREDIT: Step[CreditedToFund] = Step(
    event=CreditedToFund,
    provision="s.17(1)",
    follows=frozenset({Stage.IN_DEPOSIT}),
    guard=_guard_fund,
    lawful=_fund_lawful,
    deadlines=_fund_deadlines,
    leads_to=Stage.CLOSED,
    postings=_fund_postings,
)
