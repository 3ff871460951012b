"""s.12: the owner pays the dues of the day and the cattle are released."""

from __future__ import annotations

from datetime import date

import pytest

from domain.events import ClaimedAndPaid
from domain.s04_s11_dues import dues_on
from domain.s12_release import release_on_payment
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    IMPOUNDED_ON,
    MARCH_5,
    MARCH_10,
    SAME_DAY,
    SameDay,
    open_case,
    rs,
    sample_tariff,
)


@pytest.mark.parametrize("row", SAME_DAY, ids=[r.sentence for r in SAME_DAY])
def test_s12_release_on_the_day_of_impounding(row: SameDay) -> None:
    tariff = sample_tariff(row.policy)
    released = release_on_payment(open_case(), tariff, IMPOUNDED_ON, today=IMPOUNDED_ON)
    paid = released.last(ClaimedAndPaid)
    assert isinstance(paid, ClaimedAndPaid)
    assert paid.paid == rs(1000) + row.feeding
    assert dues_on(released, tariff, IMPOUNDED_ON).feeding == row.feeding


def test_s12_release_on_payment_charges_the_dues_of_the_day_and_stops_the_charges() -> None:
    tariff = sample_tariff()
    released = release_on_payment(open_case(), tariff, MARCH_5, today=MARCH_10)  # recorded late
    assert released.stage is Stage.RELEASED
    paid = released.last(ClaimedAndPaid)
    assert isinstance(paid, ClaimedAndPaid)
    assert paid.on == MARCH_5
    assert paid.paid == rs(1600)  # 2 x 500 fine + 2 x 5 days x 60
    assert dues_on(released, tariff, MARCH_5).total == rs(1600)
    assert dues_on(released, tariff, date(2026, 4, 30)).total == rs(1600)
