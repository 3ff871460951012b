"""s.13(3) proviso: the offices that may order another disposal (``[[proviso_offices]]``)
are each an office of the Acts (``office``; the Director when left out), poundbot
supplies the office an Act in use gives the power to where no table names it, and a
case's offices are those of the office its Act names, with what a s.31 notification
transfers."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, Fault, parse_config, sample_config_path
from bot.config.model import (
    DEFAULT_PROVISO_OFFICES,
    PROVISO_DEFAULTS,
    PROVISO_HOLDERS,
    ProvisoOffice,
)
from bot.config.names import Name
from bot.entry.cli import main
from bot.support.dlt import DEFAULT_SLOT_LIMIT
from domain.profiles import PROFILES, Office, Power

SAMPLE = sample_config_path().read_text(encoding="utf-8")
#: The last line of the sample's first authority (KNM-GP): its [[authorities.acts]].
KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'
#: The sample's office, the Director's: its first line.
DIRECTOR_CODE = 'code = "DIRECTOR"\n'

#: KNM-GP applies the amended Kerala Act from 1 June 2026, the 1871 Act from 1 January
#: 2027, and from 1 January 2028 the 1871 Act with the power to order another disposal
#: transferred to it by a s.31 notification.
THREE_CHANGES = """
[[authorities.acts]]
act = "kerala-1961-amended"
from = 2026-06-01

[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2027-01-01

[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2028-01-01
transferred = ["order_disposal", "sell"]
notification = "G.O.(P) No. 3/2028/LSGD"
"""

#: The District Magistrate of Kozhikode, as an operator would name the office.
DM_TABLE = """
[[proviso_offices]]
code = "DM-KKD"
name = { en = "District Magistrate, Kozhikode", ml = "ജില്ലാ മജിസ്ട്രേറ്റ്, കോഴിക്കോട്" }
short = { en = "District Magistrate, Kozhikode", ml = "ജില്ലാ മജിസ്ട്രേറ്റ്" }
office = "district_magistrate"
"""


def with_acts(acts: str, text: str = SAMPLE) -> str:
    """``text`` with ``acts`` written under its authority KNM-GP."""
    assert KNM_GP_END in text
    return text.replace(KNM_GP_END, KNM_GP_END + acts, 1)


def without_offices(text: str = SAMPLE) -> str:
    """``text`` without its [[proviso_offices]] table."""
    start = text.index("[[proviso_offices]]")
    return text[:start] + text[text.index("\n\n", start) :]


def with_office(key: str, text: str = SAMPLE) -> str:
    """``text`` with ``key`` (a line) written in its Director's table."""
    assert DIRECTOR_CODE in text
    return text.replace(DIRECTOR_CODE, DIRECTOR_CODE + key + "\n", 1)


def faults_of(text: str) -> list[Fault]:
    with pytest.raises(ConfigError) as raised:
        parse_config(text)
    return raised.value.faults


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first line (not a comment) that contains ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line and not line.lstrip().startswith("#"):
            return number
    raise AssertionError(f"not in the text: {needle}")


def offices(config: Config) -> list[tuple[str, Office]]:
    return [(office.code, office.office) for office in config.proviso_offices]


@pytest.fixture(scope="module")
def changed() -> Config:
    return parse_config(with_acts(THREE_CHANGES), "poundbot.toml")


# -- the key -------------------------------------------------------------------------------


def test_a_table_without_office_is_the_directors_as_every_earlier_file_means() -> None:
    sample = parse_config(SAMPLE)
    (office,) = sample.proviso_offices
    assert office.office is Office.DIRECTOR
    assert office.code == "DIRECTOR"
    assert parse_config(with_office('office = "director"')).proviso_offices == (office,)


@pytest.mark.parametrize("office", list(PROVISO_HOLDERS))
def test_office_names_which_office_of_the_acts_the_table_is(office: Office) -> None:
    table = (
        f'\n[[proviso_offices]]\ncode = "THE-OFFICE"\nname = "The office"\n'
        f'office = "{office.value}"\n'
    )
    config = parse_config(without_offices() + table)
    assert ("THE-OFFICE", office) in offices(config)


def test_the_offices_a_table_may_name_are_those_the_acts_give_the_power_to() -> None:
    assert PROVISO_HOLDERS == (
        Office.DIRECTOR,
        Office.LOCAL_AUTHORITY,
        Office.DISTRICT_MAGISTRATE,
    )
    assert set(PROVISO_DEFAULTS) == set(PROVISO_HOLDERS)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            '"collector"',
            "proviso office DIRECTOR: office: 'collector' is not an office: one of "
            '"director", "local_authority", "district_magistrate"',
        ),
        (
            '"secretary"',
            "proviso office DIRECTOR: office: 'secretary' may not order another disposal "
            'under any Act poundbot applies (s.13(3) proviso): one of "director", '
            '"local_authority", "district_magistrate"',
        ),
        (
            '"pound_keeper"',
            "proviso office DIRECTOR: office: 'pound_keeper' may not order another disposal",
        ),
        ("3", "proviso office DIRECTOR: office: 3 is not an office"),
    ],
)
def test_a_bad_office_is_a_fault_on_its_line(value: str, message: str) -> None:
    text = with_office(f"office = {value}")
    (fault,) = faults_of(text)
    assert fault.line == line_of(text, "office = ")
    assert fault.message.startswith(message), fault.message


# -- the offices poundbot supplies ------------------------------------------------------


def test_without_the_table_the_director_as_the_act_names_it() -> None:
    config = parse_config(without_offices())
    assert config.proviso_offices == DEFAULT_PROVISO_OFFICES
    assert config.proviso_offices[0] is PROVISO_DEFAULTS[Office.DIRECTOR]


def test_an_office_an_act_in_use_needs_and_no_table_names_is_supplied(changed: Config) -> None:
    assert offices(changed) == [
        ("DIRECTOR", Office.DIRECTOR),  # the sample's table
        ("LOCAL-AUTHORITY", Office.LOCAL_AUTHORITY),  # amended; 1871 with order_disposal
        ("DM", Office.DISTRICT_MAGISTRATE),  # 1871
    ]
    assert changed.proviso_offices[1:] == (
        PROVISO_DEFAULTS[Office.LOCAL_AUTHORITY],
        PROVISO_DEFAULTS[Office.DISTRICT_MAGISTRATE],
    )


def test_only_the_offices_the_acts_in_use_need_are_supplied() -> None:
    transferred = """
[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2026-01-01
transferred = ["order_disposal"]
notification = "G.O.(P) No. 1/2026"
"""
    # The Kerala Act before 2026 (the Director's, configured), then the local authority's.
    assert offices(parse_config(with_acts(transferred))) == [
        ("DIRECTOR", Office.DIRECTOR),
        ("LOCAL-AUTHORITY", Office.LOCAL_AUTHORITY),
    ]
    central = '\n[[authorities.acts]]\nact = "cattle-trespass-1871"\nfrom = 2026-01-01\n'
    assert offices(parse_config(without_offices(with_acts(central)))) == [
        ("DIRECTOR", Office.DIRECTOR),
        ("DM", Office.DISTRICT_MAGISTRATE),
    ]


def test_a_table_that_names_the_office_replaces_poundbots() -> None:
    config = parse_config(with_acts(THREE_CHANGES, SAMPLE + DM_TABLE))
    assert offices(config) == [
        ("DIRECTOR", Office.DIRECTOR),
        ("DM-KKD", Office.DISTRICT_MAGISTRATE),
        ("LOCAL-AUTHORITY", Office.LOCAL_AUTHORITY),
    ]
    # A table of the District Magistrate alone: the Director is still needed, supplied.
    only = parse_config(without_offices() + DM_TABLE)
    assert offices(only) == [("DM-KKD", Office.DISTRICT_MAGISTRATE), ("DIRECTOR", Office.DIRECTOR)]


def test_a_table_written_as_a_supplied_office_is_a_fault_on_its_line() -> None:
    text = with_acts(THREE_CHANGES).replace(DIRECTOR_CODE, 'code = "DM"\n', 1)
    (fault,) = faults_of(text)
    assert fault.line == line_of(text, "[[proviso_offices]]")  # the table's
    assert fault.message == (
        "proviso office DM: 'DM' also names District Magistrate (code DM), poundbot's "
        "office for an Act in use: write DM otherwise, or name that office in "
        '[[proviso_offices]] (office = "district_magistrate")'
    )
    # Not needed by an Act in use, poundbot's DM is not supplied: no fault.
    assert offices(parse_config(SAMPLE.replace(DIRECTOR_CODE, 'code = "DM"\n', 1))) == [
        ("DM", Office.DIRECTOR)
    ]


def test_a_slot_limit_shorter_than_a_supplied_short_form_is_a_fault_on_its_line() -> None:
    text = without_offices(with_acts(THREE_CHANGES)).replace(
        "# slot_limit = 30", "slot_limit = 18", 1
    )
    (fault,) = faults_of(text)
    assert fault.line == line_of(text, "slot_limit = 18")
    assert fault.message.startswith(
        "[dlt]: slot_limit is 18 characters; the ml short form 'ജില്ലാ മജിസ്ട്രേറ്റ്' of "
        "District Magistrate (code DM), poundbot's office for an Act in use, is 20: "
    ), fault.message


def test_the_supplied_offices_read_back_as_tables_each_form_one_sms_variable() -> None:
    """Each office poundbot supplies passes the checks of a table: its code, and its
    short form in each language at most one SMS variable (30 characters)."""
    for office in PROVISO_DEFAULTS.values():
        assert isinstance(office.name, Name)
        assert isinstance(office.short, Name)
        assert set(office.name.forms) == set(office.short.forms) == {"ml", "ta", "kn"}
        for form in (str(office.short), *office.short.forms.values()):
            assert len(form) <= DEFAULT_SLOT_LIMIT, form
        table = (
            f'\n[[proviso_offices]]\ncode = "{office.code}"\n'
            f'office = "{office.office.value}"\n'
            f"name = {{ en = {str(office.name)!r}, "
            + ", ".join(f'{lang} = "{form}"' for lang, form in office.name.forms.items())
            + f" }}\nshort = {{ en = {str(office.short)!r}, "
            + ", ".join(f'{lang} = "{form}"' for lang, form in office.short.forms.items())
            + " }\n"
        ).replace("'", '"')
        text = without_offices() + table
        read = next(o for o in parse_config(text).proviso_offices if o.code == office.code)
        assert read == office
        assert dict(read.short.forms) == dict(office.short.forms)  # type: ignore[attr-defined]


def test_the_supplied_offices_are_written_each_its_own_way() -> None:
    seen: dict[str, str] = {}
    for office in PROVISO_DEFAULTS.values():
        for form in office.spellings():
            assert seen.setdefault(form.casefold(), office.code) == office.code, form


# -- the offices of a case ---------------------------------------------------------------


def codes(found: tuple[ProvisoOffice, ...]) -> list[str]:
    return [office.code for office in found]


@pytest.mark.parametrize(
    ("act", "day", "expected"),
    [
        ("kerala-1961", date(2026, 3, 1), ["DIRECTOR"]),
        ("kerala-1961-amended", date(2026, 7, 1), ["LOCAL-AUTHORITY"]),
        ("cattle-trespass-1871", date(2027, 3, 1), ["DM"]),
        # A s.31 notification transfers the power to the local authority.
        ("cattle-trespass-1871", date(2028, 3, 1), ["LOCAL-AUTHORITY"]),
    ],
)
def test_a_cases_offices_are_those_of_the_office_its_act_gives_the_power_to(
    changed: Config, act: str, day: date, expected: list[str]
) -> None:
    assert codes(changed.proviso_offices_for("KNM-GP", act, day)) == expected
    held = PROFILES[act].office_for(
        Power.ORDER_DISPOSAL, changed.authorities["KNM-GP"].act_on(day).transferred
    )
    assert changed.disposal_office("KNM-GP", act, day) is held


def test_a_case_keeps_the_act_of_its_impounding_day(changed: Config) -> None:
    # Impounded under the Kerala Act in 2026, the case is the Director's, whatever the
    # authority applies on the day of the order.
    assert codes(changed.proviso_offices_for("KNM-GP", "kerala-1961", date(2026, 3, 1))) == [
        "DIRECTOR"
    ]
    # Another authority, without [[authorities.acts]]: the Kerala Act as enacted.
    assert codes(changed.proviso_offices_for("ENM-GP", "kerala-1961", date(2028, 3, 1))) == [
        "DIRECTOR"
    ]
    # A case's Act that is not the entry's of its day (the file rewritten since): the
    # Act's own office, nothing transferred.
    assert codes(
        changed.proviso_offices_for("ENM-GP", "cattle-trespass-1871", date(2028, 3, 1))
    ) == ["DM"]


def test_a_configuration_built_without_the_reader_still_has_an_office_for_each_act() -> None:
    """A Config built by hand (``_replace``) with only the Director: poundbot's office
    for the others."""
    sample = parse_config(SAMPLE)
    acts = with_acts(THREE_CHANGES)
    authority = parse_config(acts).authorities["KNM-GP"]
    config = sample._replace(authorities={**sample.authorities, "KNM-GP": authority})
    assert codes(
        config.proviso_offices_for("KNM-GP", "cattle-trespass-1871", date(2027, 3, 1))
    ) == ["DM"]
    assert config.proviso_offices_for("KNM-GP", "kerala-1961-amended", date(2026, 7, 1)) == (
        PROVISO_DEFAULTS[Office.LOCAL_AUTHORITY],
    )


# -- poundbot config check and config show -------------------------------------------------


def test_config_check_passes_on_a_supplied_office_and_notes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    path.write_text(with_acts(THREE_CHANGES), encoding="utf-8")
    assert main(["config", "check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "proviso" not in err  # (the sample's tariffs are warned of)
    notes = [line for line in out.splitlines() if "NOTE [[proviso_offices]]" in line]
    assert notes == [
        f"{path}: NOTE [[proviso_offices]]: another disposal under kerala-1961-amended, "
        "cattle-trespass-1871 (by a s.31 transfer) is ordered by the local_authority, which "
        'no table names: poundbot\'s office "Local authority" (BY LOCAL-AUTHORITY); a table '
        'with office = "local_authority" names it otherwise',
        f"{path}: NOTE [[proviso_offices]]: another disposal under cattle-trespass-1871 is "
        "ordered by the district_magistrate, which no table names: poundbot's office "
        '"District Magistrate" (BY DM); a table with office = "district_magistrate" names '
        "it otherwise",
    ]
    path.write_text(SAMPLE, encoding="utf-8")  # the Director, configured: no note
    assert main(["config", "check", str(path)]) == 0
    assert "NOTE [[proviso_offices]]" not in capsys.readouterr().out


def test_config_show_shows_the_supplied_offices_and_the_office_left_out_as_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    path.write_text(with_acts(THREE_CHANGES), encoding="utf-8")
    assert main(["config", "show", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    director = next(line for line in lines if line.startswith("proviso_offices[DIRECTOR].office"))
    assert director.split("#")[0].strip() == 'proviso_offices[DIRECTOR].office = "director"'
    assert director.endswith("# default")
    dm = next(line for line in lines if line.startswith("proviso_offices[DM] = "))
    assert 'code = "DM", name = { en = "District Magistrate", ml = "ജില്ലാ മജിസ്ട്രേറ്റ്"' in dm
    assert dm.endswith('office = "district_magistrate" }  # default')
    assert any(line.startswith("proviso_offices[LOCAL-AUTHORITY] = ") for line in lines)
