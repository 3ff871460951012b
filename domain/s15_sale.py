"""The sale: lots offered one at a time, the proceeds settled.

s.13(3) (unclaimed cattle): all are sold, or disposed of otherwise by the Director's
order (proviso). s.15(1) (the owner refuses or omits to pay): "as many of them as may
be necessary", so after each sale the domain says what is still owed and whether to
stop; nor fewer: a sale that has not met the dues is not settled while heads remain.
s.15(2): dues are deducted from the proceeds; s.16: fines to the local authority,
feeding charges to the pound-keeper, the balance to the owner or into deposit.

Why it is long: the sale from the first lot to its settlement (the owner's refusal, the
auction day, how many to sell, the expenses, the settlement of each round), whose rules
read each other, and the three steps of s.15(1) and s.15(2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from datetime import date

from domain.accounts import (
    FINES,
    KEEPER_FEEDING,
    OWNER_BALANCE,
    SALE_EXPENSES,
    SURPLUS_DEPOSIT,
    Posting,
    Postings,
)
from domain.errors import (
    DuesUnmetError,
    EnoughSoldError,
    InvalidCaseError,
    NotAuctionDayError,
    TransitionRefusedError,
)
from domain.events import (
    AccountRefused,
    DisposedOtherwise,
    LotOffered,
    OwnerRefusedToPay,
    SaleClosed,
    SaleExpensesStated,
)
from domain.money import Money, total
from domain.provisions import cites
from domain.s04_s11_dues import Dues, DuesItem, DuesLine, dues_on
from domain.s07_seizure import Person
from domain.s12_claim import check_owner_may_take_back, may_take_back
from domain.s13_unclaimed import head_gone, on_unclaimed_route, require_notice_standing
from domain.s16_s17_proceeds import fines_to_fund
from domain.s18_buyers import DEFAULT_BARRED_CLASSES, BarredMatch, check_buyer
from domain.stages import Stage
from domain.step import AnyCase, Case, Step
from domain.tariff import Tariff

__all__ = [
    "DEFAULT_DEDUCTION_ORDER",
    "EXPENSES",
    "REFUSAL",
    "SETTLEMENT",
    "Disbursement",
    "Payee",
    "SaleProgress",
    "Settlement",
    "check_auction_day",
    "check_dues_met",
    "check_more_needed",
    "close_sale",
    "dues_unmet",
    "offer_lot",
    "round_settlements",
    "sale_progress",
    "settle",
    "settle_or_state_expenses",
    "shortfall_on_settling",
]


#: When proceeds do not cover the dues, they meet them in this order (a policy the
#: configuration may change): the expenses of realising the money first, then the
#: pound-keeper's feeding charges, then the fines.
DEFAULT_DEDUCTION_ORDER: tuple[DuesItem, ...] = (
    DuesItem.SALE_EXPENSES,
    DuesItem.FEEDING,
    DuesItem.FINE,
)


@cites("s.13(3)", "s.15(1)")
def check_auction_day(case: Case, on: date) -> None:
    """Lots are offered at the public auction, on the day fixed for it: s.13(3) and
    s.15(1) have the cattle sold "at such place and time" as directed, so a lot needs
    an auction fixed and is dated the day it was fixed for (an auction held on another
    day is fixed again first, with AUCTION)."""
    provision = "s.15(1)" if case.owner_appeared else "s.13(3)"
    require_notice_standing(case)  # an auction fixed on a superseded notice is cancelled
    fixed = case.scheduled_auction
    if fixed is None:
        raise NotAuctionDayError("no auction has been fixed for this case", provision)
    if on != fixed.auction_on:
        raise NotAuctionDayError(
            f"the auction is fixed for {fixed.auction_on.isoformat()}, not {on.isoformat()}",
            provision,
            fixed_on=fixed.auction_on,
            place=fixed.place,
        )


@cites("s.13(3)", "s.15(1)", "s.18")
def offer_lot(
    case: AnyCase,
    *,
    lot: int,
    count: int,
    price: Money | None,
    buyer: Person | None,
    buyer_role: BarredMatch | str | None,
    declared_not_barred: bool,
    on: date,
    today: date,
    tariff: Tariff | None = None,
    barred_classes: tuple[str, ...] = DEFAULT_BARRED_CLASSES,
) -> AnyCase:
    """Record heads of one lot offered at the auction: sold (price, buyer) or unsold.

    With the ``tariff``, on the owner's route a lot is refused once the proceeds meet
    the dues and the expected expenses (s.15(1)); the use cases always pass it.
    """
    check_auction_day(case, on)
    if tariff is not None:
        check_more_needed(case, tariff, on)
    if price is not None:
        check_buyer(buyer_role, declared_not_barred, barred_classes)
    event = LotOffered(
        on=on,
        lot=lot,
        count=count,
        price=price,
        buyer=buyer,
        buyer_declared_not_barred=declared_not_barred,
    )
    return case.apply(event, today)


@dataclass(frozen=True, slots=True)
class SaleProgress:
    """Where a sale stands: proceeds so far, what is still owed, whether to stop."""

    proceeds: Money
    dues: Dues
    still_owed: Money
    heads_remaining: int
    stop: bool
    provision: str
    #: The expenses of sale counted in what is owed: those last stated (s.15(2)).
    expenses: Money = field(default_factory=Money.zero)
    #: What the proceeds so far meet of the dues and those expenses (s.15(2)): all of
    #: them once ``still_owed`` is nothing; the rest of the proceeds is the balance.
    met: Money = field(default_factory=Money.zero)


@cites("s.15(1)", "s.13(3)")
def sale_progress(
    case: Case, tariff: Tariff, day: date, expected_expenses: Money | None = None
) -> SaleProgress:
    """After each lot: what is still owed, and whether selling should stop.

    s.15(1): "the cattle, or as many of them as may be necessary, shall be sold", so
    on the owner's route selling stops once the proceeds cover the dues and the
    expected expenses of sale (s.15(2): "together with the expenses of sale"; by
    default the expenses last stated for the case). s.13(3): unclaimed cattle are all
    sold, so selling stops only when none remain.
    """
    dues = dues_on(case, tariff, day)
    expected = case.expected_expenses if expected_expenses is None else expected_expenses
    owed = dues.total + expected - case.proceeds
    still_owed = owed if owed.paise > 0 else Money.zero()
    remaining = case.heads_remaining
    met = min(case.proceeds, dues.total + expected)
    if case.owner_appeared:
        stop = not still_owed or not remaining
        return SaleProgress(
            case.proceeds, dues, still_owed, remaining, stop, "s.15(1)", expected, met
        )
    return SaleProgress(
        case.proceeds, dues, still_owed, remaining, remaining == 0, "s.13(3)", expected, met
    )


@cites("s.15(1)", "s.15(2)")
def check_more_needed(case: Case, tariff: Tariff, day: date) -> None:
    """s.15(1): on the owner's refusal only "as many of them as may be necessary" are
    sold. Once the proceeds meet the dues and the expected expenses of sale (s.15(2)),
    no further head is offered: the rest go back to the owner with the account."""
    if not case.owner_appeared or not case.proceeds:
        return
    progress = sale_progress(case, tariff, day)
    if not progress.still_owed:
        raise EnoughSoldError(
            "the proceeds already meet the dues and the expected expenses of sale; "
            "the remaining cattle go back to the owner",
            "s.15(1)",
        )


class Payee(enum.Enum):
    """Where a part of the proceeds goes."""

    SALE_EXPENSES = "sale_expenses"  # s.15(2): the expenses of sale met
    LOCAL_AUTHORITY = "local_authority"  # s.16(1): the fines
    POUND_KEEPER = "pound_keeper"  # s.16(2): feeding and watering charges
    OWNER = "owner"  # s.15(3): the balance, to the owner
    DEPOSIT = "deposit"  # s.16(3): the unclaimed balance, held in deposit


@dataclass(frozen=True, slots=True)
class Disbursement:
    """One part of the proceeds and where it goes, under which provision."""

    payee: Payee
    amount: Money
    provision: str


_PAYEE_OF: dict[DuesItem, tuple[Payee, str]] = {
    DuesItem.SALE_EXPENSES: (Payee.SALE_EXPENSES, "s.15(2)"),
    DuesItem.FINE: (Payee.LOCAL_AUTHORITY, "s.16(1)"),
    DuesItem.FEEDING: (Payee.POUND_KEEPER, "s.16(2)"),
}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The money of a sale, to the paisa: proceeds = the dues met + the balance."""

    proceeds: Money
    dues: Dues
    disbursements: tuple[Disbursement, ...]
    unmet: Money

    def to(self, payee: Payee) -> Money:
        return total([d.amount for d in self.disbursements if d.payee is payee])

    @property
    def balance(self) -> Money:
        return self.to(Payee.OWNER) + self.to(Payee.DEPOSIT)


@cites("s.15(2)", "s.16(1)", "s.16(2)", "s.16(3)", "s.15(3)")
def settle(
    proceeds: Money,
    dues: Dues,
    owner_appeared: bool,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> Settlement:
    """Deduct the dues from the proceeds and say where every paisa goes.

    s.15(2): fines, feeding and watering and sale expenses are deducted from the
    proceeds, met in ``order`` when the proceeds fall short. s.16(1): the fines to the
    local authority; s.16(2): feeding charges to the pound-keeper; the balance to the
    owner with the account (s.15(3)) or, unclaimed, into deposit (s.16(3)).
    Invariant: the disbursements add up to the proceeds exactly.
    """
    if proceeds.is_negative:
        raise ValueError("proceeds cannot be negative")
    if sorted(item.value for item in order) != sorted(item.value for item in DuesItem):
        raise ValueError("the deduction order must name each head of dues once")
    left = proceeds
    parts: list[Disbursement] = []
    unmet = Money.zero()
    for item in order:
        owed = dues.of(item)
        met = min(owed, left)
        left -= met
        unmet += owed - met
        payee, provision = _PAYEE_OF[item]
        if met:
            parts.append(Disbursement(payee, met, provision))
    if left:
        parts.append(
            Disbursement(Payee.OWNER, left, "s.15(3)")
            if owner_appeared
            else Disbursement(Payee.DEPOSIT, left, "s.16(3)")
        )
    settlement = Settlement(proceeds, dues, tuple(parts), unmet)
    if total([d.amount for d in parts]) != proceeds:  # pragma: no cover - the invariant
        raise AssertionError("settlement does not account for every paisa")
    return settlement


def _less_met(dues: Dues, met: dict[DuesItem, Money]) -> Dues:
    """``dues`` less what earlier settlements of the case already met (negative lines)."""
    extra = tuple(
        DuesLine(
            item=item,
            kind="",
            heads=0,
            days=0,
            rate=Money.zero() - amount,
            amount=Money.zero() - amount,
            provision="s.15(2)",
            source="met from the proceeds of an earlier sale",
        )
        for item, amount in met.items()
        if amount.paise
    )
    return replace(dues, lines=dues.lines + extra)


@cites("s.15(2)", "s.15(5)", "s.16(3)")
def round_settlements(
    case: Case, tariff: Tariff, order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER
) -> list[Settlement]:
    """The settlement of each sale of the case, recomputed from its events.

    A case has two sales when the owner refused the account and the remaining cattle
    were sold as unclaimed (s.15(5)): the second sale's proceeds meet what the dues
    have grown to (feeding until sold, its expenses) less what the first already met;
    its balance goes into deposit (s.16(3)).
    """
    out: list[Settlement] = []
    proceeds = 0
    for event in case.events:
        if isinstance(event, LotOffered) and event.price is not None:
            proceeds += event.price.paise
        elif isinstance(event, DisposedOtherwise):
            proceeds += event.proceeds.paise
        elif isinstance(event, SaleClosed):
            dues = _less_met(dues_on(case, tariff, event.on), _met_by(out))
            out.append(settle(Money(proceeds), dues, event.owner_appeared, order))
            proceeds = 0
    return out


def _met_by(settlements: list[Settlement]) -> dict[DuesItem, Money]:
    """What ``settlements`` met of each head of dues (s.15(2))."""
    return {item: total([s.to(_PAYEE_OF[item][0]) for s in settlements]) for item in DuesItem}


@cites("s.12", "s.15(2)", "s.15(5)")
def dues_unmet(
    case: Case, tariff: Tariff, day: date, order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER
) -> Dues:
    """The dues on ``day`` less what the settled sales of the case met (s.15(2)): what
    the owner pays to take back the cattle of a refused account before a head of their
    round is sold (s.15(5), s.12), the second round's charges included; with no sale
    settled, the dues. The lines met show as negative lines."""
    return _less_met(dues_on(case, tariff, day), _met_by(round_settlements(case, tariff, order)))


@cites("s.15(2)", "s.16(3)")
def close_sale(
    case: AnyCase,
    tariff: Tariff,
    *,
    on: date,
    expenses: Money,
    today: date,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> tuple[AnyCase, Settlement]:
    """Close the sale on ``on`` with its expenses; settle the money (s.15(2), s.16)."""
    if expenses.is_negative:
        raise ValueError("expenses cannot be negative")
    probe = SaleClosed(
        on=on,
        expenses=expenses,
        to_owner_or_deposit=Money.zero(),
        owner_appeared=case.owner_appeared,
    )
    provisional = case.apply(probe, today)
    settlement = round_settlements(provisional, tariff, order)[-1]
    event = SaleClosed(
        on=on,
        expenses=expenses,
        to_owner_or_deposit=settlement.balance,
        owner_appeared=case.owner_appeared,
    )
    return case.apply(event, today), settlement


@cites("s.15(1)", "s.15(2)")
def shortfall_on_settling(case: Case, tariff: Tariff, *, on: date, expenses: Money) -> Money:
    """What the proceeds lack when the actual expenses of sale exceed those expected,
    on the owner's route, while heads remain; else nothing.

    Selling stopped (s.15(1)) because the proceeds met the dues and the expected
    expenses; if the actual expenses (s.15(2)) leave the dues unmet, another head may
    be sold before settling. A shortfall the officer already knew of when selling
    stopped is not a change of expenses: ``check_dues_met`` refuses the settlement.
    """
    if not case.owner_appeared or not case.heads_remaining or case.stage is not Stage.SELLING:
        return Money.zero()
    dues = dues_on(case, tariff, on).total
    met_as_expected = case.proceeds >= dues + case.expected_expenses
    short = dues + expenses - case.proceeds
    return short if met_as_expected and short.paise > 0 else Money.zero()


@cites("s.15(1)", "s.15(2)")
def check_dues_met(case: Case, tariff: Tariff, *, on: date, expenses: Money) -> None:
    """s.15(1): on the owner's refusal "as many of them as may be necessary" are sold,
    not fewer: while the proceeds leave the dues and the expenses of sale (s.15(2))
    unmet and heads remain in the pound, the sale is not settled (nothing would pay the
    rest, and the cattle would go back unpaid). The heads are offered again at another
    auction, or the owner pays what remains and takes them (s.12). Once no head remains,
    the sale settles with what it fetched."""
    if not case.owner_appeared or case.stage is not Stage.SELLING:
        return
    heads = case.heads_remaining
    short = dues_on(case, tariff, on).total + expenses - case.proceeds
    if heads and short.paise > 0:
        raise DuesUnmetError(
            f"the proceeds of {case.proceeds} leave {short} of the dues and the expenses of "
            f"sale unmet, and {heads} head remain to be offered",
            "s.15(1)",
            short=short,
            proceeds=case.proceeds,
            heads=heads,
        )


@cites("s.15(1)", "s.15(2)", "s.16(3)")
def settle_or_state_expenses(
    case: AnyCase,
    tariff: Tariff,
    *,
    on: date,
    expenses: Money,
    today: date,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> tuple[AnyCase, Settlement | None, Money]:
    """Close the sale (``close_sale``), unless the actual expenses leave the dues unmet
    on the owner's route while heads remain: then they are recorded as the expenses of
    sale, no settlement is made, and the shortfall is returned so that one more head
    may be sold (s.15(1), s.15(2)). While the dues stay unmet and heads remain, the
    settlement is refused (``check_dues_met``)."""
    if expenses.is_negative:
        raise ValueError("expenses cannot be negative")
    short = shortfall_on_settling(case, tariff, on=on, expenses=expenses)
    if short and expenses != case.expected_expenses:
        stated = case.apply(SaleExpensesStated(on=on, expenses=expenses), today)
        return stated, None, short
    probe = SaleClosed(
        on=on, expenses=expenses, to_owner_or_deposit=Money.zero(), owner_appeared=True
    )
    case.apply(replace(probe, owner_appeared=case.owner_appeared), today)  # the day, the stage
    check_dues_met(case, tariff, on=on, expenses=expenses)
    closed, settlement = close_sale(
        case, tariff, on=on, expenses=expenses, today=today, order=order
    )
    return closed, settlement, Money.zero()


# --- the steps of s.15(1) and s.15(2), each declared once ---------------------------


@cites("s.15(1)", "s.12")
def _guard_refusal(case: Case, event: OwnerRefusedToPay) -> None:
    check_owner_may_take_back(case, OwnerRefusedToPay, event.on)


@cites("s.15(1)", "s.12")
def _refusal_lawful(case: Case, today: date) -> bool:
    """The owner may refuse while no head is sold and the account was not refused."""
    return may_take_back(case, OwnerRefusedToPay, today)


REFUSAL: Step[OwnerRefusedToPay] = Step(
    event=OwnerRefusedToPay,
    provision="s.15(1)",
    follows=frozenset({Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED}),
    guard=_guard_refusal,
    lawful=_refusal_lawful,
    leads_to=Stage.OWNER_REFUSED,
)


@cites("s.13(3)", "s.15(2)")
def _guard_settlement(case: Case, event: SaleClosed) -> None:
    """Unclaimed cattle are all sold or disposed of before their sale is settled
    (s.13(3)); the owner's route settles when enough are sold (s.15(1), checked with the
    dues in ``check_dues_met``)."""
    if on_unclaimed_route(case) and case.heads_remaining:
        raise TransitionRefusedError(
            f"{case.heads_remaining} head still unsold: unclaimed cattle are all "
            "sold or disposed of",
            "s.13(3)",
            reason="heads_unsold",
            facts={"count": case.heads_remaining},
        )


@cites("s.15(1)", "s.15(2)", "s.13(3)")
def _guard_something_sold(case: Case, event: SaleClosed) -> None:
    """A sale is settled from its proceeds (s.15(2)): with no head of the round sold or
    otherwise disposed of there is nothing to settle. On the owner's route the cattle
    stay in the pound until enough are sold or the dues are paid (s.15(1), s.12); a
    settlement of nothing would hand them back unpaid."""
    for before in reversed(case.events):
        if isinstance(before, SaleClosed | AccountRefused):
            break
        if head_gone(before):
            return
    raise TransitionRefusedError(
        "no head has been sold or disposed of: there is no sale to settle",
        "s.15(1)" if case.owner_appeared else "s.13(3)",
        reason="nothing_sold",
    )


@cites("s.15(2)", "s.15(3)", "s.16(3)")
def _after_settlement(case: Case, event: SaleClosed) -> Stage:
    """The account is due to an owner who appeared (s.15(3)); the balance of unclaimed
    cattle, with a deposit of an earlier round, is held in deposit (s.16(3))."""
    if event.owner_appeared:
        return Stage.ACCOUNT_DUE
    held = case.deposit_total + event.to_owner_or_deposit
    return Stage.IN_DEPOSIT if held.paise > 0 else Stage.CLOSED


#: The account each party to a settlement is paid into.
_ACCOUNT_OF: dict[Payee, str] = {
    Payee.SALE_EXPENSES: SALE_EXPENSES,
    Payee.LOCAL_AUTHORITY: FINES,
    Payee.POUND_KEEPER: KEEPER_FEEDING,
    Payee.OWNER: OWNER_BALANCE,
    Payee.DEPOSIT: SURPLUS_DEPOSIT,
}


@cites("s.15(2)", "s.16(1)", "s.16(2)", "s.16(3)", "s.15(3)", "s.17(1)")
def _settlement_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """The proceeds of the sale just closed, to the paisa: expenses (s.15(2)), fines to
    the local authority (s.16(1)) and on to its fund (s.17(1)), feeding to the keeper
    (s.16(2)), the balance to the owner (s.15(3)) or into deposit (s.16(3))."""
    settlement = round_settlements(after, tariff, order)[-1]
    legs = tuple(
        Posting(_ACCOUNT_OF[part.payee], part.amount, part.provision)
        for part in settlement.disbursements
    )
    return Postings(settlement.proceeds, legs + fines_to_fund(settlement.to(Payee.LOCAL_AUTHORITY)))


SETTLEMENT: Step[SaleClosed] = Step(
    event=SaleClosed,
    provision="s.15(2)",
    follows=frozenset({Stage.SELLING}),
    guard=_guard_settlement,
    # Checked on a new step only: a settlement recorded before this rule still replays
    # (its money was posted).
    guard_new=_guard_something_sold,
    leads_to=_after_settlement,
    after_report=True,
    moves_money=lambda event: True,
    postings=_settlement_postings,
)


@cites("s.15(2)")
def _guard_expenses(case: Case, event: SaleExpensesStated) -> None:
    if event.expenses.is_negative:
        raise InvalidCaseError("expenses cannot be negative", "s.15(2)")


EXPENSES: Step[SaleExpensesStated] = Step(
    event=SaleExpensesStated,
    provision="s.15(2)",
    follows=frozenset({Stage.SELLING}),
    guard=_guard_expenses,
    leads_to=lambda case, event: case.stage,
    after_report=True,
)
