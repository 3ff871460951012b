"""s.7: the record of the cattle brought in, and the reports that cannot stand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time

import pytest

from domain.case import Case
from domain.errors import DomainError, FutureDateError, InvalidCaseError, UnknownKindError
from domain.events import Impounded
from domain.kinds import DEFAULT_KINDS
from domain.s07_seizure import Lot, require_brought_by
from tests.unit.domain_fixtures import IMPOUNDED_ON, LATER, seizure


def test_s7_a_seizure_report_for_cattle_brought_in_tomorrow_is_refused() -> None:
    with pytest.raises(FutureDateError) as caught:
        Case.open("X-1", seizure(date(2026, 3, 2)), DEFAULT_KINDS, today=date(2026, 3, 1))
    assert caught.value.provision == "s.7"


@pytest.mark.parametrize(
    ("lots", "place", "seized_on", "error", "provision"),
    [
        ((), "field", None, InvalidCaseError, "s.7"),
        ((Lot("cow", 0),), "field", None, InvalidCaseError, "s.7"),
        ((Lot("cow", 10_001),), "field", None, InvalidCaseError, "s.7"),
        ((Lot("unicorn", 1),), "field", None, UnknownKindError, "s.2(1)"),
        ((Lot("cow", 1),), "   ", None, InvalidCaseError, "s.7"),
        ((Lot("cow", 1),), "field", date(2026, 3, 2), InvalidCaseError, "s.7"),
    ],
    ids=[
        "s.7: a seizure of no cattle is refused",
        "s.7: a lot of no heads is refused",
        "s.7: an impossible count is refused",
        "s.2(1): an animal that is not cattle here is refused",
        "s.7: the place of seizure is required",
        "s.7: the seizure cannot be after the impounding",
    ],
)
def test_a_seizure_report_that_cannot_stand_is_refused(
    lots: tuple[Lot, ...],
    place: str,
    seized_on: date | None,
    error: type[DomainError],
    provision: str,
) -> None:
    bad = replace(seizure(), lots=lots, place_seized=place, seized_on=seized_on)
    with pytest.raises(error) as caught:
        Case.open("X-1", bad, DEFAULT_KINDS, today=LATER)
    assert caught.value.provision == provision


def test_s7_the_day_of_impounding_is_the_local_day_the_cattle_were_brought() -> None:
    late = replace(seizure(), brought_at=datetime.combine(IMPOUNDED_ON, time(23, 59)))
    case = Case.open("X-1", late, DEFAULT_KINDS, today=IMPOUNDED_ON)
    assert case.seizure.impounded_on == IMPOUNDED_ON
    assert case.seizure.seizure_day == IMPOUNDED_ON
    assert case.events == (Impounded(on=IMPOUNDED_ON, seizure=late),)


@pytest.mark.parametrize(
    ("now", "brought", "hour_known", "refused"),
    [
        (time(6, 43, 20), time(23, 59), True, "future_time"),
        (time(6, 43, 20), time(6, 44), True, "future_time"),
        (time(6, 43, 20), time(6, 43), True, None),
        (time(6, 43, 20), time(0, 1), True, None),
        (time(6, 43, 20), time(0, 0), False, None),
        (time(0, 0), time(0, 1), True, "future_time"),
    ],
    ids=[
        "s.7: brought in at 23:59 when it is 06:43 is refused",
        "s.7: a minute after now is refused",
        "s.7: the minute of now stands",
        "s.7: an hour before now stands",
        "s.7: a day given without an hour stands on that day",
        "s.7: at midnight, a minute past it is refused",
    ],
)
def test_s7_the_hour_brought_in_is_not_later_than_now(
    now: time, brought: time, hour_known: bool, refused: str | None
) -> None:
    report = replace(
        seizure(), brought_at=datetime.combine(IMPOUNDED_ON, brought), hour_known=hour_known
    )
    wall = datetime.combine(IMPOUNDED_ON, now)
    if refused is None:
        require_brought_by(report, wall)
        return
    with pytest.raises(FutureDateError) as caught:
        require_brought_by(report, wall)
    assert (caught.value.provision, caught.value.reason) == ("s.7", refused)
    assert caught.value.facts == {"time": f"{brought:%H:%M}", "now": f"{now:%H:%M}"}


def test_s7_a_day_after_today_is_refused_as_a_day_whatever_its_hour() -> None:
    tomorrow = replace(seizure(), brought_at=datetime.combine(LATER, time(0, 1)))
    with pytest.raises(FutureDateError) as caught:
        require_brought_by(tomorrow, datetime.combine(IMPOUNDED_ON, time(23, 59)))
    assert (caught.value.provision, caught.value.reason) == ("s.7", None)
