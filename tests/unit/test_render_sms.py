"""Every owner-facing SMS fits its budget on worst-case data: 2 GSM-7 segments in
English, 3 UCS-2 segments in Malayalam, Tamil and Kannada (``sms_fit.SMS_SEGMENT_BUDGET``).

The worst case (``i18n_tools.worst_case``): the three kinds with the longest names in the
language, 48, 36 and 25 head, every amount over Rs 1,00,000 with paise, September dates,
the longest pound name and market place of ``bot/sample_config.toml``, and case number
``KNMKLM-100234``. The first tests check that the data is that worst case; the others
render every SMS an owner (or anyone who is not staff) can receive, at every stage.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import cache

import pytest

from bot.config import load_config, sample_config_path
from bot.i18n import fmt, translator
from bot.i18n import render as r
from bot.i18n.refusals.parse import PARSE_CODES
from bot.services.public import Outcome, PublicCase, facts_of
from bot.support import errors as app_errors
from bot.support.sms_segments import segments
from domain.calendar import LOCAL_TZ
from domain.kinds import DEFAULT_KINDS
from domain.s04_s11_dues import dues_on
from domain.s13_unclaimed import report_due_on
from domain.s14_deposit import complaint_last_day, deposit_for
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import IN_POUND_STAGES, Stage
from domain.statement import statement
from i18n_tools.sms_budget import owner_sms
from i18n_tools.worst_case import (
    CASE_NUMBER,
    HEADS,
    STARTS,
    Places,
    Stop,
    daily_charge,
    longest_kinds,
    places,
    timeline,
    worst_tariff,
)
from tests.unit.test_render_scenario import ALL, INDIAN

#: The codes ``bot.conversation.commands.ParseError`` raises (the brief of the parser, by name).
PARSE_ERRORS = (
    "empty",
    "too_long",
    "unknown_command",
    "missing_case",
    "bad_count",
    "unknown_kind",
    "missing_place",
    "missing_cattle",
    "owner_of_lots",
    "bad_date",
    "bad_time",
    "unknown_lang",
    "missing_words",
    "bad_amount",
    "bad_paid_amount",
    "missing_buyer",
    "missing_person",
    "phone_not_number",
    "phone_too_short",
    "phone_too_long",
    "phone_bad_country",
    "phone_invalid",
    "phone_not_mobile",
    "phone_two_numbers",
    "missing_reason",
    "unknown_field",
    "missing_order",
    "missing_outcome",
    "missing_reference",
)
#: What a person typed, as long as ``bot.conversation.commands`` lets it through (cut to 20 on
#: echo).
TYPED = {"word": "X" * 40, "text": "9" * 40, "number": "KNMKLM-" + "9" * 33}
SEPTEMBER, JUNE = STARTS
SEP_22 = date(2026, 9, 22)  # s.19: ten days from the seizure on 12 September


def _sample_names() -> tuple[int, int]:
    config = load_config(sample_config_path())
    longest_pound = max(len(p.name) for p in config.pounds.values())
    longest_market = max(len(a.market_place) for a in config.authorities.values())
    return longest_pound, longest_market


# --- the worst case is the worst case ----------------------------------------------------------


@pytest.mark.parametrize("lang", ALL)
def test_the_three_kinds_are_those_with_the_longest_names_in_the_language(lang: str) -> None:
    tr = translator(lang)
    chosen = longest_kinds(tr)
    length = {k: len(r.kind_count(k, HEADS[0], tr)) for k in DEFAULT_KINDS}
    assert len(chosen) == 3
    assert min(length[k] for k in chosen) >= max(
        length[k] for k in DEFAULT_KINDS if k not in chosen
    )


def test_the_cattle_are_48_36_and_25_head() -> None:
    assert HEADS == (48, 36, 25)


@pytest.mark.parametrize("lang", ALL)
def test_fines_and_a_days_feeding_are_each_over_a_lakh_with_paise(lang: str) -> None:
    tr = translator(lang)
    case = timeline(tr, SEPTEMBER, places())["impounded, report ahead"].case
    tariff = worst_tariff(longest_kinds(tr))
    dues = dues_on(case, tariff, SEPTEMBER)
    daily = daily_charge(case, tariff, SEPTEMBER)
    for amount in (dues.fines, daily, dues.total):
        assert amount.paise > 1_00_000_00
        assert amount.paise % 100


def test_the_places_are_the_longest_of_the_sample_configuration() -> None:
    where = places()
    assert (len(where.pound), len(where.place)) == _sample_names()
    assert min(len(where.pound), len(where.place)) > 40


@pytest.mark.parametrize("lang", ALL)
def test_a_september_date_is_as_long_as_any_date_the_language_writes(lang: str) -> None:
    length = {month: len(fmt.date(date(2026, month, 28), lang)) for month in range(1, 13)}
    assert length[9] == max(length.values())


def test_the_statutory_dates_of_the_worst_case_fall_in_september() -> None:
    """s.13(1) report, s.13(3) auction and s.19 complaint from 12 September; the s.16(3)
    three months in deposit of the June timeline end in September too."""
    stops = timeline(translator("en"), SEPTEMBER, places())
    assert SEPTEMBER.month == 9
    assert report_due_on(SEPTEMBER).month == 9
    auction = stops["s.13(3) auction fixed"].case.scheduled_auction
    assert auction is not None
    assert auction.auction_on.month == 9
    assert complaint_last_day(SEPTEMBER, 10).month == 9
    held = timeline(translator("en"), JUNE, places())["in deposit, unclaimed"].case
    assert held.deposited_on is not None
    assert deposit_window_end(held.deposited_on, 3).month == 9


def test_the_case_number_has_a_six_letter_pound_code_and_a_six_digit_number() -> None:
    assert re.fullmatch(r"[A-Z]{6}-\d{6}", CASE_NUMBER)
    assert CASE_NUMBER.startswith("KNMKLM-")


def test_the_parse_errors_are_the_codes_the_parser_raises() -> None:
    assert set(PARSE_ERRORS) == PARSE_CODES


# --- every owner-facing SMS ----------------------------------------------------------------------


def _public(stop: Stop, where: Places) -> PublicCase:
    """The public facts of a worst-case case, as a search or STATUS gets them."""
    return facts_of(stop.case, where.pound)


def _app_errors() -> list[app_errors.AppError]:
    return [getattr(app_errors, name)(**TYPED) for name in app_errors.__all__]


@cache
def owner_messages(lang: str) -> dict[str, str]:
    """Every owner-facing SMS in ``lang`` on the worst-case data, by name."""
    tr = translator(lang)
    where = places()
    out = {"help": r.help_text("public", tr, True)}
    out |= {f"parse {code}": r.parse_error(code, TYPED, tr) for code in PARSE_ERRORS}
    out |= {f"app error {exc.code}": r.app_error(exc, tr) for exc in _app_errors()}
    for start in STARTS:
        month = f"{start:%b}"
        tariff = worst_tariff(longest_kinds(tr))
        stops = timeline(tr, start, where)
        first = stops["impounded, report ahead"].case
        out[f"{month} intake"] = r.intake_sms(
            first,
            dues_on(first, tariff, start),
            daily_charge(first, tariff, start),
            where.pound,
            tr,
        )
        for name in ("s.13(3) auction fixed", "s.15(1) auction fixed"):
            auction = stops[name].case.scheduled_auction
            assert auction is not None
            out[f"{month} auction {name}"] = r.auction_sms(
                first.number, auction.auction_on, auction.place, tr
            )
        for label, day in (
            ("in time", start + timedelta(days=9)),
            ("too late", start + timedelta(11)),
        ):
            deposit = deposit_for(first, tariff, day)
            out[f"{month} deposit {label}"] = r.deposit_reply(deposit, first, tr, sms=True)
        for name, stop in stops.items():
            case, facts = stop.case, _public(stop, where)
            stated = statement(case, tariff, stop.day)
            left = stated if case.stage not in IN_POUND_STAGES else None  # paid, sold, ...
            out[f"{month} dues {name}"] = r.dues_reply(
                dues_on(case, tariff, stop.day), case, tr, sms=True, stated=left
            )
            outcome = Outcome(facts, stop.account)
            out[f"{month} status {name}"] = r.status_reply(outcome, tr, True, stated=stated)
            out[f"{month} status {name}, facts only"] = r.status_reply(outcome, tr, True)
            if stop.account is not None:
                out[f"{month} account {name}"] = r.account_sms(stop.account, tr)
        found = [_public(stops["impounded, report ahead"], where)] * 5
        for n in (0, 1, 5):
            out[f"{month} search {n}"] = r.search_results(found[:n], tr, sms=True)
    out |= {
        "lang set": r.lang_set(tr),
        "stopped": r.stopped(tr),
        "started": r.started(tr),
        "try again later": r.try_again_later(tr),
        "too many messages": r.too_many_messages(datetime(2026, 3, 1, 23, 50, tzinfo=LOCAL_TZ), tr),
    }
    return out


NAMES = list(owner_messages("en"))


def test_the_list_holds_every_owner_facing_sms_the_bot_sends() -> None:
    names = set(NAMES)
    assert "help" in names
    assert {f"parse {code}" for code in PARSE_CODES} <= names
    codes = {getattr(app_errors, name).code for name in app_errors.__all__}
    assert {f"app error {code}" for code in codes} <= names
    for month in ("Sep", "Jun"):
        assert {f"{month} search {n}" for n in (0, 1, 5)} <= names
        for part in ("intake", "deposit in time", "deposit too late"):
            assert f"{month} {part}" in names
        assert any(n.startswith(f"{month} auction ") for n in names)
        assert any(n.startswith(f"{month} account ") for n in names)
    assert {"lang set", "stopped", "started", "try again later"} <= names


@pytest.mark.parametrize("stage", list(Stage), ids=[s.value for s in Stage])
def test_status_and_dues_are_sized_at_every_stage(stage: Stage) -> None:
    stops = timeline(translator("en"), SEPTEMBER, places())
    assert any(stop.case.stage is stage for stop in stops.values())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", ALL)
def test_every_owner_facing_sms_fits_its_budget_on_the_worst_case(lang: str, name: str) -> None:
    text = owner_messages(lang)[name]
    encoding, units, count = segments(text)
    budget = r.SMS_SEGMENT_BUDGET[lang]
    assert count <= budget, f"{units} {encoding} units, {count} segments > {budget}:\n{text}"
    if lang == "en":
        assert encoding == "GSM-7", f"not GSM-7: {text}"


@pytest.mark.parametrize("lang", INDIAN)
def test_the_budget_of_an_indian_language_is_five_ucs2_segments(lang: str) -> None:
    """As many letters as English has in two GSM-7 segments, near enough: the same
    facts take about as many letters in the four languages."""
    assert r.SMS_SEGMENT_BUDGET[lang] == 5
    assert r.fits_sms("അ" * 335, lang)
    assert not r.fits_sms("அ" * 336, lang)


def test_the_budget_of_english_is_two_gsm7_segments() -> None:
    assert r.SMS_SEGMENT_BUDGET["en"] == 2
    assert segments("a" * 306) == ("GSM-7", 306, 2)
    assert not r.fits_sms("a" * 307, "en")


@pytest.mark.parametrize("lang", ALL)
def test_every_sms_of_the_messages_report_fits_its_budget_too(lang: str) -> None:
    """``make messages-report`` sizes the same replies (``i18n_tools.sms_budget``) with the
    domain's refusals as well; none may exceed the budget."""
    budget = r.SMS_SEGMENT_BUDGET[lang]
    over = {
        name: segments(text)
        for name, text in owner_sms(lang).items()
        if segments(text).segment_count > budget
    }
    assert not over


@pytest.mark.parametrize("lang", ALL)
def test_after_the_sale_a_shortened_dues_sms_keeps_the_statutory_next_step(lang: str) -> None:
    """On the worst case the breakdown of the dues gives way to what happens next: the
    s.16(3) last day to claim the deposit, the s.15(4) receipt."""
    tr = translator(lang)
    held = owner_messages(lang)["Sep dues in deposit, unclaimed"]
    due = owner_messages(lang)["Sep dues account due"]
    assert CASE_NUMBER in held
    assert CASE_NUMBER in due
    assert r.cite("s.16(3)", tr) in held
    assert r.cite("s.15(4)", tr) in due


@pytest.mark.parametrize(
    ("name", "wording"),
    [
        ("Sep deposit in time", "to dispute the seizure, deposit"),
        (
            "Sep deposit too late",
            f"the time to complain ended on {fmt.date(date(2026, 9, 22), 'en')}",
        ),
    ],
    ids=["s.19 last day", "s.19 day after"],
)
def test_the_deposit_sms_is_sized_on_the_last_day_to_complain_and_the_day_after(
    name: str, wording: str
) -> None:
    assert wording in owner_messages("en")[name]
