"""One statement of a case on a day: every figure and date the answers give, computed once.

DUES, STATUS, the s.15(3) account, REGISTER and the documents render this statement;
none of them recomputes an amount. A case may have two sales ("rounds"): the owner's
(s.15(1)) and, after a refused account, the rest sold as unclaimed (s.15(5)); the
statement counts every round.

Why it is long: the one statement of a case: every figure and date the answers give,
computed together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.calendar import period_end
from domain.case import Case
from domain.deadlines import Deadline, deadlines
from domain.errors import DomainError
from domain.events import (
    AccountDelivered,
    AccountRefused,
    ClaimedAndPaid,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    LotOffered,
    SaleClosed,
)
from domain.money import Money, total
from domain.provisions import cites
from domain.recorded import Recorded, recorded_of
from domain.s04_s11_dues import Dues, DuesItem, daily_charge, dues_on, per_day_on
from domain.s12_release import pay_rest_after_part_sale
from domain.s13_unclaimed import auction_allowed_from, report_due_on
from domain.s14_deposit import Deposit
from domain.s15_3_account import Account, time_impounded
from domain.s15_sale import (
    DEFAULT_DEDUCTION_ORDER,
    Disbursement,
    Payee,
    SaleProgress,
    Settlement,
    round_settlements,
    sale_progress,
)
from domain.s16_s17_proceeds import deposit_window_end, fund_credit_from
from domain.stages import IN_POUND_STAGES, Stage
from domain.tariff import Tariff

__all__ = ["CaseDates", "SaleRound", "Statement", "dates_of", "statement"]


@dataclass(frozen=True, slots=True)
class CaseDates:
    """The Act's days of a case, whatever the tariff: what a reply dates its steps by."""

    #: The seven days from impounding end (s.13(1)): unclaimed until then.
    unclaimed_until: date
    #: The day the keeper's report of unclaimed cattle is due (s.13(1)).
    report_on: date
    #: The last day to complain of the seizure, and so to deposit under s.14 (s.19).
    complaint_by: date
    #: The seven days from the notice end (s.13(3)); None before a notice.
    notice_until: date | None
    #: The first day of a lawful public auction after the notice (s.13(3)).
    auction_from: date | None
    #: The last day to prefer a claim to the surplus in deposit (s.16(3)); None while
    #: nothing is in deposit.
    claims_until: date | None


@cites("s.13(1)", "s.13(3)", "s.16(3)", "s.19")
def dates_of(case: Case, notice_on: date | None = None) -> CaseDates:
    """The Act's days of ``case`` (s.13(1), s.13(3), s.16(3), s.19); with ``notice_on``,
    the s.13(3) days of a notice of that day (one being printed, not yet posted). Kept
    with the case (``Case.kept``): an answer reads them several times, and each reading
    scans the case's events."""
    if notice_on is not None:
        return _dates(case, notice_on)
    return case.kept("dates", (), lambda: _dates(case, None))


def _dates(case: Case, notice_on: date | None) -> CaseDates:
    impounded = case.seizure.impounded_on
    notice = notice_on or (case.notice.on if case.notice is not None else None)
    deposited = case.deposited_on
    return CaseDates(
        unclaimed_until=period_end(impounded, 7),
        report_on=report_due_on(impounded),
        complaint_by=case.complaint_by,
        notice_until=period_end(notice, 7) if notice is not None else None,
        auction_from=auction_allowed_from(notice) if notice is not None else None,
        claims_until=(
            deposit_window_end(deposited, case.profile.surplus_months)
            if deposited is not None
            else None
        ),
    )


@dataclass(frozen=True, slots=True)
class SaleRound:
    """One sale of the case: heads sold, heads disposed of otherwise (counted apart),
    proceeds, and once settled where the money went (s.15(2), s.16). ``refused`` is set
    when the owner refused the account of this round, so its balance went into deposit
    (s.15(5))."""

    index: int
    owner_appeared: bool
    heads_sold: int  # at the public auction (s.13(3), s.15(1))
    proceeds: Money
    settled_on: date | None
    settlement: Settlement | None
    refused: bool = False
    heads_disposed: int = 0  # by the Director's order (s.13(3) proviso)

    @property
    def deducted(self) -> Money:
        """What the proceeds met of the dues and the expenses (s.15(2))."""
        return self.proceeds - self.balance if self.settlement else Money.zero()

    @property
    def balance(self) -> Money:
        return self.settlement.balance if self.settlement else Money.zero()

    @property
    def held_in_deposit(self) -> Money:
        """This round's balance held in deposit (s.16(3)): unclaimed, or refused (s.15(5))."""
        if self.settlement is None:
            return Money.zero()
        if self.refused:
            return self.settlement.balance
        return self.settlement.to(Payee.DEPOSIT)


@dataclass(frozen=True, slots=True)
class Statement:
    """A case on a day: stage, what is owed and why, the money that moved, the heads,
    the s.15(3) account of every round, the deadlines."""

    case: Case
    on: date
    stage: Stage
    stage_since: date
    #: Fines and charges incurred to the day (s.11, s.4, s.15(2)), line by line.
    dues: Dues
    #: What the proceeds of the settled sales met of them (s.15(2)).
    met_by_sale: Money
    #: True when the owner may pay the dues and take the cattle on the day (s.12).
    payable: bool
    paid: Money  # s.12
    deposited: Money  # s.14, under protest
    refunded: Money  # s.19, the refund of the s.14 deposit ordered
    rounds: tuple[SaleRound, ...]
    held_in_deposit: Money  # s.16(3), now
    held_since: date | None  # the first day any of it went into deposit
    #: The day the three months run from (s.16(3)); None while the rest of a refused
    #: account is still to be sold (they run from its settlement, s.15(5)).
    deposited_on: date | None
    credited_to_fund: Money  # s.17(1), the unclaimed surplus
    paid_to_claimant: Money  # s.16(3), a claim established
    heads_seized: int
    heads_in_pound: int
    heads_sold: int  # at the public auction, every round (s.15(3)(d))
    heads_returned: int
    #: Heads disposed of otherwise by the Director's order (s.13(3) proviso): not sold.
    heads_disposed: int
    account: Account | None  # s.15(3), every settled round
    deadlines: tuple[Deadline, ...]
    #: What one more day in the pound adds (s.4): the feeding charge of the heads still
    #: fed on the day; zero once none is.
    per_day: Money
    #: What one more day costs for every head of the case at the day's rate (s.4): the
    #: figure quoted on intake, whatever the feeding-day policy counts that day.
    daily_rate: Money
    #: The last day to complain of the seizure (s.19), and so to deposit under s.14.
    complaint_by: date
    #: While lots are being sold: proceeds so far, what is still owed, whether to stop
    #: (s.15(1), s.13(3)).
    sale: SaleProgress | None
    #: The Act's days of the case (s.13(1), s.13(3), s.16(3), s.19).
    dates: CaseDates
    #: The steps of the case the answers tell of (the last payment, the lot offered, the
    #: claim preferred, the voiding, ...), as they were recorded.
    recorded: Recorded

    @property
    def unmet(self) -> Money:
        """What of the dues the sales have not met (s.15(2)); never negative."""
        left = self.dues.total - self.met_by_sale
        return left if left.paise > 0 else Money.zero()

    @property
    def owed(self) -> Money:
        """What the owner pays on the day to take the cattle (s.12); zero when no payment
        is possible (released, sold, deemed unclaimed). During a part sale on the
        owner's route, what the proceeds so far leave of the dues and the expenses of
        sale (s.15(1), s.15(2))."""
        if not self.payable:
            return Money.zero()
        if self.sale is not None and self.sale.provision == "s.15(1)" and self.sale.proceeds:
            return self.sale.still_owed
        return self.unmet

    @property
    def deposit(self) -> Deposit:
        """What a deposit under s.14 takes on the day, with the s.19 last day."""
        return Deposit(self.dues, self.complaint_by)

    @property
    def proceeds(self) -> Money:
        return total([r.proceeds for r in self.rounds])

    @property
    def window_end(self) -> date | None:
        """The last day to prefer a claim to the deposit (s.16(3))."""
        months = self.case.profile.surplus_months
        return deposit_window_end(self.deposited_on, months) if self.deposited_on else None

    @property
    def credit_from(self) -> date | None:
        """The first day the unclaimed deposit may go to the fund (s.17(1))."""
        months = self.case.profile.surplus_months
        return fund_credit_from(self.deposited_on, months) if self.deposited_on else None

    @property
    def ahead(self) -> tuple[Deadline, ...]:
        """The deadlines on or after the statement's day."""
        return tuple(d for d in self.deadlines if d.due_on >= self.on)


def _rounds(case: Case, tariff: Tariff, order: tuple[DuesItem, ...]) -> tuple[SaleRound, ...]:
    """The sales of the case: settled ones with their settlement, then one in progress."""
    settlements = iter(round_settlements(case, tariff, order))
    out: list[SaleRound] = []
    sold = disposed = 0
    proceeds = Money.zero()
    started = False
    for index, event in enumerate(case.events):
        if isinstance(event, LotOffered) and event.price is not None:
            sold, proceeds, started = sold + event.count, proceeds + event.price, True
        elif isinstance(event, DisposedOtherwise):
            disposed, proceeds, started = disposed + event.count, proceeds + event.proceeds, True
        elif isinstance(event, SaleClosed):
            refused = event.owner_appeared and any(
                isinstance(e, AccountRefused) for e in case.events[index + 1 :]
            )
            out.append(
                SaleRound(
                    len(out) + 1,
                    event.owner_appeared,
                    sold,
                    proceeds,
                    event.on,
                    next(settlements),
                    refused,
                    disposed,
                )
            )
            sold, disposed, proceeds, started = 0, 0, Money.zero(), False
    if started:
        out.append(
            SaleRound(
                len(out) + 1, case.owner_appeared, sold, proceeds, None, None, False, disposed
            )
        )
    return tuple(out)


def _payable(case: Case, owed: Money, on: date, tariff: Tariff) -> bool:
    """Whether the Act lets the owner pay the dues and take the cattle on ``on`` (s.12):
    asked of the case itself, so the answer follows its rules; during a part sale on the
    owner's route, of the payment of what the proceeds leave owed (s.15(1))."""
    day = max(on, case.last_event_on)
    try:
        if case.pays_rest_after_part_sale:
            pay_rest_after_part_sale(case, tariff, day, day)
        else:
            case.apply(ClaimedAndPaid(on=day, paid=owed), day)
    except DomainError:
        return False
    return True


_PAYEES: tuple[tuple[Payee, str], ...] = (
    (Payee.SALE_EXPENSES, "s.15(2)"),
    (Payee.LOCAL_AUTHORITY, "s.16(1)"),
    (Payee.POUND_KEEPER, "s.16(2)"),
    (Payee.OWNER, "s.15(3)"),
    (Payee.DEPOSIT, "s.16(3)"),
)


def _last_left(case: Case, closed_on: date) -> date:
    """The day the account counts the time impounded to (s.15(3)(b)): the last
    settlement; for the cattle of a refused account taken back on payment before a head
    of theirs was sold (s.15(5), s.12), the day of that payment, when they left."""
    paid = case.last(ClaimedAndPaid)
    return max(closed_on, paid.on) if isinstance(paid, ClaimedAndPaid) else closed_on


@cites(
    "s.15(3)", "s.15(3)(a)", "s.15(3)(b)", "s.15(3)(c)", "s.15(3)(d)", "s.15(3)(e)", "s.15(3)(f)"
)
def _account(case: Case, tariff: Tariff, rounds: tuple[SaleRound, ...]) -> Account | None:
    """The s.15(3) account of every settled sale of the case, items (a) to (f): the heads
    sold and the proceeds of all the rounds, and where every paisa went."""
    settled = [r for r in rounds if r.settlement is not None and r.settled_on is not None]
    if not settled:
        return None
    closed_on = settled[-1].settled_on
    assert closed_on is not None
    paid: dict[Payee, Money] = {payee: Money.zero() for payee, _ in _PAYEES}
    for r in settled:
        assert r.settlement is not None
        for part in r.settlement.disbursements:
            payee = Payee.DEPOSIT if r.refused and part.payee is Payee.OWNER else part.payee
            paid[payee] = paid[payee] + part.amount
    disposal = tuple(
        Disbursement(payee, paid[payee], provision) for payee, provision in _PAYEES if paid[payee]
    )
    dues = dues_on(case, tariff, closed_on)
    sold = sum(r.heads_sold for r in settled)
    disposed = sum(r.heads_disposed for r in settled)
    proceeds = total([r.proceeds for r in settled])
    account = Account(
        case_number=case.number,
        cattle_seized=case.seizure.head_count,  # (a)
        stays=time_impounded(case, _last_left(case, closed_on)),  # (b) each lot's
        fines_and_charges=dues.total,  # (c)
        dues=dues,  # (c)
        cattle_sold=sold,  # (d) every round
        proceeds=proceeds,  # (e) every round
        disposal=disposal,  # (f)
        cattle_remaining=case.seizure.head_count - sold - disposed,
        balance=paid[Payee.OWNER] + paid[Payee.DEPOSIT],
        cattle_disposed=disposed,  # not sold (s.13(3) proviso)
        paid=_paid_after_sale(case),  # the rest of the dues, paid to take the rest (s.12)
    )
    if total([d.amount for d in disposal]) != proceeds:  # pragma: no cover - the invariant
        raise AssertionError("the account does not dispose of every paisa of the proceeds")
    return account


def _paid_after_sale(case: Case) -> Money:
    """What the owner paid, in the step that settled a part sale on the owner's route, of
    the dues its proceeds left unmet to take the remaining cattle (s.12, s.15(1));
    nothing when no such payment was made (a payment after a refused account, s.15(5),
    is not part of the sale's account)."""
    for before, event in zip(case.events, case.events[1:], strict=False):
        if isinstance(event, ClaimedAndPaid) and isinstance(before, SaleClosed):
            return event.paid if before.owner_appeared else Money.zero()
    return Money.zero()


@cites("s.12", "s.14", "s.15(2)", "s.15(3)", "s.15(5)", "s.16(3)", "s.17(1)", "s.19")
def statement(
    case: Case,
    tariff: Tariff,
    on: date,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> Statement:
    """The case on ``on``: what is owed (s.11, s.4, s.15(2)) less what the sales met;
    whether the owner may pay (s.12); what was paid, deposited (s.14) or refunded
    (s.19); each sale and its settlement (s.15(2), s.16); what is held in deposit
    (s.16(3), s.15(5)), credited to the fund (s.17(1)) or paid to a claimant; the heads;
    the s.15(3) account of every round; the deadlines."""
    dues = dues_on(case, tariff, on)
    rounds = _rounds(case, tariff, order)
    met = total([r.deducted for r in rounds if r.settled_on is not None and r.settled_on <= on])
    unmet = dues.total - met
    paid = case.last(ClaimedAndPaid)
    deposit = case.last(DeliveredOnDeposit)
    outcome = case.last(DepositOutcome)
    held = total([r.held_in_deposit for r in rounds])
    deposit_days = sorted(
        [r.settled_on for r in rounds if r.settled_on and r.settlement and not r.refused]
        + [e.on for e in case.events if isinstance(e, AccountRefused)]
    )
    held_since = deposit_days[0] if held and deposit_days else None
    credited = held if case.last(CreditedToFund) is not None else Money.zero()
    claimed = held if case.last(DepositClaimed) is not None else Money.zero()
    returned = (
        case.first(ClaimedAndPaid) is not None
        or case.first(DeliveredOnDeposit) is not None
        or case.first(AccountDelivered) is not None
    )
    in_pound = case.heads_remaining if case.stage in IN_POUND_STAGES else 0
    dates = dates_of(case)
    return Statement(
        case=case,
        on=on,
        stage=case.stage,
        stage_since=case.stage_since,
        dues=dues,
        met_by_sale=met,
        payable=case.stage in IN_POUND_STAGES and _payable(case, unmet, on, tariff),
        paid=paid.paid if isinstance(paid, ClaimedAndPaid) else Money.zero(),
        deposited=deposit.deposited if isinstance(deposit, DeliveredOnDeposit) else Money.zero(),
        refunded=(
            deposit.deposited
            if isinstance(outcome, DepositOutcome)
            and outcome.returned
            and isinstance(deposit, DeliveredOnDeposit)
            else Money.zero()
        ),
        rounds=rounds,
        held_in_deposit=held - credited - claimed,
        held_since=held_since,
        deposited_on=case.deposited_on,
        credited_to_fund=credited,
        paid_to_claimant=claimed,
        heads_seized=case.seizure.head_count,
        heads_in_pound=in_pound,
        heads_sold=sum(r.heads_sold for r in rounds),
        heads_returned=case.heads_remaining if returned else 0,
        heads_disposed=sum(r.heads_disposed for r in rounds),
        account=_account(case, tariff, rounds),
        deadlines=tuple(deadlines(case)),
        per_day=per_day_on(dues, case),
        daily_rate=daily_charge(case, tariff, on),
        complaint_by=dates.complaint_by,
        sale=sale_progress(case, tariff, on) if case.stage is Stage.SELLING else None,
        dates=dates,
        recorded=recorded_of(case),
    )
