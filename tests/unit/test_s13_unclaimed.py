"""s.13: the report of unclaimed cattle, the notice and its proclamation, the auction."""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import TooEarlyError, TransitionRefusedError
from domain.s13_unclaimed import (
    auction_allowed_from,
    check_notice_printable,
    proclamation_places,
    report_due_on,
    village_and_market,
)
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    NOTICE_ON,
    REPORT_DUE,
    S,
    case_in,
    correct_impounding_day,
    report,
    step,
)


def test_s13_1_correcting_the_impounding_day_before_the_report_moves_the_report_day() -> None:
    corrected = step(case_in(S.IMPOUNDED), correct_impounding_day(date(2026, 2, 27), IMPOUNDED_ON))
    assert report_due_on(corrected.seizure.impounded_on) == date(2026, 3, 7)
    assert step(corrected, report(date(2026, 3, 7))).stage is S.REPORTED


def test_s13_1_the_report_is_due_the_day_after_seven_days_from_impounding() -> None:
    assert report_due_on(IMPOUNDED_ON) == REPORT_DUE  # 1 March: the 7 days end on 8 March


def test_s13_3_the_auction_is_lawful_the_day_after_seven_days_from_the_notice() -> None:
    assert auction_allowed_from(NOTICE_ON) == AUCTION_FROM  # 10 March: from 18 March


def test_s13_2_no_notice_before_the_cattle_are_unclaimed_seven_days() -> None:
    with pytest.raises(TooEarlyError) as refused:
        check_notice_printable(case_in(S.IMPOUNDED), date(2026, 3, 8))
    assert refused.value.lawful_from == REPORT_DUE
    check_notice_printable(case_in(S.IMPOUNDED), REPORT_DUE)


def test_s13_2_no_notice_of_cattle_that_left_the_pound() -> None:
    with pytest.raises(TransitionRefusedError):
        check_notice_printable(case_in(S.RELEASED), date(2026, 4, 1))


MARKETS = {"Kunnamangalam": "Kunnamangalam market", "Chathamangalam": "Chathamangalam chanda"}
DEFAULT = ("Panchayat village", "Panchayat market")


def test_s13_2_the_market_nearest_the_place_of_seizure_is_that_of_its_village() -> None:
    found = village_and_market("field near Chathamangalam school", (MARKETS,), DEFAULT)
    assert found == ("Chathamangalam", "Chathamangalam chanda")


def test_s13_2_the_pounds_list_is_read_before_the_authoritys() -> None:
    pound = {"Chathamangalam": "Pound-side market"}
    found = village_and_market("Chathamangalam", (pound, MARKETS), DEFAULT)
    assert found == ("Chathamangalam", "Pound-side market")


def test_s13_2_a_place_no_list_names_is_proclaimed_in_the_authoritys_village() -> None:
    assert village_and_market("a paddy field", (MARKETS,), DEFAULT) == DEFAULT


def test_s13_2_the_drum_is_beaten_in_the_village_and_the_market_whatever_was_named() -> None:
    assert proclamation_places((), "Kunnamangalam", "Kunnamangalam market") == (
        "Kunnamangalam",
        "Kunnamangalam market",
    )
    assert proclamation_places(("Temple junction",), "Kunnamangalam", "Kunnamangalam market") == (
        "Temple junction",
        "Kunnamangalam market",
    )
    assert proclamation_places(
        ("kunnamangalam  MARKET",), "Kunnamangalam", "Kunnamangalam market"
    ) == ("Kunnamangalam", "Kunnamangalam market")  # the market, as configured
