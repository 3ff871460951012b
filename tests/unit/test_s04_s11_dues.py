"""What an owner owes: fines per head (s.11), feeding per head per day (s.4, s.12), the
s.14 deposit and the s.19 day, line by line and to the paisa.

The sample tariff (tests/unit/domain_fixtures.py): cow fine Rs 500 (Rs 750 from
1 April 2026), cow feeding Rs 60 a day (Rs 80 from 6 March 2026); goat fine Rs 100,
goat feeding Rs 25.50 a day (Rs 30.25 from 6 March 2026).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from domain.case import Case
from domain.errors import RateNotInForceError, UnknownKindError
from domain.money import Money
from domain.s04_s11_dues import DuesItem, DuesLine, dues_on
from domain.s12_release import release_on_payment
from domain.stages import Stage
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    FEEDING_CHANGE_ON,
    FINE_CHANGE_ON,
    IMPOUNDED_ON,
    MARCH_5,
    MARCH_10,
    SOURCE_FEEDING_2020,
    SOURCE_FEEDING_2026,
    SOURCE_FINES_2020,
    case_in,
    flat_tariff,
    open_case,
    owner_refused,
    rs,
    sale,
    sample_tariff,
    step,
)

COWS_AND_GOATS = (("cow", 2), ("goat", 3))


def test_s11_and_s4_the_dues_of_two_cows_and_three_goats_line_by_line() -> None:
    """Impounded 1 March, asked 10 March: ten days, five at the old rates, five at the new."""
    dues = dues_on(open_case(lots=COWS_AND_GOATS), sample_tariff(), MARCH_10)
    old, new = SOURCE_FEEDING_2020, SOURCE_FEEDING_2026
    fine, feed = DuesItem.FINE, DuesItem.FEEDING
    assert dues.lines == (
        DuesLine(fine, "cow", 2, 1, rs(500), rs(1000), "s.11", SOURCE_FINES_2020),
        DuesLine(feed, "cow", 2, 5, rs(60), rs(600), "s.4", old, IMPOUNDED_ON, MARCH_5),
        DuesLine(feed, "cow", 2, 5, rs(80), rs(800), "s.4", new, FEEDING_CHANGE_ON, MARCH_10),
        DuesLine(fine, "goat", 3, 1, rs(100), rs(300), "s.11", SOURCE_FINES_2020),
        DuesLine(feed, "goat", 3, 5, rs("25.50"), rs("382.50"), "s.4", old, IMPOUNDED_ON, MARCH_5),
        DuesLine(
            feed, "goat", 3, 5, rs("30.25"), rs("453.75"), "s.4", new, FEEDING_CHANGE_ON, MARCH_10
        ),
    )
    assert dues.fines == rs(1300)
    assert dues.feeding == rs("2236.25")
    assert dues.sale_expenses == Money(0)
    assert dues.total == rs("3536.25")
    assert dues.on == MARCH_10


def test_s4_from_the_day_after_the_day_of_impounding_is_not_charged() -> None:
    tariff = sample_tariff(FeedingDays.FROM_DAY_AFTER)
    dues = dues_on(open_case(lots=COWS_AND_GOATS), tariff, MARCH_10)
    feeding = [
        (line.kind, line.days, line.amount) for line in dues.lines if line.item is DuesItem.FEEDING
    ]
    assert feeding == [
        ("cow", 4, rs(480)),
        ("cow", 5, rs(800)),
        ("goat", 4, rs(306)),
        ("goat", 5, rs("453.75")),
    ]
    assert dues.lines[1].first_day == date(2026, 3, 2)
    assert dues.total == rs("3339.75")


@dataclass(frozen=True)
class FineScale:
    sentence: str
    impounded: date
    fine_per_cow: Money


FINE_SCALE = [
    FineScale(
        "s.11: impounded the day before the new scale, fined on the old scale",
        FINE_CHANGE_ON - timedelta(1),
        rs(500),
    ),
    FineScale(
        "s.11: impounded the day the new scale applies, fined on the new scale",
        FINE_CHANGE_ON,
        rs(750),
    ),
    FineScale(
        "s.11: impounded the day after the new scale, fined on the new scale",
        FINE_CHANGE_ON + timedelta(1),
        rs(750),
    ),
]


@pytest.mark.parametrize("row", FINE_SCALE, ids=[r.sentence for r in FINE_SCALE])
def test_s11_the_fine_is_on_the_scale_in_force_on_the_day_of_impounding(row: FineScale) -> None:
    case = open_case(on=row.impounded)
    asked_on = FINE_CHANGE_ON + timedelta(10)  # long after the new scale
    dues = dues_on(case, sample_tariff(), asked_on)
    assert dues.fines == row.fine_per_cow * 2
    fine_line = dues.lines[0]
    assert (fine_line.heads, fine_line.rate, fine_line.provision) == (2, row.fine_per_cow, "s.11")


@pytest.mark.parametrize(
    ("asked_on", "feeding"),
    [
        (FEEDING_CHANGE_ON - timedelta(1), rs(600)),  # 1-5 March at Rs 60
        (FEEDING_CHANGE_ON, rs(760)),  # + 6 March at Rs 80
        (FEEDING_CHANGE_ON + timedelta(1), rs(920)),  # + 7 March at Rs 80
    ],
    ids=[
        "s.4: the day before the new feeding rate, every day at the old rate",
        "s.4: the day the new feeding rate applies, that day at the new rate",
        "s.4: the day after the new feeding rate, two days at the new rate",
    ],
)
def test_s4_each_day_is_charged_at_the_rate_in_force_that_day(
    asked_on: date, feeding: Money
) -> None:
    assert dues_on(open_case(), sample_tariff(), asked_on).feeding == feeding


def test_s4_dues_never_count_feeding_before_the_impounding() -> None:
    dues = dues_on(open_case(), sample_tariff(), IMPOUNDED_ON - timedelta(1))
    assert dues.feeding == Money(0)


# --- heads that leave the pound stop being charged ----------------------------------------


def _one_of_two_cows_sold_on_6_march() -> Case:
    return step(
        open_case(), owner_refused(date(2026, 3, 4)), sale(0, 1, rs(20000), date(2026, 3, 6))
    )


def test_s4_a_head_sold_is_charged_up_to_and_including_the_day_it_is_sold() -> None:
    dues = dues_on(_one_of_two_cows_sold_on_6_march(), sample_tariff(), MARCH_10)
    feeding = [
        (line.heads, line.days, line.amount, line.last_day)
        for line in dues.lines
        if line.item is DuesItem.FEEDING
    ]
    assert feeding == [
        (1, 5, rs(300), MARCH_5),
        (1, 1, rs(80), date(2026, 3, 6)),  # the sold cow: its last day is the day of sale
        (1, 5, rs(300), MARCH_5),
        (1, 5, rs(400), MARCH_10),  # the cow still in the pound
    ]
    assert dues.total == rs(1000) + rs(1080)


def test_s4_from_the_day_after_a_sale_only_the_heads_left_are_charged() -> None:
    case = _one_of_two_cows_sold_on_6_march()
    tariff = sample_tariff()
    day_before, day_of, day_after = (date(2026, 3, d) for d in (5, 6, 7))
    assert dues_on(case, tariff, day_of).total - dues_on(case, tariff, day_before).total == rs(160)
    assert dues_on(case, tariff, day_after).total - dues_on(case, tariff, day_of).total == rs(80)


def test_s15_2_the_expenses_of_sale_are_owed_once_the_sale_is_closed() -> None:
    case = case_in(Stage.IN_DEPOSIT)  # closed 18 March with Rs 500 expenses
    tariff = sample_tariff()
    assert dues_on(case, tariff, AUCTION_FROM - timedelta(1)).sale_expenses == Money(0)
    dues = dues_on(case, tariff, AUCTION_FROM)
    assert dues.sale_expenses == rs(500)
    assert dues.lines[-1].provision == "s.15(2)"
    # and nothing accrues after the sale: every head has gone
    assert dues_on(case, tariff, date(2026, 5, 1)).total == dues.total


# --- a rate must be in force -------------------------------------------------------------


def test_a_fine_before_the_first_row_of_the_scale_is_an_error_never_zero() -> None:
    tariff = flat_tariff(rs(500), rs(60), applies_from=date(2026, 3, 5))
    with pytest.raises(RateNotInForceError):
        dues_on(open_case(), tariff, MARCH_10)


def test_a_feeding_day_before_the_first_rate_is_an_error_never_zero() -> None:
    fines = {"cow": RateTable.of([DatedRate(date(2020, 1, 1), rs(500), "scale")])}
    feeding = {"cow": RateTable.of([DatedRate(date(2026, 3, 3), rs(60), "resolution")])}
    tariff = Tariff(fines=fines, feeding=feeding)
    with pytest.raises(RateNotInForceError):
        dues_on(open_case(), tariff, MARCH_10)
    with pytest.raises(RateNotInForceError):
        release_on_payment(open_case(), tariff, MARCH_10, today=MARCH_10)


def test_a_kind_the_tariff_does_not_rate_is_an_unknown_kind_citing_s11() -> None:
    cows_only = Tariff(
        fines={"cow": RateTable.of([DatedRate(date(2020, 1, 1), rs(500), "scale")])},
        feeding={"cow": RateTable.of([DatedRate(date(2020, 1, 1), rs(60), "resolution")])},
    )
    with pytest.raises(UnknownKindError) as caught:
        dues_on(open_case(lots=COWS_AND_GOATS), cows_only, MARCH_10)
    assert caught.value.provision == "s.11"


# --- s.14 deposit and the s.19 day ---------------------------------------------------------
