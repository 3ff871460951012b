"""s.12: the owner claims the cattle and pays the fines and charges due that day, and
the cattle are released: all the dues, not a part (a part payment releases nothing).

On the owner's route, once part of the cattle were sold (s.15(1)) and the proceeds do not
yet meet the dues and the expenses of sale, the owner may still take the rest by paying
what remains owed after the proceeds (s.12, s.15(2)): the sale is settled from its
proceeds and the payment meets the rest, in one step, with the account (s.15(3))."""

from __future__ import annotations

from datetime import date

from domain.accounts import FINES, KEEPER_FEEDING, SALE_EXPENSES, Posting, Postings, legs
from domain.errors import AmountNotDueError, TransitionRefusedError
from domain.events import ClaimedAndPaid, SaleClosed
from domain.money import Money, total
from domain.provisions import cites
from domain.s04_s11_dues import Dues, DuesItem, dues_on
from domain.s12_claim import BEFORE_SETTLEMENT, check_owner_may_take_back, may_take_back
from domain.s15_sale import (
    DEFAULT_DEDUCTION_ORDER,
    Payee,
    close_sale,
    dues_unmet,
    round_settlements,
    sale_progress,
)
from domain.s16_s17_proceeds import fines_to_fund
from domain.stages import Stage
from domain.step import AnyCase, Case, Step
from domain.tariff import Tariff

__all__ = [
    "CLAIM",
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


# --- the step of s.12, declared once -----------------------------------------------


@cites("s.12", "s.15(2)", "s.16(2)", "s.17(1)")
def _payment_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.12: the fines and charges paid; the fines are received for the local authority
    and credited to its fund (s.17(1)), the feeding charges the keeper retains (s.16(2)).
    After a settlement whose proceeds left part of the dues unmet (the owner then pays
    the rest to take the remaining cattle, s.15(1)), the payment meets what each head
    of the dues still lacks: the fines, the expenses of sale (s.15(2)), the feeding."""
    event = after.events[-1]
    assert isinstance(event, ClaimedAndPaid)
    dues = dues_on(after, tariff, event.on)
    settled = round_settlements(after, tariff, order)
    met_fines = total([s.to(Payee.LOCAL_AUTHORITY) for s in settled])
    met_expenses = total([s.to(Payee.SALE_EXPENSES) for s in settled])
    fines = min(max(dues.fines - met_fines, Money.zero()), event.paid)
    expenses = min(max(dues.sale_expenses - met_expenses, Money.zero()), event.paid - fines)
    paid = legs(
        Posting(FINES, fines, "s.12"),
        Posting(SALE_EXPENSES, expenses, "s.15(2)"),
        Posting(KEEPER_FEEDING, event.paid - fines - expenses, "s.16(2)"),
    )
    return Postings(event.paid, paid + fines_to_fund(fines))


@cites("s.12", "s.15(1)", "s.15(2)", "s.15(3)")
def _check_payment_after_part_sale(case: Case) -> None:
    """s.15(1) sells only "as many as may be necessary"; until the proceeds meet the dues
    the owner may take the rest by paying what remains (s.12). That payment comes in the
    step that settles the proceeds (s.15(2)): right after the owner's settlement that
    left nothing to the owner, while heads remain. Any other payment after a settlement
    is refused: the account is due (s.15(3))."""
    last = case.events[-1]
    if (
        isinstance(last, SaleClosed)
        and last.owner_appeared
        and not last.to_owner_or_deposit
        and case.heads_remaining > 0
    ):
        return
    raise TransitionRefusedError(
        f"ClaimedAndPaid is not allowed when the case is {case.stage.value}",
        "s.12",
        reason="stage",
        facts={"stage": case.stage.value, "date": case.stage_since, "sale": case.sale_provision},
    )


@cites("s.12", "s.15(1)", "s.15(5)")
def _guard_payment(case: Case, event: ClaimedAndPaid) -> None:
    if case.stage is Stage.ACCOUNT_DUE:
        _check_payment_after_part_sale(case)
    else:
        check_owner_may_take_back(case, ClaimedAndPaid, event.on)


@cites("s.12", "s.15(1)", "s.15(2)", "s.15(5)")
def _payment_lawful(case: Case, today: date) -> bool:
    """Payment while no head is sold, after a refused account while no head of its round
    is sold (s.12, s.15(5)); of what remains owed after the proceeds of a part sale on
    the owner's route (s.15(1)), which is taken only in the step that settles them."""
    if case.stage is Stage.ACCOUNT_DUE:
        return False  # only in the step that settles the proceeds (s.12, s.15(2))
    if case.pays_rest_after_part_sale:
        return True
    return may_take_back(case, ClaimedAndPaid, today)


@cites("s.12", "s.16(3)")
def _after_payment(case: Case, event: ClaimedAndPaid) -> Stage:
    """Released; after a refused account the first sale's balance stays in deposit until
    claimed (s.16(3)) while the cattle go back on payment (s.12)."""
    return Stage.IN_DEPOSIT if case.deposit_total.paise > 0 else Stage.RELEASED


CLAIM: Step[ClaimedAndPaid] = Step(
    event=ClaimedAndPaid,
    provision="s.12",
    # Until a head is sold the owner may still pay, also after refusing (s.12, s.15(1));
    # on the owner's route, while the proceeds leave the dues unmet, the payment of the
    # rest follows the settlement of the proceeds (ACCOUNT_DUE); after a refused account
    # until a head of that round is sold (s.15(5)).
    follows=BEFORE_SETTLEMENT | {Stage.ACCOUNT_DUE, Stage.DEEMED_UNCLAIMED},
    guard=_guard_payment,
    lawful=_payment_lawful,
    leads_to=_after_payment,
    moves_money=lambda event: True,
    postings=_payment_postings,
)
