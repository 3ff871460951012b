"""Digits that are digits to ``str.isdigit`` but no number to ``int`` (superscripts,
circled digits) are refused as a bad count, never raise: a keeper's SMS or a Telegram
button carrying one gets the translated answer, not "could not process"."""

from __future__ import annotations

from datetime import date

import pytest

from bot.config import load_config, sample_config_path
from bot.conversation.commands import ParseError, parse, parse_count

CONFIG = load_config(sample_config_path())


@pytest.mark.parametrize("text", ["²", "³", "①", "⁹⁹", "2²"])
def test_a_digit_that_is_no_number_is_a_bad_count(text: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_count(text)
    assert refused.value.code == "bad_count"


@pytest.mark.parametrize("text", ["2", "൨", "௨", "೨", "٢"])  # Latin, ml, ta, kn, Arabic-Indic
def test_decimal_digits_of_any_script_are_counts(text: str) -> None:
    assert parse_count(text) == 2


@pytest.mark.parametrize(
    "line",
    ["SEIZE ² cow AT Kunnamangalam market", "SOLD KNM-1 ² 1000", "UNSOLD KNM-1 ①"],
)
def test_a_command_with_such_a_digit_is_refused_by_the_parser(line: str) -> None:
    with pytest.raises(ParseError):
        parse(line, CONFIG, date(2026, 3, 1))
