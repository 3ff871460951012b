"""The steps a statement holds for its answers (``Statement.recorded``,
``domain.recorded``): the replies to a step read the step they tell of from the
statement, never from the case's events. Cases built through the domain, named after the
provisions of the steps."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

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
    Impounded,
    LotOffered,
    OwnerRefusedToPay,
    SaleClosed,
    SeizureCorrected,
)
from domain.recorded import Recorded, recorded_of
from domain.s15_sale import close_sale
from domain.stages import Stage
from domain.statement import statement
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    case_in,
    disposal,
    notice,
    open_case,
    report,
    rs,
    sale,
    sample_tariff,
    step,
)

TARIFF = sample_tariff()
WINDOW_OPEN = AUCTION_FROM + timedelta(days=5)  # within the three months (s.16(3))
AFTER_WINDOW = date(2026, 7, 1)  # the three months from 18 March are over


def _recorded(case: Case, on: date | None = None) -> Recorded:
    """The steps of the statement of ``case`` on ``on`` (the latest day of the case)."""
    return statement(case, TARIFF, on or max(e.on for e in case.events)).recorded


def test_s7_a_case_just_opened_has_only_its_impounding() -> None:
    r = _recorded(open_case())
    assert isinstance(r.last_step, Impounded)
    assert r.latest_on == IMPOUNDED_ON
    assert (r.payment, r.deposit, r.lot_offered, r.sale_closed, r.voiding) == (None,) * 5
    assert r.owner_refusal is None
    assert r.owner_first_refused_on is None
    assert r.sold_under == frozenset()


def test_s12_the_payment_is_the_one_recorded_and_the_same_on_any_day() -> None:
    case = case_in(Stage.RELEASED)
    r = _recorded(case)
    assert isinstance(r.payment, ClaimedAndPaid)
    assert (r.payment.on, r.payment.paid) == (date(2026, 3, 3), rs(1180))
    assert _recorded(case, date(2026, 9, 1)) == r
    assert r.deposit is None


def test_s14_s19_the_deposit_delivered_and_its_outcome() -> None:
    r = _recorded(case_in(Stage.CLOSED))
    assert isinstance(r.deposit, DeliveredOnDeposit)
    assert (r.deposit.on, r.deposit.deposited) == (date(2026, 3, 3), rs(1180))
    assert isinstance(r.deposit_outcome, DepositOutcome)
    assert (r.deposit_outcome.returned, r.deposit_outcome.reference) == (False, "C-1")
    assert r.latest_on == date(2026, 3, 20)
    assert r.last_step is r.deposit_outcome


def test_s15_1_the_owners_refusal_first_and_last() -> None:
    r = _recorded(case_in(Stage.OWNER_REFUSED))
    assert isinstance(r.owner_refusal, OwnerRefusedToPay)
    assert r.owner_refusal.on == date(2026, 3, 4)
    assert r.owner_first_refused_on == date(2026, 3, 4)


def test_s15_2_the_lot_offered_and_the_sale_closed_on_the_owners_refusal() -> None:
    r = _recorded(case_in(Stage.ACCOUNT_DUE))
    assert isinstance(r.lot_offered, LotOffered)
    assert (r.lot_offered.count, r.lot_offered.price) == (1, rs(20000))
    assert isinstance(r.sale_closed, SaleClosed)
    assert r.sale_closed.on == date(2026, 3, 6)
    assert r.sale_closed.owner_appeared
    assert r.sold_under == frozenset({"s.15(1)"})
    assert r.account_refused is None


def test_s15_5_the_account_refused_and_the_rest_sold_as_unclaimed() -> None:
    deemed = case_in(Stage.DEEMED_UNCLAIMED)
    r = _recorded(deemed)
    assert isinstance(r.account_refused, AccountRefused)
    assert r.account_refused.on == date(2026, 3, 9)
    selling = step(
        deemed, report(date(2026, 3, 9)), notice(), sale(0, 1, rs(15000), date(2026, 3, 18))
    )
    assert _recorded(selling).sold_under == frozenset({"s.15(1)", "s.13(3)"})
    assert _recorded(selling).lot_offered == sale(0, 1, rs(15000), date(2026, 3, 18))


def test_s13_3_proviso_the_disposal_otherwise() -> None:
    both = step(
        open_case(),
        report(),
        notice(),
        sale(0, 1, rs(9000), AUCTION_FROM),
        disposal(0, 1, date(2026, 3, 19)),
    )
    r = _recorded(both)
    assert r.disposal == disposal(0, 1, date(2026, 3, 19))
    assert isinstance(r.disposal, DisposedOtherwise)
    assert r.sold_under == frozenset({"s.13(3)"})


def test_s16_3_the_claims_preferred_rejected_and_established() -> None:
    held = case_in(Stage.IN_DEPOSIT)
    first = ClaimPreferred(on=WINDOW_OPEN, claimant="Ramesh")
    second = ClaimPreferred(on=WINDOW_OPEN + timedelta(1), claimant="Suresh")
    preferred = step(held, first, second)
    assert _recorded(preferred).claim_preferred == second
    rejected = ClaimRejected(on=WINDOW_OPEN + timedelta(2), reference="R-1", claimant="Ramesh")
    after = step(preferred, rejected)
    assert _recorded(after).claim_rejected == rejected
    assert _recorded(after).claim_established is None
    claimed = DepositClaimed(
        on=WINDOW_OPEN + timedelta(3), claimant="Suresh", preferred_on=second.on, reference="E-1"
    )
    assert _recorded(step(after, claimed)).claim_established == claimed


def test_s17_1_the_credit_to_the_fund() -> None:
    credited = step(case_in(Stage.IN_DEPOSIT), CreditedToFund(on=AFTER_WINDOW))
    r = _recorded(credited)
    assert r.credited == CreditedToFund(on=AFTER_WINDOW)
    assert r.last_step == r.credited


def test_s7_the_correction_and_its_reason() -> None:
    case = open_case()
    fixed = replace(case.seizure, place_seized="Kulathoor junction")
    correction = SeizureCorrected(on=date(2026, 3, 2), seizure=fixed, reason="place misspelt")
    r = _recorded(step(case, correction))
    assert r.correction == correction


def test_s7_the_voiding_and_its_reason() -> None:
    r = _recorded(case_in(Stage.VOIDED))
    assert isinstance(r.voiding, CaseVoided)
    assert r.voiding.reason == "entered twice"


def test_the_steps_are_kept_with_the_case_made_once() -> None:
    case = case_in(Stage.ACCOUNT_DUE)
    assert recorded_of(case) is recorded_of(case)
    on = date(2026, 3, 6)
    assert statement(case, TARIFF, on).recorded is recorded_of(case)
    sold = close_sale(
        step(open_case(), report(), notice(), sale(0, 2, rs(30000), AUCTION_FROM)),
        TARIFF,
        on=AUCTION_FROM,
        expenses=rs(0),
        today=AUCTION_FROM,
    )[0]
    assert recorded_of(sold).sold_under == frozenset({"s.13(3)"})
