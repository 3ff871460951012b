"""The offices a user holds: a keeper the pound-keeper's, an officer those declared or,
none declared, the local authority's; as they are stored and read back."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.i18n.common import office_title
from bot.i18n.refusals.errors import not_holder
from bot.support.caller import Caller
from bot.support.offices import (
    UNDECLARED,
    declared_offices,
    held_offices,
    office_of,
    offices_text,
    refused_office,
)
from domain.profiles import Office


def test_offices_are_stored_in_the_order_of_office_once_each_and_read_back() -> None:
    stored = offices_text([Office.MAGISTRATE, Office.POLICE_STATION, Office.MAGISTRATE])
    assert stored == "police_station,magistrate"
    assert declared_offices(stored) == (Office.POLICE_STATION, Office.MAGISTRATE)
    assert declared_offices("") == declared_offices(None) == ()
    assert declared_offices("police_station,collector") == (Office.POLICE_STATION,)


@pytest.mark.parametrize(
    ("role", "declared", "held"),
    [
        ("keeper", (), {Office.POUND_KEEPER}),
        ("officer", (), set(UNDECLARED)),
        ("officer", (Office.POLICE_STATION,), {Office.POLICE_STATION}),
        ("admin", (), set()),
    ],
)
def test_who_holds_what(role: str, declared: tuple[Office, ...], held: set[Office]) -> None:
    assert held_offices(role, declared) == held
    caller = Caller(role=role, channel="test", offices=declared)
    assert {office for office in Office if caller.holds(office)} == held


def test_an_office_is_named_by_its_value_and_another_name_is_refused() -> None:
    assert office_of(" District_Magistrate ") is Office.DISTRICT_MAGISTRATE
    with pytest.raises(ValueError, match="unknown office 'collector': one of pound_keeper"):
        office_of("collector")


def test_a_keeper_holds_only_the_pound_keepers_office_and_an_officer_any_other() -> None:
    assert refused_office("keeper", Office.POUND_KEEPER) is None
    assert all(refused_office("keeper", o) for o in Office if o is not Office.POUND_KEEPER)
    assert refused_office("officer", Office.POUND_KEEPER)
    assert not any(refused_office("officer", o) for o in Office if o is not Office.POUND_KEEPER)
    assert all(refused_office("admin", o) for o in Office)


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
@pytest.mark.parametrize("office", list(Office), ids=lambda office: office.value)
def test_the_refusal_names_the_office_in_every_language(lang: str, office: Office) -> None:
    tr = translator(lang)
    assert office_title(office, tr) in not_holder(office, tr)
