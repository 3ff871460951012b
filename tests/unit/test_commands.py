"""One-line commands: every keyword in every language, the SEIZE grammar, and bad input."""

from __future__ import annotations

import contextlib
from datetime import date, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import Config, load_config, sample_config_path
from bot.conversation.commands import ParseError, SeizeLot, parse
from bot.support.words import KEYWORDS
from domain.money import Money

CONFIG: Config = load_config(sample_config_path())
TODAY = date(2026, 11, 29)


def p(text: str):  # type: ignore[no-untyped-def]
    return parse(text, CONFIG, TODAY)


def test_the_issue_example_seizure_parses_into_lots_place_date_and_description() -> None:
    command = p(
        "SEIZE 2 cow 1 buffalo AT Kunnamangalam market ON 20-11-2026; brown cows, "
        "buffalo with a cut left ear"
    )
    assert command.name == "seize"
    shared = "brown cows, buffalo with a cut left ear"
    assert command.lots == (SeizeLot(2, "cow", shared), SeizeLot(1, "buffalo", shared))
    assert command.place == "Kunnamangalam market"
    assert command.on == date(2026, 11, 20)
    assert command.description == "brown cows, buffalo with a cut left ear"


def test_each_lot_takes_its_own_description_in_brackets_s13_2_a() -> None:
    command = p("SEIZE 1 buffalo (black, cut left ear) 1 goat (brown) AT Kunnamangalam")
    assert command.lots == (
        SeizeLot(1, "buffalo", "black, cut left ear"),
        SeizeLot(1, "goat", "brown"),
    )
    assert command.place == "Kunnamangalam"
    # Words in brackets are never connecting words; a lot without its own takes the one
    # after ";".
    mixed = p("SEIZE 2 cow (tied at the horns) 1 goat AT x ON 20-11-2026; all thin")
    assert mixed.lots == (SeizeLot(2, "cow", "tied at the horns"), SeizeLot(1, "goat", "all thin"))
    assert mixed.on == date(2026, 11, 20)


def test_owner_by_and_seized_are_recognised_after_the_description() -> None:
    command = p("SEIZE 1 buffalo AT x; black buffalo OWNER Kunhammed 9847012345")
    assert command.lots == (SeizeLot(1, "buffalo", "black buffalo"),)
    assert (command.owner, command.owner_phone) == ("Kunhammed", "+919847012345")
    other = p("SEIZE 1 cow AT x; white cow SEIZED 18-11-2026 BY Rajan, Kunnamangalam")
    assert other.lots == (SeizeLot(1, "cow", "white cow"),)
    assert other.seized_on == date(2026, 11, 18)
    assert other.seizer == "Rajan, Kunnamangalam"
    # A connecting word already given before ";" stays part of the description.
    again = p("SEIZE 1 cow AT x BY Rajan; found by the river")
    assert again.seizer == "Rajan"
    assert again.lots[0].description == "found by the river"


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("CORRECT KNM-1 CATTLE 2 cow (brown) BECAUSE miscounted", "cattle"),
        ("CORRECT KNM-1 AT Pathimangalam BECAUSE wrong", "place"),
        ("correct knm 1 BROUGHT 20-11-2026 14:00 because wrong", "brought"),
        ("CORRECT KNM-1 SEIZED 19-11-2026 BECAUSE wrong", "seized"),
        ("CORRECT KNM-1 BY Rajan, Kunnamangalam BECAUSE wrong", "seizer"),
        ("CORRECT KNM-1 OWNER Ravi 9847012345 BECAUSE wrong", "owner"),
    ],
)
def test_correct_names_a_field_a_value_and_a_reason_s7(line: str, field: str) -> None:
    command = p(line)
    assert (command.name, command.case, command.fact) == ("correct", "KNM-1", field)
    assert command.reason


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("CORRECT KNM-1 PLACE x", "missing_reason"),
        ("CORRECT KNM-1 PLACE x BECAUSE", "missing_reason"),
        ("CORRECT KNM-1 COLOUR red BECAUSE x", "unknown_field"),
        ("CORRECT KNM-1 BROUGHT 40-11-2026 BECAUSE x", "bad_date"),
        ("CORRECT KNM-1 CATTLE BECAUSE x", "missing_cattle"),
        ("CORRECT PLACE x BECAUSE y", "missing_case"),
        ("VOID KNM-1", "missing_reason"),
        ("VOID BECAUSE x", "missing_case"),
    ],
)
def test_correct_and_void_refuse_what_is_missing(line: str, code: str) -> None:
    with pytest.raises(ParseError) as caught:
        p(line)
    assert caught.value.code == code


def test_a_seizure_takes_an_hour_a_seizer_and_plural_or_multiword_kinds() -> None:
    command = p(
        "seize 3 cows 1 buffalo calf at Pathimangalam ON 28/11/2026 18:30 BY Rajan, Kunnamangalam"
    )
    assert command.lots == (SeizeLot(3, "cow"), SeizeLot(1, "buffalo_calf"))
    assert (command.on, command.at) == (date(2026, 11, 28), time(18, 30))
    assert command.seizer == "Rajan, Kunnamangalam"


def test_a_seizure_in_malayalam_words() -> None:
    command = p("പിടിച്ചു 2 പശു സ്ഥലം കുന്ദമംഗലം ചന്ത")
    assert (command.name, command.lang) == ("seize", "ml")
    assert command.lots == (SeizeLot(2, "cow"),)
    assert command.place == "കുന്ദമംഗലം ചന്ത"


@pytest.mark.parametrize(
    ("command", "lang", "word"),
    [
        (name, lang, word)
        for name, by_lang in KEYWORDS.items()
        for lang, words in by_lang.items()
        for word in words
    ],
)
def test_every_keyword_and_synonym_is_understood(command: str, lang: str, word: str) -> None:
    args = {
        "seize": " 1 cow AT market",
        "find": " cow",
        "lang": " ml",
        "auction": " KNM-1 ON 1-12-2026 AT market",
        "sold": " KNM-1 1 1 100 TO Beeran, Kunnamangalam DECLARED",
        "unsold": " KNM-1 1 1",
        "receipt": " KNM-1 BY Kunhammed",
        "claim": " KNM-1 BY A REF B",
        "correct": " KNM-1 PLACE market BECAUSE typo",
        "void": " KNM-1 BECAUSE typo",
        "dispose": " KNM-1 1 1 BY A REF B",
        "outcome": " KNM-1 UPHELD REF B",
        "claimed": " KNM-1 BY A",
        "reject": " KNM-1 REF B",
    }.get(command, " KNM-1")
    parsed = p(word + args)
    assert (parsed.name, parsed.lang) == (command, lang)
    assert p(word.lower() + "  " + args.strip()).name == command


@pytest.mark.parametrize(
    "spelling", ["DUES KNM-17", "dues knm 17", "Dues KNM17", " dues  knm-17. "]
)
def test_case_numbers_are_read_tolerantly(spelling: str) -> None:
    assert p(spelling).case in ("KNM-17", "KNM17")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("hello there", "unknown_command"),
        ("DUES please", "missing_case"),
        ("PAID", "missing_case"),
        ("SEIZE two cow AT market", "bad_count"),
        ("SEIZE 0 cow AT market", "bad_count"),
        ("SEIZE 2 dragon AT market", "unknown_kind"),
        ("SEIZE 2 cow", "missing_place"),
        ("SEIZE AT market", "missing_cattle"),
        ("SEIZE 2 cow AT market ON 31-02-2026", "bad_date"),
        ("SEIZE 2 cow AT market ON 20-11-2026 25:00", "bad_time"),
        ("LANG fr", "unknown_lang"),
        ("FIND", "missing_words"),
        ("SOLD KNM-1 1 1 lots TO Beeran, Kunnamangalam", "bad_amount"),
        ("SOLD KNM-1 1 1 100 TO Beeran DECLARED", "missing_buyer"),
        ("SOLD KNM-1 1 1 100", "missing_buyer"),
        ("x" * 2000, "too_long"),
    ],
)
def test_bad_input_gets_a_code_the_reply_can_translate(text: str, code: str) -> None:
    with pytest.raises(ParseError) as error:
        p(text)
    assert error.value.code == code


def test_amounts_take_rupee_signs_and_indian_grouping() -> None:
    assert p("SOLD KNM-1 1 1 Rs1,25,000 TO Beeran, Kunnamangalam").price == Money.rupees(125000)
    assert p("SETTLE KNM-1 ₹1500.50").expenses == Money.rupees("1500.50")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_no_text_makes_the_parser_fail_other_than_with_a_parse_error(text: str) -> None:
    with contextlib.suppress(ParseError):
        p(text)


def test_commas_between_places_and_in_names_are_kept() -> None:
    notice = p("NOTICE KNM-2 AT Kunnamangalam market, Kunnamangalam village.")
    assert notice.places == ("Kunnamangalam market", "Kunnamangalam village")
    sold = p("SOLD KNM-2, 1 1 25000 TO Ayesha, Chathamangalam")
    assert (sold.case, sold.buyer, sold.residence) == ("KNM-2", "Ayesha", "Chathamangalam")
    assert not sold.declared
    named = p("SOLD KNM-2 1 1 25000 TO Ayesha K, Chathamangalam, Kozhikode 9847012345 DECLARED")
    assert (named.buyer, named.residence) == ("Ayesha K", "Chathamangalam, Kozhikode")
    assert named.buyer_phone == "+919847012345"
    assert named.declared


def test_auction_takes_expected_expenses_and_settle_takes_them_either_way() -> None:
    auction = p("AUCTION KNM-2 ON 20-03-2026 AT market EXPENSES 1,500")
    assert (auction.on, auction.place, auction.expenses) == (
        date(2026, 3, 20),
        "market",
        Money.rupees(1500),
    )
    assert p("AUCTION KNM-2 ON 20-03-2026 AT market").expenses is None
    assert p("SETTLE KNM-2 EXPENSES 700").expenses == Money.rupees(700)
    assert p("SETTLE KNM-2 700").expenses == Money.rupees(700)
    malayalam = p("ലേലം KNM-2 തീയതി 20-03-2026 സ്ഥലം ചന്ത ചെലവ് 900")
    assert malayalam.expenses == Money.rupees(900)


def test_dispose_takes_lot_heads_proceeds_who_ordered_the_reference_and_the_manner() -> None:
    command = p("DISPOSE KNM-1 1 2 250 BY Director, AH REF DO-4/2026 HOW handed to the goshala")
    assert (command.lot, command.count, command.proceeds) == (1, 2, Money.rupees(250))
    assert (command.ordered_by, command.reference) == ("Director, AH", "DO-4/2026")
    assert command.manner == "handed to the goshala"
    assert p("DISPOSE KNM-1 1 1 BY D REF R ON 18-03-2026").on == date(2026, 3, 18)


def test_claim_takes_the_day_preferred_and_the_day_established_apart_s16_3() -> None:
    both = p("CLAIM KNM-1 BY Kunhammed P REF 12/2026 PREFERRED 01-06-2026 ON 25-06-2026")
    assert (both.claimant, both.reference) == ("Kunhammed P", "12/2026")
    assert (both.preferred_on, both.on) == (date(2026, 6, 1), date(2026, 6, 25))
    # In any order; either left out: the pending claim's day, today (the use case's).
    swapped = p("CLAIM KNM-1 ON 25-06-2026 BY Kunhammed REF 12/2026 PREFERRED 1.6")
    assert (swapped.preferred_on, swapped.on) == (date(2026, 6, 1), date(2026, 6, 25))
    bare = p("CLAIM KNM-1 BY Kunhammed REF 12/2026")
    assert (bare.preferred_on, bare.on) == (None, None)
    established = p("CLAIM KNM-1 BY Kunhammed REF 12/2026 ON 25-06-2026")
    assert (established.preferred_on, established.on) == (None, date(2026, 6, 25))
    # The words of each language.
    for line in (
        "അവകാശം KNM-1 മുഖേന Kunhammed നമ്പർ 12/2026 ഉന്നയിച്ചദിവസം 01-06-2026 തീയതി 25-06-2026",
        "உரிமைகோரல் KNM-1 மூலம் Kunhammed எண் 12/2026 கோரியதேதி 01-06-2026 தேதி 25-06-2026",
        "ಹಕ್ಕು KNM-1 ಮೂಲಕ Kunhammed ಸಂಖ್ಯೆ 12/2026 ಮಂಡಿಸಿದದಿನಾಂಕ 01-06-2026 ದಿನಾಂಕ 25-06-2026",
    ):
        read = p(line)
        assert (read.claimant, read.reference) == ("Kunhammed", "12/2026"), line
        assert (read.preferred_on, read.on) == (date(2026, 6, 1), date(2026, 6, 25)), line


@pytest.mark.parametrize(
    "line",
    [
        "CLAIM KNM-1 BY A REF B PREFERRED",
        "CLAIM KNM-1 BY A REF B PREFERRED 31-06-2026",
        "CLAIM KNM-1 BY A REF B PREFERRED 01-06-2026 02-06-2026",
    ],
)
def test_claim_with_a_day_preferred_that_is_not_one_date_is_refused(line: str) -> None:
    with pytest.raises(ParseError) as caught:
        p(line)
    assert caught.value.code == "bad_date"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("DISPOSE KNM-1 1 1 BY Director", "missing_order"),
        ("DISPOSE KNM-1 1 1 REF DO-4", "missing_order"),
        ("DISPOSE KNM-1 1", "bad_count"),
        ("OUTCOME KNM-1 REF CC-1", "missing_outcome"),
        ("OUTCOME KNM-1 UPHELD", "missing_outcome"),
        ("OUTCOME KNM-1 LOST REF CC-1", "missing_outcome"),
        ("CLAIMED KNM-1", "missing_person"),
        ("REJECT KNM-1", "missing_reference"),
    ],
)
def test_the_new_officer_words_refuse_what_is_missing(line: str, code: str) -> None:
    with pytest.raises(ParseError) as refused:
        p(line)
    assert refused.value.code == code


def test_outcome_words_in_every_language() -> None:
    assert p("OUTCOME KNM-1 upheld REF CC-1").outcome == "upheld"
    assert p("ഫലം KNM-1 നിയമവിരുദ്ധം നമ്പർ CC-1").outcome == "illegal"
    assert p("முடிவு KNM-1 உறுதிசெய்யப்பட்டது எண் CC-1").outcome == "upheld"
    assert p("ಫಲಿತಾಂಶ KNM-1 ಕಾನೂನುಬಾಹಿರ ಸಂಖ್ಯೆ CC-1").outcome == "illegal"


def test_the_officers_guide_and_help_name_every_new_officer_word_in_every_language() -> None:
    from pathlib import Path

    from bot.i18n import render, translator

    guide = (Path(__file__).parents[2] / "docs" / "officers-guide.md").read_text(encoding="utf-8")
    for name in ("dispose", "outcome", "claimed", "reject"):
        for lang, words in KEYWORDS[name].items():
            assert words[0] in guide, (name, lang)
            assert words[0] in render.help_text("officer", translator(lang), sms=False)


@pytest.mark.parametrize("text", ["DUES", "dues?", "STATUS", "DEPOSIT", "കുടിശ്ശിക?"])
def test_an_owners_question_without_a_case_number_is_read_as_about_their_own_case(
    text: str,
) -> None:
    # The reply finds the case that names the sender's number (or asks for the number).
    assert p(text).case == ""
