"""The SVG bar charts: what is drawn is the data (values, heights, labels), accessible,
escaped, and with nothing from another site."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date

import pytest

from bot.adapters.export import LedgerLine
from bot.services.charts import STAY_BINS, figures
from bot.web.svg import BarSeries, bar_chart, nice_step
from domain.events import ClaimedAndPaid
from domain.figures import figures_of
from domain.money import Money
from domain.statement import statement
from tests.unit.domain_fixtures import (
    IMPOUNDED_ON,
    REPORT_DUE,
    notice,
    open_case,
    report,
    sample_tariff,
    step,
)

MONTHS = ["Jan", "Feb", "Mar"]


def _chart(mode: str = "stacked") -> ET.Element:
    markup = bar_chart(
        ident="t",
        title="Cattle <impounded> & kept",
        desc="Three months",
        categories=MONTHS,
        series=[BarSeries("cows", (0, 4, 2)), BarSeries("goats", (1, 3, 0))],
        mode=mode,  # type: ignore[arg-type]
        value_title="Head",
    )
    return ET.fromstring(markup)


def _bars(svg: ET.Element) -> list[ET.Element]:
    return svg.findall("./g[@class='bars']/rect")


@pytest.mark.parametrize("mode", ["stacked", "grouped"])
def test_every_bar_carries_its_value_and_says_it_in_its_title(mode: str) -> None:
    svg = _chart(mode)
    bars = _bars(svg)
    values = {
        (b.get("data-series"), b.get("data-category")): int(b.get("data-value", "")) for b in bars
    }
    assert values == {
        ("0", "0"): 0,
        ("0", "1"): 4,
        ("0", "2"): 2,
        ("1", "0"): 1,
        ("1", "1"): 3,
        ("1", "2"): 0,
    }
    titles = sorted(b.findtext("title") or "" for b in bars)
    assert "cows, Feb: 4" in titles
    assert "goats, Jan: 1" in titles


def test_heights_are_proportional_to_the_values_and_stack() -> None:
    bars = _bars(_chart("stacked"))
    feb = [b for b in bars if b.get("data-category") == "1"]
    cows, goats = sorted(feb, key=lambda b: b.get("data-series") or "")
    h_cows, h_goats = float(cows.get("height", "")), float(goats.get("height", ""))
    assert h_cows / h_goats == pytest.approx(4 / 3, rel=1e-3)
    # The goats sit on top of the cows.
    assert float(goats.get("y", "")) + h_goats == pytest.approx(float(cows.get("y", "")), abs=0.02)


def test_the_chart_is_labelled_for_screen_readers_and_escaped() -> None:
    svg = _chart()
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "t-title t-desc"
    assert svg.findtext("title") == "Cattle <impounded> & kept"
    assert svg.findtext("desc") == "Three months"
    legend = [t.text for t in svg.findall("./g[@class='legend']/text")]
    assert legend == ["cows", "goats"]
    axis = [t.text for t in svg.findall("./g[@class='axis category-axis']/text")]
    assert axis == MONTHS
    markup = ET.tostring(svg, encoding="unicode")
    assert "http" not in markup
    assert "<script" not in markup


def test_the_value_axis_goes_in_round_steps_to_the_tallest_bar() -> None:
    assert [nice_step(n) for n in (0, 1, 5, 7, 12, 99, 70000_00)] == [1, 1, 1, 2, 5, 20, 20000_00]
    ticks = [t.text for t in _chart().findall("./g[@class='axis value-axis']/text")]
    assert ticks == ["0", "2", "4", "6", "8", "Head"]  # 4 + 3 in February: 7, up to 8


def test_a_chart_with_no_data_draws_its_axes_and_no_bar_height() -> None:
    svg = ET.fromstring(
        bar_chart(
            ident="e", title="t", desc="d", categories=MONTHS, series=[BarSeries("x", (0, 0, 0))]
        )
    )
    assert {float(b.get("height", "")) for b in _bars(svg)} == {0.0}


def test_a_series_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="2 values, 3 bars"):
        bar_chart(
            ident="x", title="t", desc="d", categories=MONTHS, series=[BarSeries("x", (1, 2))]
        )


def test_the_figures_count_heads_days_money_and_timeliness() -> None:
    sold = step(open_case(lots=(("cow", 2), ("goat", 1))), report(REPORT_DUE), notice())
    paid = step(
        open_case(number="TVM-2"),
        ClaimedAndPaid(on=IMPOUNDED_ON + date.resolution * 3, paid=Money(1)),
    )
    lines = [
        LedgerLine(date(2026, 3, 4), "A", "TVM-2", "fines", 50000, "s.17(1)"),
        LedgerLine(date(2026, 3, 4), "A", "TVM-2", "keeper_feeding", 12000, "s.16(2)"),
        LedgerLine(date(2026, 4, 1), "A", "TVM-1", "surplus_deposit", -700, "s.17(1)"),
        LedgerLine(date(2026, 4, 1), "A", "TVM-1", "fund", 700, "s.17(1)"),
        LedgerLine(date(2025, 4, 1), "A", "TVM-0", "fund", 999, "s.17(1)"),
    ]
    today = date(2026, 3, 20)
    counted = [(c, figures_of(statement(c, sample_tariff(), today))) for c in (sold, paid)]
    out = figures(counted, lines, 2026, today=today)
    heads = {s.key: s.values for s in out.heads_by_kind}
    assert heads["cow"][2] == 4
    assert heads["goat"][2] == 1
    assert out.cases_per_month[2] == 2
    stays = {s.key: s.values for s in out.stays}
    assert len(stays["left"]) == len(STAY_BINS)
    assert stays["left"][0] == 1  # paid on the 4th day: 1-7
    assert stays["still"][2] == 1  # 1 to 20 March: 20 days, 15-21
    money = {s.key: s.values for s in out.money}
    assert list(money) == ["fines", "keeper_feeding", "fund"]  # only money received
    assert money["fines"][2] == 50000
    assert money["fund"][3] == 700
    timely = {s.key: s.values for s in out.timeliness}
    assert timely == {"on_time": (1, 0), "late": (0, 1), "overdue": (0, 0)}


def test_an_empty_chart_draws_its_zero_line_and_no_made_up_scale() -> None:
    svg = bar_chart(
        ident="money",
        title="Money",
        desc="nothing yet",
        categories=["Jan", "Feb"],
        series=[BarSeries("Fines", (0, 0))],
        mode="grouped",
        value_label=lambda paise: f"₹{paise / 100:.2f}",
        unit=100,
    )
    axis = svg.split('class="axis value-axis"')[1].split("</g>")[0]
    assert "₹0.00" in axis
    assert "₹0.01" not in axis
    assert axis.count("<line") == 1


def test_money_steps_in_whole_rupees() -> None:
    svg = bar_chart(
        ident="money",
        title="Money",
        desc="three rupees",
        categories=["Jan"],
        series=[BarSeries("Fines", (300,))],
        mode="grouped",
        value_label=lambda paise: f"₹{paise / 100:g}",
        unit=100,
    )
    axis = svg.split('class="axis value-axis"')[1].split("</g>")[0]
    labels = re.findall(r">₹([0-9.]+)<", axis)
    assert labels
    assert all(float(v).is_integer() for v in labels), labels


def _labels(categories: list[str]) -> list[ET.Element]:
    markup = bar_chart(
        ident="m",
        title="t",
        desc="d",
        categories=categories,
        series=[BarSeries("cows", tuple(range(len(categories))))],
    )
    return ET.fromstring(markup).findall("./g[@class='axis category-axis']/text")


def test_short_category_labels_stand_on_one_line() -> None:
    labels = _labels([f"M{n}" for n in range(12)])
    assert len({label.get("y") for label in labels}) == 1


def test_long_category_labels_alternate_on_two_lines_so_none_overlaps() -> None:
    months = "ಜನವರಿ ಫೆಬ್ರವರಿ ಮಾರ್ಚ್ ಏಪ್ರಿಲ್ ಮೇ ಜೂನ್ ಜುಲೈ ಆಗಸ್ಟ್ ಸೆಪ್ಟೆಂಬರ್ ಅಕ್ಟೋಬರ್ ನವೆಂಬರ್ ಡಿಸೆಂಬರ್"
    labels = _labels(months.split())
    assert [label.text for label in labels] == months.split()
    rows = [float(label.get("y") or 0) for label in labels]
    assert rows[0::2] == [rows[0]] * 6
    assert rows[1::2] == [rows[1]] * 6
    assert rows[1] > rows[0]
