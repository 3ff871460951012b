"""docs/the-act.md says of each Act what ``domain.profiles`` applies.

The page's part "The Acts poundbot applies" has a section per profile (its heading names
the key): each section's table gives the office of each power, the drum, the refused
account (s.15(5)), the surplus months, where the money goes, the barred buyers and the
days to complain as the profile has them; its "What to confirm" list names every gap of
the profile by the Act's own citation; and the 1871 Act's citation table is the
profile's, row for row, with "no counterpart" where the Act has none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.profiles import (
    CATTLE_TRESPASS_1871,
    DEFAULT_ACT,
    PROFILES,
    Destination,
    Office,
    Power,
    Profile,
)

PAGE = Path(__file__).parents[2] / "docs" / "the-act.md"
PART = "## The Acts poundbot applies"
ALL = list(PROFILES.values())

#: The row of a profile's table that gives each power's office.
POWER_ROWS = {
    Power.RECEIVE_REPORT: "receives the keeper's report (s.13(1))",
    Power.POST_NOTICE: "affixes the notice and has it proclaimed (s.13(2))",
    Power.SELL: "sells by public auction (s.13(3))",
    Power.FIX_CONDITIONS: "directs the place, time and conditions of sale (s.13(3))",
    Power.ORDER_DISPOSAL: "orders another disposal when no fair price is likely (s.13(3) proviso)",
    Power.RECEIVE_FINES: "receives the fines deducted from a sale (s.16(1))",
    Power.HOLD_SURPLUS: "holds the unclaimed surplus in deposit (s.16(3))",
    Power.HEAR_COMPLAINT: "hears a complaint of illegal seizure (s.19)",
}
DRUM = "proclaimed by beat of drum (s.13(2))"
REFUSED = "a refused account makes the cattle unclaimed (s.15(5))"
MONTHS = "months the surplus is held (s.16(3))"
FINES_TO = "fines go to (s.16(1), s.17(1))"
SURPLUS_TO = "the unclaimed surplus goes to (s.17(1))"
BARRED = "who may not buy (s.18)"
DAYS = "days to complain (s.19)"

#: How the page names each office: a cell begins with it (after "the" or "a").
OFFICE_WORDS = {
    Office.POUND_KEEPER: "pound-keeper",
    Office.LOCAL_AUTHORITY: "local authority",
    Office.SECRETARY: "Secretary",
    Office.SPECIFIED_OFFICER: "officer the Director specifies",
    Office.DIRECTOR: "Director",
    Office.POLICE_STATION: "officer in charge of the nearest police station",
    Office.DISTRICT_MAGISTRATE: "Magistrate of the District",
    Office.MAGISTRATE: "Magistrate",
}
DESTINATION_WORDS = {
    Destination.LOCAL_FUND: "the local authority's fund",
    Destination.STATE_REVENUE: "State revenue",
}

_HEADING = re.compile(r"^(#{2,4}) (.*)$", re.M)


def _text() -> str:
    return PAGE.read_text(encoding="utf-8")


def _part() -> str:
    text = _text()
    assert PART in text, f"docs/the-act.md has no part {PART!r}"
    start = text.index(PART) + len(PART)
    following = re.search(r"^## ", text[start:], re.M)
    return text[start : start + following.start()] if following else text[start:]


def _section(text: str, level: int, title: re.Pattern[str]) -> str:
    """The text under the first heading of ``level`` whose title matches, up to the
    next heading of that level or above."""
    for match in _HEADING.finditer(text):
        if len(match.group(1)) == level and title.search(match.group(2)):
            rest = text[match.end() :]
            stop = re.search(rf"^#{{1,{level}}} ", rest, re.M)
            return rest[: stop.start()] if stop else rest
    raise AssertionError(f"no heading {'#' * level} matching {title.pattern!r}")


def _profile_section(act: Profile) -> str:
    return _section(_part(), 3, re.compile(rf"^`{re.escape(act.key)}`:"))


def _cells(line: str) -> list[str]:
    return [cell.strip().replace("`", "") for cell in line.strip().strip("|").split("|")]


def _first_table(text: str) -> list[list[str]]:
    """The first table of ``text``: its header, then its rows (separator skipped)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        if not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            table.append(_cells(line))
    return table


def _column(act: Profile) -> dict[str, str]:
    """The profile's column of the table in its own section: row label -> cell."""
    header, *rows = _first_table(_profile_section(act))
    assert act.key in header, f"the table of {act.key}'s section has no column {act.key}"
    at = header.index(act.key)
    return {row[0]: row[at] for row in rows}


def _office_named(cell: str) -> Office | None:
    """The office a cell begins with: the longest name that fits."""
    bare = re.sub(r"^(the|a)\s+", "", cell)
    fitting = [o for o, words in OFFICE_WORDS.items() if bare.startswith(words)]
    return max(fitting, key=lambda o: len(OFFICE_WORDS[o]), default=None)


def test_the_page_names_every_profile_in_a_section_of_its_own() -> None:
    part = _part()
    for act in ALL:
        assert f"`{act.key}`" in part, f"the page does not name {act.key}"
        _profile_section(act)  # raises when there is none
    assert f"applies `{DEFAULT_ACT}`" in part, "the page does not say which Act is the default"


@pytest.mark.parametrize("act", ALL, ids=[a.key for a in ALL])
def test_each_profiles_table_gives_its_offices_and_figures(act: Profile) -> None:
    column = _column(act)
    wrong = []
    for power, label in POWER_ROWS.items():
        cell = column.get(label)
        if cell is None:
            wrong.append(f"no row {label!r}")
        elif _office_named(cell) is not act.offices[power]:
            wrong.append(f"{label}: {cell!r}, but the profile has {act.offices[power].value}")
    assert column[POWER_ROWS[Power.HOLD_SURPLUS]].startswith(
        f"the {OFFICE_WORDS[act.offices[Power.HOLD_SURPLUS]]}"
    )
    expected = {
        DRUM: "yes" if act.drum else "no",
        REFUSED: "yes" if act.refused_account_unclaimed else "no",
        MONTHS: f"{act.surplus_months} months",
        FINES_TO: DESTINATION_WORDS[act.fines_to],
        SURPLUS_TO: DESTINATION_WORDS[act.surplus_to],
        DAYS: f"{act.complaint_days} days",
    }
    for label, start in expected.items():
        if not column.get(label, "").startswith(start):
            wrong.append(f"{label}: {column.get(label)!r} should begin {start!r}")
    barred = column.get(BARRED, "")
    if act.barred_buyers is None:
        if "[policy] barred_buyers" not in barred:
            wrong.append(f"{BARRED}: {barred!r} should name [policy] barred_buyers")
    elif missing := [c for c in act.barred_buyers if c not in barred]:
        wrong.append(f"{BARRED}: {barred!r} lacks {missing}")
    assert not wrong, f"the table of {act.key} says otherwise than the profile:\n" + "\n".join(
        wrong
    )


@pytest.mark.parametrize("act", ALL, ids=[a.key for a in ALL])
def test_each_gap_is_named_under_what_to_confirm(act: Profile) -> None:
    confirm = _section(_profile_section(act), 4, re.compile(r"^What to confirm"))
    missing = [
        gap.cited
        for gap in act.gaps
        if not re.search(rf"(?<![\w.]){re.escape(gap.cited)}(?![\d(])", confirm)
    ]
    assert not missing, f"{act.key}: 'What to confirm' does not name the gaps {missing}"


def test_the_1871_citation_table_is_the_profiles() -> None:
    table = _first_table(
        _section(_profile_section(CATTLE_TRESPASS_1871), 4, re.compile(r"citations$"))
    )
    rows = {row[0]: row[1] for row in table[1:]}
    expected = {k: c or "no counterpart" for k, c in CATTLE_TRESPASS_1871.citations.items()}
    assert rows == expected


def test_the_only_step_an_act_lacks_is_as_the_page_says() -> None:
    # "Of the steps poundbot takes, only one is missing from an Act: a refused account
    # (Kerala s.15(5)) under the 1871 Act."
    absent = [(a.key, p) for a in ALL for p, c in a.citations.items() if c is None]
    assert absent == [(CATTLE_TRESPASS_1871.key, "s.15(5)")]
    assert "only one is missing from an Act" in _part()


@pytest.mark.parametrize("act", ALL, ids=[a.key for a in ALL])
def test_what_to_confirm_names_each_value_the_configuration_may_set(act: Profile) -> None:
    """Each value an Act leaves open (``Profile.settable``) is named, as its key, where
    the page says what to confirm of that Act; an Act that leaves none says so."""
    section = _profile_section(act)
    confirm = _section(section, 4, re.compile(r"^What to confirm"))
    missing = [name for name in act.settable if f"`{name}" not in confirm]
    assert not missing, f"{act.key}: 'What to confirm' does not name {missing}"
    if not act.settable:
        assert "leaves no value open to the configuration" in section
