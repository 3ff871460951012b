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
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest

from bot.config import Authority, Pound
from bot.config.names import local
from bot.i18n import fmt
from bot.i18n import render as r
from bot.i18n.common import described_cattle
from domain.case import Case
from domain.figures import Figures, figures_of
from domain.kinds import DEFAULT_KINDS
from domain.s07_seizure import Lot, Seizure
from domain.s13_unclaimed import auction_allowed_from
from domain.statement import statement
from tests.unit.test_render_scenario import (
    ALL,
    AUCTION_ON,
    CASE_NUMBER,
    IMPOUNDED,
    INDIAN,
    NOTICE_ON,
    PLACE,
    TARIFF,
    account_refused,
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
        "behind the Kunnamangalam Grama Panchayat Office, Kozhikode-Wayanad Road, "
        "Kunnamangalam P.O., Kozhikode District, Kerala 673571",
        "If the cattle are not claimed within seven days from the date of this notice, that "
        "is, on or before 18 Mar 2026, they will be sold by public auction on or after "
        "19 Mar 2026 (s.13(3)).",
        "The owner or the owner's agent may claim them at the pound on paying the fines and "
        "the charges for feeding and watering (s.12).",
        "This notice is also proclaimed by beat of drum at these places: Kunnamangalam; "
        "Kunnamangalam Town Market, Kunnamangalam Angadi (s.13(2)).",
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
    assert c.startswith(f"{c.partition(': ')[0]}: {local(pound().name, lang)}, ")


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
        "Proclamation by beat of drum (s.13(2)), case KNM-17. To be read at: Kunnamangalam; "
        "Kunnamangalam Town Market, Kunnamangalam Angadi.",
        "It is hereby made known to all, by order of Kunnamangalam Grama Panchayat: the "
        "cattle below have been seized and are kept in the pound. Cattle: 2 cows (black, "
        "white forehead); 1 buffalo (horns curved back); 3 goats (brown). Place of seizure: "
        "Pantheerankavu paddy fields, near the Kunnamangalam bus stand. Pound: Kunnamangalam "
        "Grama Panchayat Cattle Pound. A notice of this was affixed on 11 March 2026. If the "
        "owner does not claim them on or before 18 March 2026, they will be sold by public "
        "auction on or after 19 March 2026. Until then the owner may pay the fines and "
        "charges at the pound and take them back.",
    ]


#: The notice of the round after a refused account (s.15(5)): 16 March 2026.
SECOND_NOTICE_ON = date(2026, 3, 16)


def test_the_malayalam_proclamation_opens_as_proclamations_do_and_labels_the_names() -> None:
    """The customary opening; a label and a colon before each name, never a case ending on
    it; the dates as they are said aloud: year, month in full, day."""
    text = r.proclamation_script(open_case(), authority(), pound(), NOTICE_ON, tr("ml"))
    assert text.splitlines() == [
        "ചെണ്ടകൊട്ടി വിളംബരം (വകുപ്പ് 13(2)), കേസ് KNM-17. വായിക്കേണ്ട സ്ഥലങ്ങൾ: കുന്ദമംഗലം; "
        "കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി.",
        "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് ഉത്തരവു പ്രകാരം ഇതിനാൽ സകലമാന ജനങ്ങളെയും അറിയിക്കുന്നത് "
        "എന്തെന്നാൽ: താഴെപ്പറയുന്ന കന്നുകാലികളെ പിടിച്ചെടുത്ത് പൗണ്ടിൽ സൂക്ഷിച്ചിരിക്കുന്നു. "
        f"കന്നുകാലികൾ: {described_cattle(open_case().seizure.lots, tr('ml'))}. "
        f"പിടിച്ചെടുത്ത സ്ഥലം: {PLACE}. "
        "പൗണ്ട്: കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് കന്നുകാലി പൗണ്ട്. "
        "ഇതു സംബന്ധിച്ച നോട്ടീസ് 2026 മാർച്ച് 11-ന് പതിച്ചിട്ടുണ്ട്. 2026 മാർച്ച് 18 വരെ ഉടമ "
        "അവകാശപ്പെടാത്തപക്ഷം 2026 മാർച്ച് 19-നോ അതിനു ശേഷമോ ഇവയെ പരസ്യലേലത്തിൽ "
        "വിൽക്കുന്നതാണ്. അതുവരെ പിഴയും ചെലവും അടച്ച് ഉടമയ്ക്ക് പൗണ്ടിൽ വന്ന് ഇവയെ തിരികെ "
        "കൊണ്ടുപോകാവുന്നതാണ്.",
    ]


def test_the_english_proclamation_after_a_refused_account_says_the_owner_may_still_pay() -> None:
    """s.15(5): the cattle the owner refused with the account are deemed unclaimed and
    proclaimed again; until a head of them is sold the owner may still pay and take them
    (s.12), less what the first sale met (s.15(2))."""
    text = r.proclamation_script(
        account_refused(), authority(), pound(), SECOND_NOTICE_ON, tr("en")
    )
    assert text.splitlines()[1] == (
        "It is hereby made known to all, by order of Kunnamangalam Grama Panchayat: of the "
        "cattle seized and kept in the pound, a part has been sold by public auction; the "
        "owner refused to take back the rest, and the cattle below are therefore deemed "
        "unclaimed. Cattle: 1 cow (black, white forehead); 1 buffalo (horns curved back); "
        "3 goats (brown). Place of seizure: Pantheerankavu paddy fields, near the "
        "Kunnamangalam bus stand. Pound: Kunnamangalam Grama Panchayat Cattle Pound. A notice "
        "of this was affixed on 16 March 2026. If the owner does not claim them on or before "
        "23 March 2026, they will be sold by public auction on or after 24 March 2026. Until "
        "then the owner may still pay at the pound what is owed, less what the earlier sale "
        "met, and take them back."
    )


ROUTES = {"first round (s.13(2))": open_case, "after a refused account (s.15(5))": account_refused}


def _spoken(build: str, lang: str, figures: Figures | None = None) -> str:
    on = NOTICE_ON if ROUTES[build] is open_case else SECOND_NOTICE_ON
    case = ROUTES[build]()
    text = r.proclamation_script(case, authority(), pound(), on, tr(lang), figures=figures)
    return text.splitlines()[1]


@pytest.mark.parametrize("lang", ALL)
def test_each_route_has_its_own_proclamation(lang: str) -> None:
    first, second = (_spoken(build, lang) for build in ROUTES)
    opening = first.partition(":")[0]
    assert second.startswith(opening)  # the same customary opening
    assert first.partition(":")[2] != second.partition(":")[2]


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("build", list(ROUTES))
def test_the_proclamation_puts_no_case_ending_on_a_name(build: str, lang: str) -> None:
    """Pattern: a name is followed by a full stop, a semicolon or a comma (a label comes
    before it), never by a case ending ("ചന്ത-ൽ", "சந்தை-இல்", "ಸಂತೆ ನಲ್ಲಿ"). The names
    are found longest first, so that a village inside a longer name is that name."""
    on = NOTICE_ON if ROUTES[build] is open_case else SECOND_NOTICE_ON
    text = r.proclamation_script(ROUTES[build](), authority(), pound(), on, tr(lang))
    place = authority()
    names = [local(place.village, lang), local(place.market_place, lang), PLACE]
    names.append(local(pound().name, lang))
    taken = [False] * len(text)
    for name in sorted([*names, local(place.name, lang)], key=len, reverse=True):
        for found in re.finditer(re.escape(name), text):
            if any(taken[found.start() : found.end()]):
                continue
            taken[found.start() : found.end()] = [True] * len(name)
            if name in names:
                assert text[found.end() : found.end() + 1] in {".", ";", ","}, (name, text)


@pytest.mark.parametrize("lang", ALL)
def test_the_proclamation_says_its_dates_with_the_month_in_full(lang: str) -> None:
    spoken = _spoken("first round (s.13(2))", lang)
    for day in (NOTICE_ON, date(2026, 3, 18), AUCTION_ON):
        assert fmt.spoken_date(day, lang) in spoken
    assert fmt.spoken_date(NOTICE_ON, "ml") == "2026 മാർച്ച് 11"
    assert fmt.spoken_date(NOTICE_ON, "en") == "11 March 2026"


@pytest.mark.parametrize("lang", ALL)
def test_once_a_head_of_the_round_is_sold_the_proclamation_offers_no_payment(lang: str) -> None:
    build = "after a refused account (s.15(5))"
    case = account_refused()
    figures = figures_of(statement(case, TARIFF, SECOND_NOTICE_ON))
    assert figures.may_pay
    offered = _spoken(build, lang, figures)
    closed = _spoken(build, lang, replace(figures, may_pay=False))
    assert offered.startswith(closed)
    assert len(offered) > len(closed) + 20  # the sentence on paying is gone


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
        fmt.spoken_date(NOTICE_ON, lang),
        fmt.spoken_date(date(2026, 3, 18), lang),
        fmt.spoken_date(AUCTION_ON, lang),
    ):
        assert fact in spoken


@pytest.mark.parametrize("lang", ALL)
def test_the_spoken_proclamation_reads_no_citation_aloud(lang: str) -> None:
    spoken = r.proclamation_script(open_case(), authority(), pound(), NOTICE_ON, tr(lang))
    words = spoken.splitlines()[1]
    assert not re.search(r"\bs\.\d", words), words
    if lang != "en":
        assert section_word(lang) not in words


# --- the notice's own lines in the three languages ----------------------------------------

PROCLAIMED = {
    "ml": "ഈ നോട്ടീസ് താഴെപ്പറയുന്ന സ്ഥലങ്ങളിൽ ചെണ്ടകൊട്ടി വിളംബരം ചെയ്യുന്നതാണ്: "
    "%(village)s; %(market)s (വകുപ്പ് 13(2)).",
    "ta": "இந்த அறிவிப்பு பின்வரும் இடங்களில் தண்டோரா மூலமும் அறிவிக்கப்படுகிறது: "
    "%(village)s; %(market)s (பிரிவு 13(2)).",
    "kn": "ಈ ನೋಟಿಸ್ ಅನ್ನು ಈ ಸ್ಥಳಗಳಲ್ಲಿ ಡಂಗುರ ಸಾರುವ ಮೂಲಕವೂ ಪ್ರಕಟಿಸಲಾಗುತ್ತದೆ: "
    "%(village)s; %(market)s (ಕಲಂ 13(2)).",
}


@pytest.mark.parametrize("lang", INDIAN)
def test_the_notice_lists_where_it_is_proclaimed_after_a_colon(lang: str) -> None:
    place = authority()
    names = {"village": local(place.village, lang), "market": local(place.market_place, lang)}
    assert PROCLAIMED[lang] % names in notice_lines(lang)


def test_the_malayalam_notice_is_signed_without_a_clumsy_or() -> None:
    assert notice_lines("ml")[-1] == (
        "സെക്രട്ടറി / അധികാരപ്പെടുത്തിയ ഉദ്യോഗസ്ഥൻ/ഉദ്യോഗസ്ഥ, കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്"
    )


@pytest.mark.parametrize("lang", ALL)
def test_item_c_gives_the_pounds_name_once_then_the_rest_of_its_address(lang: str) -> None:
    """The address begins "Cattle Pound, behind …": the name already says it."""
    c = next(line for line in notice_lines(lang) if line.startswith("(c)"))
    name = local(pound().name, lang)
    assert c.count(name) == 1
    value = c.partition(": ")[2]
    assert value.startswith(f"{name}, ")
    rest = value.removeprefix(f"{name}, ")
    assert rest.split(", ")[0] not in name
    assert rest.endswith("673571")


def _two_kinds_one_description() -> Case:
    """``SEIZE 1 buffalo 1 goat; black, broken horn; brown goat``: the descriptions after
    ";" one per kind, in the order of the kinds."""
    shared = "black, broken horn; brown goat"
    seizure = Seizure(
        pound="KNM",
        lots=(Lot("buffalo", 1, shared), Lot("goat", 1, shared)),
        place_seized=PLACE,
        brought_at=datetime(2026, 3, 2, 10, 30),
    )
    return Case.open("KNM-19", seizure, DEFAULT_KINDS, IMPOUNDED)


@pytest.mark.parametrize("lang", ALL)
def test_each_kind_is_paired_with_its_own_description(lang: str) -> None:
    a = next(
        line for line in notice_lines(lang, case=_two_kinds_one_description()) if "(a)" in line
    )
    buffalo = r.kind_count("buffalo", 1, tr(lang))
    goat = r.kind_count("goat", 1, tr(lang))
    assert a.endswith(f"{buffalo} (black, broken horn); {goat} (brown goat)")


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("build", list(ROUTES))
def test_the_printed_notice_of_each_route_lists_the_places_of_the_proclamation(
    build: str, lang: str
) -> None:
    on = NOTICE_ON if ROUTES[build] is open_case else SECOND_NOTICE_ON
    page = r.notice_html(ROUTES[build](), authority(), pound(), on, [lang])
    market = local(authority().market_place, lang)
    assert f"{local(authority().village, lang)}; {market} (" in page
    assert page.count(local(pound().name, lang)) == 1
