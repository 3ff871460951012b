"""Dated rates (s.4 feeding, s.11 fines), the days charged, and the kinds of cattle (s.2(1))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from domain.errors import DomainError, RateNotInForceError, UnknownKindError
from domain.kinds import DEFAULT_KINDS, Kind, Kinds
from domain.money import Money
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff, feeding_days
from tests.unit.domain_fixtures import (
    FEEDING_CHANGE_ON,
    FINE_CHANGE_ON,
    RATES_FROM,
    SOURCE_FEEDING_2020,
    SOURCE_FEEDING_2026,
    SOURCE_FINES_2020,
    SOURCE_FINES_2026,
    rs,
    sample_tariff,
)

FIRST = date(2026, 1, 1)
SECOND = date(2026, 4, 1)
TABLE = RateTable.of(
    [
        DatedRate(SECOND, rs(80), "resolution 2"),
        DatedRate(FIRST, rs(60), "resolution 1"),
    ]
)


@dataclass(frozen=True)
class RowOnCase:
    sentence: str
    day: date
    amount: Money | None  # None: no rate in force


ROW_ON_CASES = [
    RowOnCase(
        "s.4: the day before the first rate no rate is in force (never zero)",
        FIRST - timedelta(1),
        None,
    ),
    RowOnCase("s.4: the first rate applies from its own day", FIRST, rs(60)),
    RowOnCase("s.4: the day after the first rate it still applies", FIRST + timedelta(1), rs(60)),
    RowOnCase(
        "s.4: the day before a new rate the old one is in force", SECOND - timedelta(1), rs(60)
    ),
    RowOnCase("s.4: a new rate applies from its own day", SECOND, rs(80)),
    RowOnCase("s.4: the day after a new rate it applies", SECOND + timedelta(1), rs(80)),
    RowOnCase("s.4: the latest rate stays in force years later", date(2040, 1, 1), rs(80)),
]


@pytest.mark.parametrize("case", ROW_ON_CASES, ids=[c.sentence for c in ROW_ON_CASES])
def test_the_rate_used_for_a_day_is_the_one_in_force_that_day(case: RowOnCase) -> None:
    if case.amount is None:
        with pytest.raises(RateNotInForceError):
            TABLE.row_on(case.day)
    else:
        assert TABLE.row_on(case.day).amount == case.amount


def test_a_rate_table_keeps_its_rows_in_date_order_whatever_order_they_came_in() -> None:
    assert [r.applies_from for r in TABLE.rows] == [FIRST, SECOND]


def test_a_rate_not_in_force_is_a_domain_error_and_not_zero() -> None:
    with pytest.raises(RateNotInForceError, match="2026-01-01") as caught:
        TABLE.row_on(date(2025, 12, 31))
    assert isinstance(caught.value, DomainError)


@pytest.mark.parametrize(
    "rows",
    [
        [],
        [DatedRate(FIRST, rs(60), "a"), DatedRate(FIRST, rs(70), "b")],
        [DatedRate(FIRST, Money(-1), "a")],
    ],
    ids=["an empty table", "two rows from the same day", "a negative rate"],
)
def test_a_rate_table_that_cannot_stand_is_refused(rows: list[DatedRate]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each has its own message
        RateTable.of(rows)


def test_a_zero_rate_is_allowed_when_the_authority_charges_nothing() -> None:
    assert RateTable.of([DatedRate(FIRST, Money(0), "waived")]).row_on(FIRST).amount == Money(0)


@dataclass(frozen=True)
class FineCase:
    sentence: str
    kind: str
    day: date
    amount: Money
    source: str


FINE_CASES = [
    FineCase(
        "s.11: a cow the day before the new scale, old fine",
        "cow",
        FINE_CHANGE_ON - timedelta(1),
        rs(500),
        SOURCE_FINES_2020,
    ),
    FineCase(
        "s.11: a cow on the day of the new scale, new fine",
        "cow",
        FINE_CHANGE_ON,
        rs(750),
        SOURCE_FINES_2026,
    ),
    FineCase(
        "s.11: a cow the day after the new scale, new fine",
        "cow",
        FINE_CHANGE_ON + timedelta(1),
        rs(750),
        SOURCE_FINES_2026,
    ),
    FineCase(
        "s.11: a calf is fined at the young rate",
        "calf",
        FINE_CHANGE_ON,
        rs(375),
        SOURCE_FINES_2026,
    ),
    FineCase(
        "s.11: a goat is fined at the small-animal rate",
        "goat",
        RATES_FROM,
        rs(100),
        SOURCE_FINES_2020,
    ),
]


@pytest.mark.parametrize("case", FINE_CASES, ids=[c.sentence for c in FINE_CASES])
def test_the_fine_per_head_is_by_kind_on_the_scale_in_force(case: FineCase) -> None:
    row = sample_tariff().fine_per_head(case.kind, case.day)
    assert (row.amount, row.source) == (case.amount, case.source)


@pytest.mark.parametrize(
    ("day", "amount", "source"),
    [
        (FEEDING_CHANGE_ON - timedelta(1), rs("25.50"), SOURCE_FEEDING_2020),
        (FEEDING_CHANGE_ON, rs("30.25"), SOURCE_FEEDING_2026),
        (FEEDING_CHANGE_ON + timedelta(1), rs("30.25"), SOURCE_FEEDING_2026),
    ],
    ids=[
        "s.4: a goat's feeding the day before the change, old rate",
        "s.4: a goat's feeding on the day of the change, new rate",
        "s.4: a goat's feeding the day after the change, new rate",
    ],
)
def test_the_feeding_charge_per_head_per_day_is_the_rate_in_force(
    day: date, amount: Money, source: str
) -> None:
    row = sample_tariff().feeding_per_head("goat", day)
    assert (row.amount, row.source) == (amount, source)


def test_s11_a_kind_with_no_fine_in_the_tariff_is_an_unknown_kind_citing_s11() -> None:
    tariff = Tariff(fines={}, feeding={})
    with pytest.raises(UnknownKindError) as caught:
        tariff.fine_per_head("cow", FIRST)
    assert caught.value.provision == "s.11"


def test_s4_a_kind_with_no_feeding_rate_in_the_tariff_is_an_unknown_kind_citing_s4() -> None:
    tariff = Tariff(fines={}, feeding={})
    with pytest.raises(UnknownKindError) as caught:
        tariff.feeding_per_head("cow", FIRST)
    assert caught.value.provision == "s.4"


def test_the_default_policy_charges_the_day_of_impounding_and_the_day_of_release() -> None:
    assert Tariff(fines={}, feeding={}).feeding_days is FeedingDays.BOTH_INCLUDED


@dataclass(frozen=True)
class DaysCase:
    sentence: str
    impounded: date
    until: date
    policy: FeedingDays
    days: list[date]


D1, D2, D3 = date(2026, 3, 1), date(2026, 3, 2), date(2026, 3, 3)
DAYS_CASES = [
    DaysCase(
        "s.4 both included: impounded and released the same day is one day",
        D1,
        D1,
        FeedingDays.BOTH_INCLUDED,
        [D1],
    ),
    DaysCase(
        "s.4 both included: 1 to 3 March is three days",
        D1,
        D3,
        FeedingDays.BOTH_INCLUDED,
        [D1, D2, D3],
    ),
    DaysCase(
        "s.4 from the day after: released the same day is no day",
        D1,
        D1,
        FeedingDays.FROM_DAY_AFTER,
        [],
    ),
    DaysCase(
        "s.4 from the day after: 1 to 3 March is two days",
        D1,
        D3,
        FeedingDays.FROM_DAY_AFTER,
        [D2, D3],
    ),
    DaysCase("s.4: a day before impounding charges nothing", D2, D1, FeedingDays.BOTH_INCLUDED, []),
    DaysCase(
        "s.4 from the day after: a day before impounding charges nothing",
        D2,
        D1,
        FeedingDays.FROM_DAY_AFTER,
        [],
    ),
]


@pytest.mark.parametrize("case", DAYS_CASES, ids=[c.sentence for c in DAYS_CASES])
def test_the_days_charged_for_feeding_follow_the_stated_policy(case: DaysCase) -> None:
    assert feeding_days(case.impounded, case.until, case.policy) == case.days


def test_feeding_days_across_a_month_end_in_a_leap_year() -> None:
    days = feeding_days(date(2028, 2, 28), date(2028, 3, 1))
    assert days == [date(2028, 2, 28), date(2028, 2, 29), date(2028, 3, 1)]


# --- kinds of cattle (s.2(1)) -----------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "cow",
        "ox",
        "bull",
        "buffalo",
        "horse",
        "pony",
        "colt",
        "mule",
        "ass",
        "pig",
        "sheep",
        "lamb",
        "goat",
        "kid",
        "camel",
        "elephant",
    ],
)
def test_s2_1_the_default_kinds_include_each_animal_the_definition_names(code: str) -> None:
    assert DEFAULT_KINDS[code].code == code


def test_s2_1_an_animal_not_listed_is_an_unknown_kind_citing_s2_1() -> None:
    with pytest.raises(UnknownKindError) as caught:
        DEFAULT_KINDS["unicorn"]
    assert caught.value.provision == "s.2(1)"
    assert str(caught.value) == "not a kind of cattle here: unicorn"


def test_s2_1_asking_whether_a_kind_is_listed_answers_rather_than_raising() -> None:
    assert "cow" in DEFAULT_KINDS
    assert "unicorn" not in DEFAULT_KINDS
    assert DEFAULT_KINDS.get("unicorn") is None


def test_the_young_of_a_kind_name_their_adult_kind() -> None:
    assert DEFAULT_KINDS["calf"].adult == "cow"
    assert DEFAULT_KINDS["kid"].adult == "goat"
    assert all(
        DEFAULT_KINDS[k].adult in DEFAULT_KINDS for k in DEFAULT_KINDS if DEFAULT_KINDS[k].adult
    )


def test_a_kind_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        Kinds([Kind("cow", "cow"), Kind("cow", "pasu")])


def test_a_young_kind_whose_adult_is_not_listed_is_refused() -> None:
    with pytest.raises(ValueError, match="adult"):
        Kinds([Kind("calf", "calf", adult="cow")])


def test_the_sample_tariff_rates_every_default_kind() -> None:
    tariff = sample_tariff()
    for kind in DEFAULT_KINDS:
        assert tariff.fine_per_head(kind, RATES_FROM).amount > Money(0)
        assert tariff.feeding_per_head(kind, RATES_FROM).amount > Money(0)
