"""s.14 with s.19: delivery on deposit while a complaint of illegal seizure may be made."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from domain.errors import CorrectionRefusedError, TransitionRefusedError
from domain.events import DeliveredOnDeposit, DepositOutcome, DepositRefunded
from domain.s04_s11_dues import dues_on
from domain.s14_deposit import complaint_last_day, deposit_for, release_on_deposit
from domain.stages import Stage
from tests.unit.case_helpers import (
    REFUSED_ON,
    Allowed,
    Refused,
    _in,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    BROUGHT,
    COMPLAINT_BY,
    IMPOUNDED_ON,
    LATER,
    SEIZED,
    S,
    case_in,
    correct_impounding_day,
    open_case,
    owner_refused,
    rs,
    sale,
    sample_tariff,
    step,
    unsold,
)


def test_s14_the_deposit_is_the_fines_and_charges_and_s19_counts_from_the_seizure() -> None:
    case = open_case(on=BROUGHT, lots=(("cow", 1),), seized_on=SEIZED)
    deposit = deposit_for(case, sample_tariff(), date(2026, 3, 8))
    assert deposit.amount == rs(500) + rs(80) * 3  # fine + 6, 7, 8 March at Rs 80
    assert deposit.amount == deposit.dues.total
    assert deposit.complaint_by == COMPLAINT_BY  # ten days from 5 March, not from 6 March
    assert complaint_last_day(SEIZED, 10) == COMPLAINT_BY


@pytest.mark.parametrize(
    ("day", "accepted"),
    [
        (COMPLAINT_BY - timedelta(1), True),
        (COMPLAINT_BY, True),
        (COMPLAINT_BY + timedelta(1), False),
    ],
    ids=[
        "s.19: a deposit the day before the last day to complain is taken",
        "s.19: a deposit on the last day to complain is taken",
        "s.19: a deposit the day after the last day to complain is refused",
    ],
)
def test_s14_delivery_on_deposit_is_open_while_a_complaint_can_be_made(
    day: date, accepted: bool
) -> None:
    case = open_case(on=BROUGHT, lots=(("cow", 1),), seized_on=SEIZED)
    tariff = sample_tariff()
    if not accepted:
        with pytest.raises(TransitionRefusedError, match="2026-03-15") as caught:
            release_on_deposit(case, tariff, day, today=day)
        assert caught.value.provision == "s.19"
        return
    delivered = release_on_deposit(case, tariff, day, today=day)
    assert delivered.stage is Stage.ON_DEPOSIT
    event = delivered.last(DeliveredOnDeposit)
    assert isinstance(event, DeliveredOnDeposit)
    assert event.deposited == deposit_for(case, tariff, day).amount


def test_s14_charges_stop_when_the_cattle_are_delivered_on_deposit() -> None:
    case = open_case(on=BROUGHT, lots=(("cow", 1),), seized_on=SEIZED)
    tariff = sample_tariff()
    delivered = release_on_deposit(case, tariff, date(2026, 3, 8), today=date(2026, 3, 8))
    assert dues_on(delivered, tariff, date(2026, 3, 30)).total == rs(740)


def test_s19_without_a_separate_seizure_day_the_impounding_day_counts() -> None:
    deposit = deposit_for(open_case(), sample_tariff(), IMPOUNDED_ON)
    assert deposit.complaint_by == date(2026, 3, 11)


# --- s.14 and s.19: the deposit and its outcome as steps of the case ----------------------

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
    Allowed(
        "s.14: an owner who refused may still deposit within the s.19 days",
        _in(S.OWNER_REFUSED),
        DeliveredOnDeposit(on=date(2026, 3, 5), deposited=rs(1500)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after a lot offered and not sold, within the s.19 days",
        lambda: step(open_case(), owner_refused(REFUSED_ON), unsold(0, 1, date(2026, 3, 6))),
        DeliveredOnDeposit(on=date(2026, 3, 7), deposited=rs(1500)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: the owner disputing the seizure takes the cattle on deposit",
        _in(S.IMPOUNDED),
        DeliveredOnDeposit(on=date(2026, 3, 3), deposited=rs(1180)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after the report, within the s.19 days",
        _in(S.REPORTED),
        DeliveredOnDeposit(on=date(2026, 3, 10), deposited=rs(1900)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after the notice, within the s.19 days",
        _in(S.NOTICE_POSTED),
        DeliveredOnDeposit(on=date(2026, 3, 11), deposited=rs(2000)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.19: the deposit returned on a complaint upheld closes the case",
        _in(S.ON_DEPOSIT),
        DepositOutcome(on=date(2026, 4, 1), returned=True, reference="CC 7/2026"),
        S.CLOSED,
    ),
    Allowed(
        "s.19: the refund of a deposit ordered refunded is recorded once paid back",
        lambda: step(
            case_in(S.ON_DEPOSIT),
            DepositOutcome(on=date(2026, 4, 1), returned=True, reference="CC 7/2026"),
        ),
        DepositRefunded(on=date(2026, 4, 3)),
        S.CLOSED,
    ),
    Allowed(
        "s.19: the deposit applied to the dues closes the case",
        _in(S.ON_DEPOSIT),
        DepositOutcome(on=date(2026, 4, 1), returned=False, reference="none filed"),
        S.CLOSED,
    ),
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.14: the impounding day cannot be corrected once the deposit was counted on it",
        _in(S.ON_DEPOSIT),
        correct_impounding_day(date(2026, 2, 28), date(2026, 3, 4)),
        CorrectionRefusedError,
        "s.14",
    ),
    Refused(
        "s.19: a deposit outcome for a case never on deposit is refused",
        _in(S.IMPOUNDED),
        DepositOutcome(on=date(2026, 3, 20), returned=True, reference="x"),
        TransitionRefusedError,
        "s.19",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


def test_a_deposit_after_a_refusal_is_lawful_while_the_ten_days_run_and_nothing_is_sold() -> None:
    """Impounded and seized 1 March: the ten days of s.19 end on 11 March."""
    refused = case_in(S.OWNER_REFUSED)
    assert refused.complaint_by == date(2026, 3, 11)
    assert refused.lawful_today(DeliveredOnDeposit, date(2026, 3, 11))
    assert not refused.lawful_today(DeliveredOnDeposit, date(2026, 3, 12))
    with pytest.raises(TransitionRefusedError) as late:
        refused.apply(DeliveredOnDeposit(on=date(2026, 3, 12), deposited=rs(1)), LATER)
    assert (late.value.provision, late.value.reason) == ("s.19", "complaint_time_over")
    sold = step(refused, sale(0, 1, rs(20000), date(2026, 3, 6)))
    assert not sold.lawful_today(DeliveredOnDeposit, date(2026, 3, 7))
    with pytest.raises(TransitionRefusedError) as after_sale:
        sold.apply(DeliveredOnDeposit(on=date(2026, 3, 7), deposited=rs(1)), LATER)
    assert (after_sale.value.provision, after_sale.value.reason) == ("s.15(1)", "head_sold")
