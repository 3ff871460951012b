"""The s.13(2) notice and the script of its proclamation by beat of drum.

s.13(2): the notice states (a) the number and description of the cattle, (b) the place
where they were seized and (c) the place where they are impounded, and is proclaimed by
beat of drum in the village and in the nearest market place. s.13(3): unclaimed within
seven days from the date of the notice, they are sold by public auction; "from" excludes
the day of the notice (GCA s.8), so the last day to claim is the seventh day after it
and the auction is lawful from the eighth.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import pytest

from bot.config import Authority, Pound
from bot.config.names import local
from bot.i18n import fmt
from bot.i18n import render as r
from bot.i18n.common import described_cattle
from domain.case import Case
from domain.kinds import DEFAULT_KINDS
from domain.s07_seizure import Lot, Seizure
from domain.s13_unclaimed import auction_allowed_from
from tests.unit.test_render_scenario import (
    ALL,
    AUCTION_ON,
    CASE_NUMBER,
    IMPOUNDED,
    NOTICE_ON,
    PLACE,
    authority,
    citation,
    config,
    open_case,
    pound,
    tr,
)

LABELS = ("(a)", "(b)", "(c)")


def section_word(lang: str) -> str:
    """How ``lang`` writes "section" before a number (``വകുപ്പ്``; nothing in English)."""
    return citation("s.99", lang).replace("99", "").replace("s.", "").strip()


def notice_lines(lang: str, notice_on: date = NOTICE_ON, case: Case | None = None) -> list[str]:
    text = r.notice_text(case or open_case(), authority(), pound(), notice_on, tr(lang))
    return text.splitlines()


# --- the notice --------------------------------------------------------------------------


def test_the_english_notice_states_every_item_of_s13_2_and_the_s13_3_warning() -> None:
    assert notice_lines("en") == [
        "Notice under s.13(2) of the Kerala Cattle Trespass Act, 1961",
        "Kunnamangalam Grama Panchayat",
        "Case No. KNM-17",
        "The cattle described below were impounded on 2 Mar 2026 and have not been claimed "
        "within seven days (s.13(1)).",
        "(a) Number and description of the cattle: 2 cows (black, white forehead); "
        "1 buffalo (horns curved back); 3 goats (brown)",
        "(b) Place where they were seized: Pantheerankavu paddy fields, near the "
        "Kunnamangalam bus stand",
        "(c) Place where they are impounded: Kunnamangalam Grama Panchayat Cattle Pound, "
        "Cattle Pound, behind the Kunnamangalam Grama Panchayat Office, Kozhikode-Wayanad "
        "Road, Kunnamangalam P.O., Kozhikode District, Kerala 673571",
        "If the cattle are not claimed within seven days from the date of this notice, that "
        "is, on or before 18 Mar 2026, they will be sold by public auction on or after "
        "19 Mar 2026 (s.13(3)).",
        "The owner or the owner's agent may claim them at the pound on paying the fines and "
        "the charges for feeding and watering (s.12).",
        "This notice is also proclaimed by beat of drum in Kunnamangalam and at Kunnamangalam "
        "Town Market, Kunnamangalam Angadi (s.13(2)).",
        "Date of notice: 11 Mar 2026. Affixed at: Kunnamangalam Grama Panchayat Office, "
        "Kozhikode-Wayanad Road (NH 766), Kunnamangalam P.O., Kozhikode Taluk, Kozhikode "
        "District, Kerala 673571.",
        "Secretary / authorised officer, Kunnamangalam Grama Panchayat",
    ]


@pytest.mark.parametrize("lang", ALL)
def test_the_heading_of_the_notice_cites_s13_2(lang: str) -> None:
    assert citation("s.13(2)", lang) in notice_lines(lang)[0]


@pytest.mark.parametrize("lang", ALL)
def test_items_a_b_and_c_are_labelled_as_the_act_labels_them_in_that_order(lang: str) -> None:
    """s.13(2)(a), (b), (c): a line each, the label first and the value after it."""
    lines = notice_lines(lang)
    labelled = [line for line in lines if line.startswith(LABELS)]
    assert [line[:3] for line in labelled] == list(LABELS)
    a, b, c = labelled
    assert a.endswith(described_cattle(open_case().seizure.lots, tr(lang)))
    assert b.endswith(PLACE)
    assert c.endswith(f"{local(pound().name, lang)}, {local(pound().address, lang)}")


@pytest.mark.parametrize("lang", ALL)
def test_item_a_gives_each_lot_with_its_count_kind_and_description(lang: str) -> None:
    a = next(line for line in notice_lines(lang) if line.startswith("(a)"))
    for lot in open_case().seizure.lots:
        assert f"{r.kind_count(lot.kind, lot.count, tr(lang))} ({lot.description})" in a


@pytest.mark.parametrize("lang", ALL)
def test_the_notice_gives_its_date_the_last_day_to_claim_and_the_first_day_of_auction(
    lang: str,
) -> None:
    text = "\n".join(notice_lines(lang))
    assert fmt.date(NOTICE_ON, lang) in text  # the seven days run from this date
    warning = next(line for line in notice_lines(lang) if fmt.date(AUCTION_ON, lang) in line)
    assert fmt.date(date(2026, 3, 18), lang) in warning
    assert citation("s.13(3)", lang) in warning


@pytest.mark.parametrize("lang", ALL)
def test_the_notice_names_where_it_is_affixed_and_proclaimed_and_who_signs(lang: str) -> None:
    text = "\n".join(notice_lines(lang))
    place = authority()
    for value in (place.office_address, place.village, place.market_place, place.name):
        assert local(value, lang) in text
    assert notice_lines(lang)[-1].endswith(local(place.name, lang))
    assert notice_lines(lang)[2].endswith(CASE_NUMBER)


@pytest.mark.parametrize("lang", ALL)
def test_the_notice_says_when_the_cattle_were_impounded_citing_s13_1(lang: str) -> None:
    intro = notice_lines(lang)[3]
    assert fmt.date(IMPOUNDED, lang) in intro
    assert citation("s.13(1)", lang) in intro


@pytest.mark.parametrize("lang", ALL)
def test_the_notice_tells_the_owner_how_to_claim_under_s12(lang: str) -> None:
    assert any(citation("s.12", lang) in line for line in notice_lines(lang))


def _impounded(on: date) -> Case:
    seizure = Seizure(
        pound="KNM",
        lots=(Lot("cow", 1, "brown"),),
        place_seized=PLACE,
        brought_at=datetime.combine(on, datetime.min.time()),
    )
    return Case.open("KNM-18", seizure, DEFAULT_KINDS, on)


@pytest.mark.parametrize(
    ("notice_on", "last", "first"),
    [
        (date(2026, 3, 11), date(2026, 3, 18), date(2026, 3, 19)),
        (date(2026, 2, 24), date(2026, 3, 3), date(2026, 3, 4)),
        (date(2026, 12, 31), date(2027, 1, 7), date(2027, 1, 8)),
        (date(2028, 2, 22), date(2028, 2, 29), date(2028, 3, 1)),
    ],
    ids=[
        "s.13(3) within the month",
        "s.13(3) across the end of February",
        "s.13(3) across the year",
        "s.13(3) to 29 February of a leap year",
    ],
)
def test_the_auction_is_lawful_from_the_eighth_day_after_the_notice_never_the_seventh(
    notice_on: date, last: date, first: date
) -> None:
    """GCA s.8: the day of the notice is excluded; the seventh day after it is the last
    day to claim (the day before the boundary is still a day to claim)."""
    assert auction_allowed_from(notice_on) == first
    case = _impounded(notice_on - timedelta(days=9))
    warning = notice_lines("en", notice_on, case)[7]
    assert warning == (
        "If the cattle are not claimed within seven days from the date of this notice, that "
        f"is, on or before {fmt.date(last, 'en')}, they will be sold by public auction on or "
        f"after {fmt.date(first, 'en')} (s.13(3))."
    )
    assert fmt.date(first - timedelta(days=1), "en") == fmt.date(last, "en")


# --- the proclamation by beat of drum ---------------------------------------------------------


def test_the_english_proclamation_says_where_to_read_it_and_what_to_read() -> None:
    text = r.proclamation_script(open_case(), authority(), pound(), NOTICE_ON, tr("en"))
    assert text.splitlines() == [
        "Proclamation by beat of drum (s.13(2)), case KNM-17: to be read in Kunnamangalam and "
        "at Kunnamangalam Town Market, Kunnamangalam Angadi.",
        "It is hereby made known to all, by order of Kunnamangalam Grama Panchayat: 2 cows "
        "(black, white forehead); 1 buffalo (horns curved back); 3 goats (brown), seized at "
        "Pantheerankavu paddy fields, near the Kunnamangalam bus stand, are impounded at "
        "Kunnamangalam Grama Panchayat Cattle Pound. A notice was affixed on 11 Mar 2026. If "
        "the owner does not claim them on or before 18 Mar 2026, they will be sold by public "
        "auction on or after 19 Mar 2026. The owner may claim them at the pound on paying the "
        "fines and charges.",
    ]


POUNDS = ["KNM", "ENM", "VTV"]


def _places(code: str) -> tuple[Authority, Pound]:
    return config().authority_of(code), config().pounds[code]


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("code", POUNDS, ids=[f"s.13(2) pound {c}" for c in POUNDS])
def test_the_drummer_is_told_the_village_and_the_market_place_of_the_authority(
    code: str, lang: str
) -> None:
    place, kept_in = _places(code)
    text = r.proclamation_script(open_case(), place, kept_in, NOTICE_ON, tr(lang))
    where = text.splitlines()[0]
    assert local(place.village, lang) in where
    assert local(place.market_place, lang) in where
    assert CASE_NUMBER in where
    assert citation("s.13(2)", lang) in where


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("code", POUNDS, ids=[f"s.13(2) pound {c}" for c in POUNDS])
def test_the_spoken_proclamation_states_the_cattle_the_places_and_the_days(
    code: str, lang: str
) -> None:
    place, kept_in = _places(code)
    text = r.proclamation_script(open_case(), place, kept_in, NOTICE_ON, tr(lang))
    spoken = text.splitlines()[1]
    for fact in (
        local(place.name, lang),
        described_cattle(open_case().seizure.lots, tr(lang)),
        PLACE,
        local(kept_in.name, lang),
        fmt.date(NOTICE_ON, lang),
        fmt.date(date(2026, 3, 18), lang),
        fmt.date(AUCTION_ON, lang),
    ):
        assert fact in spoken


@pytest.mark.parametrize("lang", ALL)
def test_the_spoken_proclamation_reads_no_citation_aloud(lang: str) -> None:
    spoken = r.proclamation_script(open_case(), authority(), pound(), NOTICE_ON, tr(lang))
    words = spoken.splitlines()[1]
    assert not re.search(r"\bs\.\d", words), words
    if lang != "en":
        assert section_word(lang) not in words
