"""The web desk's forms read their fields as the chat words read them
(bot.conversation.commands)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from bot.config import load_config, sample_config_path
from bot.conversation.commands import ParseError, parse
from bot.support.caller import OFFICER, Caller
from bot.web.actions import build_command, forms_for
from domain.money import Money
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961, KERALA_1961_AMENDED, Profile
from domain.stages import Stage
from tests.unit.domain_fixtures import case_in

TODAY = date(2026, 3, 20)


@pytest.mark.parametrize("written", ["300", "₹300", "Rs300", "rs.300", "300.00", "3,00"])
def test_an_amount_on_a_form_reads_as_in_a_settle_by_sms(written: str) -> None:
    form = build_command("settle", "KNM-1", {"amount": written}, "en", TODAY)
    assert form.expenses == Money.rupees("300")
    config = load_config(sample_config_path())
    by_sms = parse(f"SETTLE KNM-1 {written}", config, date(2026, 3, 20))
    assert by_sms.expenses == form.expenses


def test_a_form_field_may_have_a_space_after_rs() -> None:
    form = build_command("settle", "KNM-1", {"amount": "Rs 300"}, "en", TODAY)
    assert form.expenses == Money.rupees("300")


@pytest.mark.parametrize(("written", "code"), [("-5", "bad_amount"), ("abc", "bad_amount")])
def test_a_bad_amount_on_a_form_is_refused_as_by_sms(written: str, code: str) -> None:
    with pytest.raises(ParseError) as refused:
        build_command("settle", "KNM-1", {"amount": written}, "en", TODAY)
    assert refused.value.code == code


def test_a_long_bad_field_is_echoed_short() -> None:
    with pytest.raises(ParseError) as refused:
        build_command("settle", "KNM-1", {"amount": "x" * 500}, "en", TODAY)
    assert len(str(refused.value.facts["text"])) <= 20


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("20-03-2026", date(2026, 3, 20)),
        ("20/3/2026", date(2026, 3, 20)),
        ("20.03.2026", date(2026, 3, 20)),
        ("5-3-26", date(2026, 3, 5)),
        ("2026-03-20", date(2026, 3, 20)),  # what a browser's date field sends
    ],
)
def test_a_day_is_read_as_dd_mm_yyyy_as_the_chat_reads_it(written: str, day: date) -> None:
    order = build_command("paid", "KNM-1", {"on": written}, "en", TODAY)
    assert order.on == day  # type: ignore[attr-defined]


@pytest.mark.parametrize("written", ["31-02-2026", "20-13-2026", "tomorrow", "2026/03/20"])
def test_an_impossible_or_unreadable_day_is_refused_as_the_chat_refuses_it(written: str) -> None:
    with pytest.raises(ParseError) as refused:
        build_command("paid", "KNM-1", {"on": written}, "en", TODAY)
    assert refused.value.code == "bad_date"


@pytest.mark.parametrize(
    ("act", "offered"),
    [(KERALA_1961, True), (KERALA_1961_AMENDED, True), (CATTLE_TRESPASS_1871, False)],
    ids=lambda v: v.key if isinstance(v, Profile) else str(v),
)
def test_the_desk_offers_the_refused_account_only_under_an_act_that_has_it(
    act: Profile, offered: bool
) -> None:
    """The desk's steps are those ``Case.lawful_today`` allows: under the 1871 Act, which
    has no counterpart of Kerala's s.15(5), the account can only be delivered."""
    due = case_in(Stage.ACCOUNT_DUE)
    due = replace(due, seizure=replace(due.seizure, act=act.key))
    officer = Caller(role=OFFICER, channel="web", authority="KNM-GP")
    steps = {form.command for form in forms_for(officer, due, date(2026, 3, 7))}
    assert "receipt" in steps
    assert ("account_refused" in steps) is offered
