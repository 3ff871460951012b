"""The configuration file: the packaged sample loads, every fault is found on its line,
and ``poundbot config check`` reports them."""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from pathlib import Path

import pytest

from bot.config import (
    LANGUAGES,
    Config,
    ConfigError,
    Fault,
    SenderLimits,
    load_config,
    parse_config,
    sample_config_path,
)
from bot.config.names import local
from bot.entry.cli import main
from domain.errors import RateNotInForceError
from domain.money import Money
from domain.s04_s11_dues import DuesItem
from domain.tariff import FeedingDays

SAMPLE = sample_config_path().read_text(encoding="utf-8")

#: The kinds s.2(1) names that the sample must cover.
S_2_1_KINDS = {
    "cow",
    "ox",
    "bull",
    "calf",
    "buffalo",
    "buffalo_calf",
    "goat",
    "kid",
    "sheep",
    "lamb",
    "pig",
    "horse",
    "pony",
    "ass",
    "mule",
    "camel",
    "elephant",
}


@pytest.fixture(scope="module")
def sample() -> Config:
    return parse_config(SAMPLE, "sample_config.toml")


def edited(old: str, new: str) -> str:
    """The sample with the first ``old`` replaced by ``new``."""
    assert old in SAMPLE, old
    return SAMPLE.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first line (not a comment) that contains ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line and not line.lstrip().startswith("#"):
            return number
    raise AssertionError(f"not in the text: {needle}")


def faults_of(text: str) -> list[Fault]:
    with pytest.raises(ConfigError) as raised:
        parse_config(text)
    return raised.value.faults


# -- the sample ------------------------------------------------------------------------


def test_the_sample_loads_with_the_kunnamangalam_pound_knm(sample: Config) -> None:
    pound = sample.pounds["KNM"]
    assert pound.authority == "KNM-GP"
    assert pound.languages == ("ml", "en")
    authority = sample.authority_of("KNM")
    assert authority.name == "Kunnamangalam Grama Panchayat"
    assert authority.district == "Kozhikode"
    assert "Kunnamangalam" in authority.office_address


def test_the_sample_covers_every_kind_s_2_1_names(sample: Config) -> None:
    assert set(sample.kinds) >= S_2_1_KINDS
    assert sample.kinds["calf"].adult == "cow"


@pytest.mark.parametrize("pound", ["KNM", "PTM", "ENM", "VTV"])
def test_every_pound_has_an_s_11_fine_and_an_s_4_feeding_rate_for_every_kind(
    sample: Config, pound: str
) -> None:
    tariff = sample.tariffs[pound]
    for kind in sample.kinds:
        for day in (date(2024, 4, 1), date(2025, 6, 1)):
            assert tariff.fine_per_head(kind, day).amount > Money(0)
            assert tariff.feeding_per_head(kind, day).amount > Money(0)


@pytest.mark.parametrize(
    ("day", "rupees"),
    [
        pytest.param(date(2025, 3, 31), "500", id="s.11 the day before the revision"),
        pytest.param(date(2025, 4, 1), "750", id="s.11 the day of the revision"),
        pytest.param(date(2025, 4, 2), "750", id="s.11 the day after the revision"),
    ],
)
def test_a_revised_fine_applies_from_the_day_of_its_row(
    sample: Config, day: date, rupees: str
) -> None:
    assert sample.tariffs["KNM"].fine_per_head("cow", day).amount == Money.rupees(rupees)


def test_a_rate_asked_for_a_day_before_its_first_row_is_not_in_force(sample: Config) -> None:
    with pytest.raises(RateNotInForceError):
        sample.tariffs["KNM"].feeding_per_head("cow", date(2024, 3, 31))
    with pytest.raises(RateNotInForceError):
        sample.tariffs["ENM"].fine_per_head("goat", date(2024, 3, 31))


def test_pounds_of_an_authority_share_its_tariff_unless_they_name_their_own(
    sample: Config,
) -> None:
    assert sample.tariffs["KNM"] is sample.tariffs["PTM"]
    assert sample.tariffs["ENM"] is not sample.tariffs["KNM"]
    assert sample.pounds["ENM"].tariff == "ENM"
    assert sample.tariffs["KNM"].feeding_days is FeedingDays.BOTH_INCLUDED
    assert sample.tariffs["ENM"].feeding_days is FeedingDays.FROM_DAY_AFTER


def test_every_amount_of_the_sample_says_it_is_a_sample(sample: Config) -> None:
    for tariff in sample.tariffs.values():
        for tables in (tariff.fines, tariff.feeding):
            for table in tables.values():
                assert all("SAMPLE" in row.source for row in table.rows)


def test_the_sample_has_notices_in_every_language(sample: Config) -> None:
    used = {lang for pound in sample.pounds.values() for lang in pound.languages}
    assert used == set(LANGUAGES)
    assert sample.pounds["ENM"].languages == ("ml", "kn", "en")
    assert sample.pounds["VTV"].languages == ("ml", "ta", "en")


def test_the_sample_policy_and_reminder_settings(sample: Config) -> None:
    assert sample.feeding_days is FeedingDays.BOTH_INCLUDED
    assert sample.deduction_order == (DuesItem.SALE_EXPENSES, DuesItem.FEEDING, DuesItem.FINE)
    reminders = sample.reminders
    assert str(reminders.timezone) == "Asia/Kolkata"
    assert reminders.reminder_time == time(8, 0)
    assert reminders.sms_per_second == 1


def test_telephone_numbers_are_read_in_india_unless_another_region_is_configured() -> None:
    assert parse_config(SAMPLE).phone_region == "IN"
    assert parse_config(edited('phone_region = "IN"\n', "")).phone_region == "IN"
    assert parse_config(edited('phone_region = "IN"', 'phone_region = "lk"')).phone_region == "LK"


def test_the_sample_limits_per_sender(sample: Config) -> None:
    limits = sample.limits
    assert limits.window == timedelta(minutes=10)
    assert [limits.allowance(role) for role in ("public", "keeper", "officer", "admin")] == [
        10,
        60,
        60,
        60,
    ]


def test_without_a_limits_section_the_defaults_apply() -> None:
    start = SAMPLE.index("[limits]")
    end = SAMPLE.index("answers_per_number_per_day = 30", start) + len(
        "answers_per_number_per_day = 30"
    )
    config = parse_config(SAMPLE[:start] + SAMPLE[end:])
    assert config.limits == SenderLimits()
    partial = parse_config(SAMPLE.replace("public = 10", "public = 3"))
    assert (partial.limits.public, partial.limits.keeper) == (3, 60)


def test_the_sample_states_the_s15_2_and_s18_policies(sample: Config) -> None:
    knm = sample.authorities["KNM-GP"]
    assert knm.expected_sale_expenses == Money.rupees(500)
    assert knm.members == ("Jameela Beevi", "Mohanan Pillai")
    assert sample.authorities["ENM-GP"].expected_sale_expenses == Money.zero()
    assert sample.barred_buyers == ("police_officer", "officer", "member", "pound_keeper")
    # Without the key, the four classes of s.18 as publicly known are barred.
    unsaid = parse_config(
        edited('barred_buyers = ["police_officer", "officer", "member", "pound_keeper"]\n', "")
    )
    assert unsaid.barred_buyers == ("police_officer", "officer", "member", "pound_keeper")


def test_the_sample_names_the_office_that_may_order_another_disposal_s13_3_proviso(
    sample: Config,
) -> None:
    (office,) = sample.proviso_offices
    assert office.code == "DIRECTOR"
    assert str(office.name) == "Director of Animal Husbandry"
    assert local(office.name, "ta") == "கால்நடைப் பராமரிப்புத் துறை இயக்குநர்"
    assert local(office.short, "ta") == "கால்நடைத் துறை இயக்குநர்"
    # A language whose name fits has the name as its short form; each fits 30.
    assert all(len(local(office.short, lang)) <= 30 for lang in LANGUAGES)
    for said in ("DIRECTOR", "director", "Director of Animal Husbandry", "മൃഗസംരക്ഷണ ഡയറക്ടർ"):
        assert sample.proviso_office(said) == office, said
    for said in ("Deputy Director of Panchayats", "Secretary for the Director", "Director AH"):
        assert sample.proviso_office(said) is None, said


def test_without_proviso_offices_the_director_as_the_act_names_it_orders_it() -> None:
    start = SAMPLE.index("[[proviso_offices]]")
    end = SAMPLE.index("\n\n", start)
    config = parse_config(SAMPLE[:start] + SAMPLE[end:])
    (office,) = config.proviso_offices
    assert (office.code, str(office.name), local(office.name, "ml")) == (
        "DIRECTOR",
        "Director",
        "ഡയറക്ടർ",
    )
    assert config.proviso_office("ഡയറക്ടർ") == office


def test_a_short_form_per_language_covers_each_language_of_the_name() -> None:
    text = edited(
        'short = { en = "Director of Animal Husbandry", ml = "മൃഗസംരക്ഷണ ഡയറക്ടർ", ',
        'short = { en = "Director of Animal Husbandry", ',
    )
    assert any(
        f.message == "proviso office DIRECTOR: short has no ml form, as name has"
        and f.line == line_of(text, "short = {")
        for f in faults_of(text)
    ), faults_of(text)


def test_two_offices_cannot_share_a_name_or_a_code() -> None:
    start = SAMPLE.index("[[proviso_offices]]")
    end = SAMPLE.index("\n\n", start)
    other = '\n[[proviso_offices]]\ncode = "DAH"\nname = "Director of Animal Husbandry"\n'
    text = SAMPLE[:end] + other + SAMPLE[end:]
    assert any(
        "proviso office DAH: 'Director of Animal Husbandry' names office DIRECTOR too" in f.message
        for f in faults_of(text)
    ), faults_of(text)


@pytest.mark.parametrize(
    ("at", "night"),
    [
        (time(20, 59), False),
        (time(21, 0), True),
        (time(0, 0), True),
        (time(7, 59, 59), True),
        (time(8, 0), False),
    ],
)
def test_the_night_hours_run_from_their_start_up_to_their_end(
    sample: Config, at: time, night: bool
) -> None:
    assert sample.reminders.is_night(at) is night


@pytest.mark.parametrize(
    ("lang", "word", "kind"),
    [
        ("en", "COWS", "cow"),
        ("en", " Buffalo   calf ", "buffalo_calf"),
        ("ml", "പശു", "cow"),
        ("ml", "പശുക്കള്\u200d", "cow"),  # the chillu typed the old way
        ("ml", "കാള", "bull"),
        ("ta", "எருமை", "buffalo"),
        ("kn", "ಆನೆ", "elephant"),
        ("en", "cattle", None),
        ("kn", "cow", None),
    ],
)
def test_a_word_of_an_sms_names_a_kind_in_its_language(
    sample: Config, lang: str, word: str, kind: str | None
) -> None:
    assert sample.kind_for_word(lang, word) == kind


def test_the_loaded_configuration_cannot_be_changed(sample: Config) -> None:
    with pytest.raises(TypeError):
        sample.pounds["XYZ"] = sample.pounds["KNM"]  # type: ignore[index]


# -- faults ------------------------------------------------------------------------------

KNM_ELEPHANT_FEEDING = (
    'elephant = [{ from = 2024-04-01, rupees = "1500", source = "SAMPLE figure, not law: '
    'replace from the Kunnamangalam GP s.4 resolution" }]\n'
)

FAULTS = [
    ("a TOML syntax error", "sms_per_second = 1", "sms_per_second = = 1", None, "TOML syntax"),
    ("a missing key", 'district = "Kozhikode"\n', "", "[[authorities]]", "missing key 'district'"),
    (
        "a misspelt key",
        'village = { en = "Kunnamangalam"',
        'vilage = { en = "Kunnamangalam"',
        None,
        "authority KNM-GP: unknown key 'vilage' (did you mean 'village'?)",
    ),
    ("a misspelt table", "[policy]", "[polcy]", None, "unknown key 'polcy' (did you mean"),
    ("a pound code twice", 'code = "PTM"', 'code = "KNM" # 2', "# 2", "pound KNM is listed twice"),
    ("an authority code twice", 'code = "ENM-GP"', 'code = "KNM-GP" # 2', "# 2", "listed twice"),
    ("a kind code twice", 'code = "goat"', 'code = "cow" # 2', "# 2", "kind cow is listed twice"),
    ("a pound code with a digit", 'code = "VTV"', 'code = "VTV1"', None, "2 to 6 upper-case"),
    ("a pound code in lower case", 'code = "VTV"', 'code = "vtv"', None, "2 to 6 upper-case"),
    (
        "a pound of an unknown authority",
        'authority = "VTV-GP"',
        'authority = "VTV-PG"',
        None,
        "pound VTV: unknown authority",
    ),
    (
        "s.11 a fine for an unknown kind",
        'camel = [{ from = 2024-04-01, rupees = "1000"',
        'camels = [{ from = 2024-04-01, rupees = "1000"',
        None,
        "tariff KNM-GP: fines: 'camels' is not a listed kind",
    ),
    (
        "s.4 a kind with no feeding rate",
        KNM_ELEPHANT_FEEDING,
        "",
        "[tariffs.KNM-GP.feeding]",
        "tariff KNM-GP: feeding: no rate for kind 'elephant'",
    ),
    (
        "s.11 a fine as a float",
        'rupees = "250", source',
        "rupees = 250.0, source",
        None,
        "fines.calf row 1: rupees: 250.0 is a float",
    ),
    (
        "s.4 a negative rate",
        '"120.50"',
        '"-120.50"',
        None,
        "feeding.cow row 2: rupees: '-120.50' is negative",
    ),
    ("s.4 a rate with three decimals", '"120.50"', '"120.505"', None, "more than two decimals"),
    ("s.11 an amount that is no number", '"120.50"', '"Rs 120"', None, "is not an amount"),
    (
        "s.11 two rows from the same day",
        'from = 2025-04-01, rupees = "750"',
        'from = 2024-04-01, rupees = "750"',
        None,
        "tariff KNM-GP: fines.cow: two rows from 2024-04-01",
    ),
    (
        "s.11 a date written as text",
        'from = 2024-04-01, rupees = "600"',
        'from = "2024-04-01", rupees = "600"',
        None,
        "fines.bull row 1: from: '2024-04-01' is not a date",
    ),
    (
        "s.13(2) a notice language not known",
        '["ml", "kn", "en"]',
        '["ml", "kan", "en"]',
        None,
        "pound ENM: languages: 'kan' is not one of",
    ),
    ("s.13(2) a notice language twice", '["ml", "kn", "en"]', '["ml", "kn", "ml"]', None, "twice"),
    ("words in an unknown language", 'words.kn = ["ಹಸು"', 'words.kx = ["ಹಸು"', None, "'kx' is not"),
    (
        "an unknown default language",
        'default_language = "ml"',
        'default_language = "fr"',
        None,
        "'fr'",
    ),
    (
        "an unknown kind of authority",
        'kind = "grama_panchayat"',
        'kind = "gp"',
        None,
        "'gp' is not",
    ),
    (
        "s.4 an unknown way of counting feeding days",
        'feeding_days = "both_included"',
        'feeding_days = "all_days"',
        None,
        "[policy]: feeding_days: 'all_days' is not one of",
    ),
    (
        "an unknown region for telephone numbers",
        'phone_region = "IN"',
        'phone_region = "XX"',
        None,
        "[policy]: phone_region must be a two-letter region code",
    ),
    (
        "s.15(2) an unknown head of dues",
        '["sale_expenses", "feeding", "fine"]',
        '["sale_expenses", "feeding", "fines"]',
        None,
        "deduction_order must list each of",
    ),
    (
        "s.15(2) a head of dues left out",
        '["sale_expenses", "feeding", "fine"]',
        '["sale_expenses", "feeding"]',
        None,
        "deduction_order must list each of",
    ),
    (
        "a time without its leading zero",
        'reminder_time = "08:00"',
        'reminder_time = "8:00"',
        None,
        "'8:00'",
    ),
    (
        "a night hour of 60 minutes",
        '"21:00"',
        '"21:60"',
        None,
        "night_hours: '21:60' is not a time",
    ),
    (
        "an unknown time zone",
        'timezone = "Asia/Kolkata"',
        'timezone = "India/Kerala"',
        None,
        "zone",
    ),
    ("no SMS at all per second", "sms_per_second = 1", "sms_per_second = 0", None, "above 0"),
    (
        "a word for two kinds in one language",
        'words.ml = ["കാള",',
        'words.ml = ["പശു", "കാള",',
        None,
        "the ml word 'പശു' names both cow and bull",
    ),
    (
        "an adult kind not listed",
        'adult = "cow"',
        'adult = "cattle"',
        None,
        "adult 'cattle' is not",
    ),
    (
        "a pound naming a missing tariff",
        'tariff = "ENM"',
        'tariff = "ENMX"',
        None,
        "[tariffs.ENMX]",
    ),
    ("a tariff no pound applies", 'tariff = "ENM"', 'tariff = "ENMX"', "[tariffs.ENM]", "no pound"),
    ("no answers at all for the public", "public = 10", "public = 0", None, "from 1 up"),
    ("a window of half a minute", "window_minutes = 10", "window_minutes = 0.5", None, "whole"),
    (
        "a misspelt limit",
        "keeper = 60",
        "keepers = 60",
        None,
        "[limits]: unknown key 'keepers' (did you mean 'keeper'?)",
    ),
    (
        "s.18 a barred class poundbot cannot name",
        'barred_buyers = ["police_officer", "officer", "member", "pound_keeper"]',
        'barred_buyers = ["police_officer", "auctioneer"]',
        None,
        "'auctioneer' is not one of",
    ),
    (
        "s.18 a member with no name",
        'members = ["Jameela Beevi", "Mohanan Pillai"]',
        'members = ["Jameela Beevi", ""]',
        None,
        "a name must be non-empty text",
    ),
    (
        "s.13(3) proviso an office's short form longer than an SMS variable",
        'ta = "கால்நடைத் துறை இயக்குநர்"',
        'ta = "கால்நடைப் பராமரிப்புத் துறை இயக்குநர்"',
        "short = {",
        "proviso office DIRECTOR: the ta short form 'கால்நடைப் பராமரிப்புத் துறை இயக்குநர்' "
        "is 37 characters; an SMS variable holds 30",
    ),
    (
        "s.13(3) proviso an office's long name with no short form",
        'short = { en = "Director of Animal Husbandry", ml = "മൃഗസംരക്ഷണ ഡയറക്ടർ", ta = '
        '"கால்நடைத் துறை இயக்குநர்", kn = "ಪಶುಸಂಗೋಪನಾ ನಿರ್ದೇಶಕರು" }\n',
        "",
        'name = { en = "Director of Animal Husbandry"',
        "proviso office DIRECTOR: the ta name 'கால்நடைப் பராமரிப்புத் துறை இயக்குநர்' is 37 "
        "characters; an SMS variable holds 30: give a short form",
    ),
    (
        "s.13(3) proviso an office's code in lower case",
        'code = "DIRECTOR"',
        'code = "director"',
        None,
        "proviso office director: code: 'director' must be 2 to 24 upper-case letters",
    ),
    (
        "s.13(3) proviso the words of [policy] proviso_deciders",
        'phone_region = "IN"\n',
        'phone_region = "IN"\nproviso_deciders = ["Director"]\n',
        "proviso_deciders",
        "[policy]: proviso_deciders is no longer read: name the office that may order "
        "another disposal (s.13(3) proviso) in [[proviso_offices]]",
    ),
    (
        "s.15(2) expected expenses that are not rupees",
        'expected_sale_expenses = "500"',
        'expected_sale_expenses = "five hundred"',
        None,
        "is not an amount",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "at", "message"), [pytest.param(*case[1:], id=case[0]) for case in FAULTS]
)
def test_each_fault_is_found_on_its_line(old: str, new: str, at: str | None, message: str) -> None:
    text = edited(old, new)
    line = line_of(text, at or new.strip())
    faults = faults_of(text)
    assert any(f.line == line and message in f.message for f in faults), faults


def test_every_fault_is_reported_not_only_the_first() -> None:
    text = SAMPLE
    for old, new in [
        ('reminder_time = "08:00"', 'reminder_time = "8am"'),
        ('village = { en = "Kunnamangalam"', 'vilage = { en = "Kunnamangalam"'),
        ('"120.50"', "120.5"),
        ('["ml", "kn", "en"]', '["ml", "kx", "en"]'),
    ]:
        text = text.replace(old, new, 1)
    lines = [f.line for f in faults_of(text)]
    assert lines == sorted(lines)
    expected = ['"8am"', "vilage =", "120.5", '"kx"']
    assert {line_of(text, needle) for needle in expected} <= set(lines)


def test_a_fault_names_the_file_and_line_in_its_error_text() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(edited('"120.50"', "120.5"), "poundbot.toml")
    assert str(raised.value).startswith("poundbot.toml:")
    assert raised.value.name == "poundbot.toml"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            'name = { en = "Kunnamangalam Grama Panchayat", ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }\n',
            'name = """Kunnamangalam Grama\n[[pounds]] "Panchayat" # \\""""\n',
            id="a multi-line string",
        ),
        pytest.param(
            'name = { en = "Kunnamangalam Grama Panchayat", ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }\n',
            "\"name\" = 'Kunnamangalam \\ [x] Grama Panchayat'\n",
            id="a quoted key and a literal string",
        ),
        pytest.param(
            "cow = [\n",
            "cow = [  # a comment with ] and } in it\n",
            id="a comment inside an array",
        ),
        pytest.param(
            '{ from = 2024-04-01, rupees = "500", source = "SAMPLE figure',
            '{ "from" = 2024-04-01, \'rupees\' = "500", source = "SAMPLE ] } # figure',
            id="quoted keys and brackets in an inline table",
        ),
    ],
)
def test_lines_are_found_past_strings_comments_and_quoted_keys(old: str, new: str) -> None:
    text = edited(old, new).replace('"120.50"', "120.5", 1)
    faults = faults_of(text)
    assert [f.line for f in faults] == [line_of(text, "120.5")], faults


def test_a_file_that_is_not_utf_8_is_a_fault_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "poundbot.toml"
    path.write_bytes(b'[reminders]\ntimezone = "Asia/Kolkata"\nreminder_time = "\xff"\n')
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert raised.value.faults == [Fault(3, "not UTF-8 text")]


# -- poundbot config check -------------------------------------------------------------


def test_config_check_says_ok_for_the_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    path.write_text(SAMPLE, encoding="utf-8")
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        f"{path}: OK (3 authorities, 4 pounds, 18 kinds)",
        f"{path}: DLT off ([dlt] entity_id not set): SMS are sent without a template id",
    ]
    # Then the Act of each authority, and what to confirm of it (test_config_acts.py).
    assert out[2].startswith(f"{path}: KNM-GP: Act kerala-1961 (")
    assert all(line.startswith(f"{path}: ") for line in out)


def test_config_init_writes_the_sample_to_edit_and_never_over_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "etc" / "poundbot.toml"
    assert main(["config", "init", str(path)]) == 1  # no folder yet
    assert "no folder" in capsys.readouterr().err
    path.parent.mkdir()
    assert main(["config", "init", str(path)]) == 0
    assert f"wrote {path}" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == SAMPLE
    assert main(["config", "check", str(path)]) == 0
    capsys.readouterr()
    path.write_text("# edited\n" + SAMPLE, encoding="utf-8")
    assert main(["config", "init", str(path)]) == 1
    assert "exists" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8").startswith("# edited")


def test_serve_reads_the_configuration_named_by_its_config_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[pounds\n", encoding="utf-8")
    # Another file in the environment: --config wins (and the variable is put back after).
    monkeypatch.setenv("POUNDBOT_CONFIG", str(tmp_path / "other.toml"))
    assert main(["serve", "--config", str(broken)]) == 2  # refused: the file named is read
    assert f"the configuration {broken} is not valid" in caplog.text


def test_config_check_fails_while_dlt_template_kinds_have_no_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.support.dlt import registry

    templates = registry()
    given = sorted(t.name for t in templates if t.lang == "en")
    ids = "\n".join(f'{name} = "{1207 + i}"' for i, name in enumerate(given))
    text = edited("[dlt]\n", '[dlt]\nentity_id = "1201160000000000000"\n').replace(
        "[dlt.templates]\n", f"[dlt.templates]\n{ids}\n"
    )
    path = tmp_path / "poundbot.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["config", "check", str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        f"{path}: DLT entity 1201160000000000000: {len(given)} of {len(templates)} SMS "
        "templates (ml, en, ta, kn) have an approved id"
    )
    assert lines[1].startswith(f"{path}: DLT: {len(templates) - len(given)} SMS templates ")


def test_dlt_is_read_with_its_entity_limit_and_template_ids(sample: Config) -> None:
    assert not sample.dlt.enforced
    config = parse_config(
        edited("[dlt]\n", '[dlt]\nentity_id = "1201"\nslot_limit = 40\n').replace(
            "[dlt.templates]\n", '[dlt.templates]\ncase-due-on-14cc71.ml = "1207"\n'
        )
    )
    assert config.dlt.entity_id == "1201"
    assert config.dlt.slot_limit == 40
    assert dict(config.dlt.template_ids) == {"case-due-on-14cc71.ml": "1207"}
    # The short forms of the offices (s.13(3) proviso) fit the variables of the portal.
    narrow = edited("[dlt]\n", "[dlt]\nslot_limit = 20\n")
    assert any(
        "the ta short form 'கால்நடைத் துறை இயக்குநர்' is 24 characters; an SMS variable "
        "holds 20" in f.message
        for f in faults_of(narrow)
    )


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("[dlt]\n", "[dlt]\nentity_id = 1201\n", "entity_id must be the digits of the id"),
        ("[dlt]\n", "[dlt]\nslot_limit = 0\n", "slot_limit must be a whole number"),
        ("[dlt]\n", "[dlt]\nsender = 1\n", "unknown key 'sender'"),
        ("[dlt.templates]\n", '[dlt.templates]\nx.fr = "1"\n', "unknown key 'fr'"),
        ("[dlt.templates]\n", '[dlt.templates]\nx.ml = "T1"\n', "x.ml must be the digits"),
    ],
    ids=["entity not text", "limit 0", "unknown key", "unknown language", "bad id"],
)
def test_a_bad_dlt_setting_is_a_fault(old: str, new: str, fault: str) -> None:
    faults = faults_of(edited(old, new))
    assert any(fault in f.message for f in faults), faults


def test_config_check_prints_each_fault_on_its_line_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    text = edited('"120.50"', "120.5").replace('reminder_time = "08:00"', 'reminder_time = "8"')
    path.write_text(text, encoding="utf-8")
    assert main(["config", "check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{path}:{line_of(text, 'reminder_time')}: [reminders]: reminder_time: '8' is not a "
        'time "HH:MM" (24-hour)',
        f"{path}:{line_of(text, '120.5')}: tariff KNM-GP: feeding.cow row 2: rupees: 120.5 is a "
        'float; write money as text: "120.5"',
    ]


def test_config_check_fails_for_a_file_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missing.toml"
    assert main(["config", "check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert re.fullmatch(rf"{re.escape(str(path))}: cannot read: .+\n", err)


def test_whatsapp_templates_are_read_per_kind_and_language(sample: Config) -> None:
    assert sample.whatsapp_templates == {}
    sid = "HX" + "ab" * 16
    config = parse_config(
        SAMPLE.replace(
            "# owner_impounded.ml = ", f'owner_impounded.ml = "{sid}"\n# owner_impounded.ml = '
        )
    )
    assert config.whatsapp_templates == {"owner_impounded": {"ml": sid}}


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        ('owner_impounded.ml = "HX12"', "must be a Content SID: HX and 32 hex digits"),
        (f'owner_impounded.fr = "HX{"0" * 32}"', "unknown key 'fr'"),
        (f'owner_impounded_x.ml = "HX{"0" * 32}"', "unknown key 'owner_impounded_x'"),
    ],
    ids=["bad SID", "unknown language", "unknown kind"],
)
def test_a_bad_whatsapp_template_is_a_fault_on_its_line(line: str, fault: str) -> None:
    text = SAMPLE.replace("# owner_impounded.ml = ", f"{line}\n# owner_impounded.ml = ")
    faults = faults_of(text)
    assert any(fault in f.message for f in faults), faults
    assert all(f.line == text.splitlines().index(line) + 1 for f in faults)
