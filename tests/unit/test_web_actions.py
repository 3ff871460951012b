"""The web desk's forms read their fields as the chat words read them
(bot.conversation.commands)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.config import load_config, sample_config_path
from bot.conversation.commands import ParseError, parse
from bot.web.actions import build_command
from domain.money import Money


@pytest.mark.parametrize("written", ["300", "₹300", "Rs300", "rs.300", "300.00", "3,00"])
def test_an_amount_on_a_form_reads_as_in_a_settle_by_sms(written: str) -> None:
    form = build_command("settle", "KNM-1", {"amount": written}, "en")
    assert form.expenses == Money.rupees("300")
    config = load_config(sample_config_path())
    by_sms = parse(f"SETTLE KNM-1 {written}", config, date(2026, 3, 20))
    assert by_sms.expenses == form.expenses


def test_a_form_field_may_have_a_space_after_rs() -> None:
    form = build_command("settle", "KNM-1", {"amount": "Rs 300"}, "en")
    assert form.expenses == Money.rupees("300")


@pytest.mark.parametrize(("written", "code"), [("-5", "bad_amount"), ("abc", "bad_amount")])
def test_a_bad_amount_on_a_form_is_refused_as_by_sms(written: str, code: str) -> None:
    with pytest.raises(ParseError) as refused:
        build_command("settle", "KNM-1", {"amount": written}, "en")
    assert refused.value.code == code


def test_a_long_bad_field_is_echoed_short() -> None:
    with pytest.raises(ParseError) as refused:
        build_command("settle", "KNM-1", {"amount": "x" * 500}, "en")
    assert len(str(refused.value.facts["text"])) <= 20
