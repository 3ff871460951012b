"""Feeding lines are counted a rate row at a time; they are the lines a day-by-day count
gives: each day charged at the row in force that day, the days of one amount and source
one after the other on one line."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from domain.money import Money
from domain.s04_s11_dues import _feeding_lines
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff, feeding_days

BASE = date(2026, 1, 1)

rows = st.lists(
    st.tuples(
        st.integers(0, 60), st.sampled_from([0, 100, 5050, 12050]), st.sampled_from(["a", "b"])
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda r: r[0],
)


def day_by_day(tariff: Tariff, heads: int, impounded: date, last: date) -> list[tuple]:  # type: ignore[type-arg]
    """(first day, last day, days, rate, amount, source) of each line, counted a day at a time."""
    lines: list[list] = []  # type: ignore[type-arg]
    for day in feeding_days(impounded, last, tariff.feeding_days) if heads > 0 else []:
        row = tariff.feeding_per_head("cow", day)
        if lines and lines[-1][5] == row.source and lines[-1][3] == row.amount:
            lines[-1][1], lines[-1][2] = day, lines[-1][2] + 1
            lines[-1][4] = lines[-1][4] + row.amount * heads
        else:
            lines.append([day, day, 1, row.amount, row.amount * heads, row.source])
    return [tuple(line) for line in lines]


@given(
    rows,
    st.sampled_from(list(FeedingDays)),
    st.integers(0, 70),
    st.integers(-2, 45),
    st.integers(0, 3),
)
def test_the_lines_are_those_of_a_day_by_day_count(
    table: list[tuple[int, int, str]], policy: FeedingDays, start: int, length: int, heads: int
) -> None:
    rates = RateTable.of(DatedRate(BASE + timedelta(d), Money(p), s) for d, p, s in table)
    tariff = Tariff(fines={}, feeding={"cow": rates}, feeding_days=policy)
    impounded = BASE + timedelta(start)
    last = impounded + timedelta(length)
    try:
        expected = day_by_day(tariff, heads, impounded, last)
    except Exception as exc:  # a day before the first row: refused alike
        refused = type(exc)
        try:
            _feeding_lines(tariff, "cow", heads, impounded, last)
        except refused:
            return
        raise AssertionError("the rate-by-rate count did not refuse a day with no rate") from exc
    found = [
        (x.first_day, x.last_day, x.days, x.rate, x.amount, x.source)
        for x in _feeding_lines(tariff, "cow", heads, impounded, last)
    ]
    assert found == expected
