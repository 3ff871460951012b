"""s.14 with s.19: delivery on deposit while a complaint of illegal seizure may be made."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from domain.errors import TransitionRefusedError
from domain.events import DeliveredOnDeposit
from domain.s04_s11_dues import dues_on
from domain.s14_deposit import complaint_last_day, deposit_for, release_on_deposit
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    BROUGHT,
    COMPLAINT_BY,
    IMPOUNDED_ON,
    SEIZED,
    open_case,
    rs,
    sample_tariff,
)


def test_s14_the_deposit_is_the_fines_and_charges_and_s19_counts_from_the_seizure() -> None:
    case = open_case(on=BROUGHT, lots=(("cow", 1),), seized_on=SEIZED)
    deposit = deposit_for(case, sample_tariff(), date(2026, 3, 8))
    assert deposit.amount == rs(500) + rs(80) * 3  # fine + 6, 7, 8 March at Rs 80
    assert deposit.amount == deposit.dues.total
    assert deposit.complaint_by == COMPLAINT_BY  # ten days from 5 March, not from 6 March
    assert complaint_last_day(SEIZED) == COMPLAINT_BY


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
