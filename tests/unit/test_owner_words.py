"""The words owners write, as the parser reads them: the table of their spellings in
four languages and in Latin letters, quotes and a question mark dropped, the case
number before the word or alone or in Malayalam, Tamil or Kannada letters, a word one
letter off an owner's word (and what must never be read so), FIND's vocabulary, and
the documents that list the words."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from bot.config import Config, load_config, sample_config_path
from bot.conversation.case_letters import latin_code
from bot.conversation.commands import ParseError, parse, read_line
from bot.support.search_words import LANGUAGES, search_terms, vocabulary
from bot.support.spelling import letters, one_edit_apart
from bot.support.words import KEYWORDS, OWNER_WORDS, SHARED, close_keyword

CONFIG: Config = load_config(sample_config_path())
TODAY = date(2026, 3, 1)
DOCS = Path(__file__).parents[2] / "docs"

#: The table owners asked for: command, language of the answer, words.
TABLE = {
    ("dues", "ml"): "പിഴ കുടിശിക കുടിശ്ശിക തുക എത്ര ഫൈൻ ബാക്കി pizha piza kudissika "
    "kudishika kudisika thuka tuka ethra",
    ("dues", "ta"): "நிலுவை அபராதம் தொகை niluvai abaradham",
    ("dues", "kn"): "ದಂಡ ಮೊತ್ತ danda",
    ("deposit", "ml"): "കെട്ടിവയ്പ് കെട്ടിവെപ്പ് കെട്ടിവയ്ക്കൽ കെട്ടിവെക്കൽ ഡിപ്പോസിറ്റ് "
    "kettivaykkal kettivekkal kettiveppu kettivaippu",
    ("status", "ml"): "വിവരം നില കേസ് sthithi sthiti vivaram nila",
    ("find", "ml"): "തിരയൂ തേടുക അന്വേഷണം thirayuka thiraya theduka",
    ("help", "ml"): "sahayam",
}


def p(text: str):  # type: ignore[no-untyped-def]
    return parse(text, CONFIG, TODAY)


@pytest.mark.parametrize(
    ("command", "lang", "word"),
    [(c, lang, w) for (c, lang), words in TABLE.items() for w in words.split()],
)
def test_each_word_of_the_table_is_its_command_in_its_language(
    command: str, lang: str, word: str
) -> None:
    args = " black cow" if command == "find" else ("" if command == "help" else " KNM-1")
    order = p(word + args)
    assert (order.name, order.lang) == (command, lang)


@pytest.mark.parametrize("word", ["fine", "FINE", "baaki", "baki"])
def test_shared_words_are_dues_and_keep_the_senders_language(word: str) -> None:
    parsed = read_line(f"{word} KNM-1", CONFIG, TODAY)
    assert parsed.order.name == "dues"
    assert parsed.order.lang == "en"  # "en": the reply keeps the sender's language
    assert not parsed.in_latin_letters


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("മലയാളം", "ml"),
        ("ഇംഗ്ലീഷ്", "en"),
        ("தமிழ்", "ta"),
        ("ಕನ್ನಡ", "kn"),
        ("english", "en"),
        ("malayalam", "ml"),
        ("tamil", "ta"),
        ("kannada", "kn"),
        ("bhasha en", "en"),
        ("LANG malayalam", "ml"),
        ("ഭാഷ ഇംഗ്ലീഷ്", "en"),
    ],
)
def test_a_language_is_chosen_by_its_name(text: str, choice: str) -> None:
    order = p(text)
    assert order.name == "lang"
    assert order.choice == choice


def test_the_kannada_word_notice_is_notice_for_staff() -> None:
    assert p("ನೋಟಿಸ್ KNM-1").name == "notice"


def test_stop_words_stay_narrow() -> None:
    assert {w for words in KEYWORDS["stop"].values() for w in words} == {
        "STOP",
        "UNSUBSCRIBE",
        "STOPALL",
        "CANCEL",
        "END",
        "QUIT",
        "നിർത്തുക",
        "நிறுத்து",
        "ನಿಲ್ಲಿಸು",
    }
    assert "stop" not in SHARED
    assert "stop" not in OWNER_WORDS


@pytest.mark.parametrize(
    "text",
    [
        "“കുടിശ്ശിക” KNM-1",
        '"DUES" KNM-1',
        "'DUES' 'KNM-1'",
        "‘DUES’ KNM-1",
        "«DUES» KNM-1",
        "DUES <KNM-1>",
        "DUES KNM-1?",
        "DUES? KNM-1",
        "DUE? KNM-1",
        "KNM-1 DUES",
        "knm 1 dues",
        "KNM-1",
        "knm 1",
        "“KNM-1”",
        "KNM-1?",
        "കെഎൻഎം-1",
        "കെ.എൻ.എം-൧",
        "കുടിശ്ശിക കെഎൻഎം 1",
        "கேஎன்எம்-1",
        "ಕೆಎನ್ಎಂ-1",
    ],
)
def test_quotes_question_marks_and_the_case_number_anywhere_are_read(text: str) -> None:
    order = p(text)
    assert (order.name, order.case) == ("dues", "KNM-1")


def test_a_question_mark_alone_is_still_help() -> None:
    assert p("?").name == "help"


@pytest.mark.parametrize("text", ["STOP?", "stop ?", "START?", "നിർത്തുക?"])
def test_a_question_never_stops_or_starts_messages(text: str) -> None:
    with pytest.raises(ParseError) as refused:
        p(text)
    assert refused.value.code == "unknown_command"


def test_quotes_copied_around_stop_still_stop() -> None:
    assert p("“STOP”").name == "stop"


@pytest.mark.parametrize("text", ["hello 5", "ABC-1", "XYZ 12", "പിവിഎൽ-3"])
def test_a_number_that_names_no_pound_is_no_case(text: str) -> None:
    with pytest.raises(ParseError) as refused:
        p(text)
    assert refused.value.code == "unknown_command"


def test_a_code_in_other_letters_is_read_only_when_it_spells_one_configured_code() -> None:
    assert latin_code("പിവിഎൽ", ["PVL", "KNM"]) == "PVL"
    assert latin_code("பிடிஎம்", ["PTM"]) == "PTM"
    # In Tamil பி is B and P, டி is D and T: two pounds it may spell, none is read.
    assert latin_code("பிடிஎம்", ["PTM", "BDM"]) is None
    assert latin_code("കുടിശ്ശിക", ["KNM", "PTM", "ENM", "VTV"]) is None
    assert latin_code("KNM", ["KNM"]) is None  # Latin letters are read as they are


def test_letters_are_counted_as_people_see_them() -> None:
    assert letters("കുടിശ്ശിക") == ["കു", "ടി", "ശ്ശി", "ക"]
    assert letters("கட்டணம்") == ["க", "ட்ட", "ண", "ம்"]
    assert one_edit_apart("കുടിശിക", "കുടിശ്ശിക")  # ശി for ശ്ശി: one letter
    assert one_edit_apart("STAUTS", "STATUS")  # two neighbours swapped
    assert not one_edit_apart("OWE", "ONE")  # too short to guess
    assert not one_edit_apart("STATUS", "STATUS")


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("STATSU", "status"),
        ("DEPOSTI", "deposit"),
        ("FINDD", "find"),
        ("HELPP", "help"),
        ("LANGG", "lang"),
        ("kudishik", "dues"),
        ("sthithy", "status"),
        ("കുടിശ്ശിക്ക", "dues"),
    ],
)
def test_a_word_one_letter_off_an_owners_word_is_read_as_it(typed: str, command: str) -> None:
    args = " black" if command == "find" else (" en" if command == "lang" else " KNM-1")
    parsed = read_line(typed + args, CONFIG, TODAY)
    assert parsed.order.name == command
    assert parsed.read_as is not None
    assert parsed.typed == typed


@pytest.mark.parametrize(
    "typed",
    [
        "DEPOSITD",  # DEPOSIT and DEPOSITED (a keeper's) are both one letter away
        "CASEZ",  # CASE and CASES
        "STOPP",
        "SOTP",
        "STARTT",
        "STRAT",
        "QUITT",
        "UNSUBSCRIBEE",
        "നിർത്തുകാ",
        "PAIDD",
        "SIEZE",
        "NOTISE",
        "REPORTT",
        "SOLDD",
        "REFUSEDD",
        "CORRECTT",
    ],
)
def test_never_stop_start_a_staff_word_or_an_ambiguous_one(typed: str) -> None:
    assert close_keyword(typed) is None
    with pytest.raises(ParseError) as refused:
        p(f"{typed} KNM-1")
    assert refused.value.code == "unknown_command"


def test_cases_and_case_are_their_own_words_not_one_another() -> None:
    assert p("case KNM-1").name == "status"
    assert p("cases").name == "cases"


def test_the_search_vocabulary_has_sixty_entries_in_four_languages_and_latin() -> None:
    entries = vocabulary()
    assert len(entries) >= 60
    for entry in entries:
        assert all(entry[lang] for lang in LANGUAGES), entry
    assert "black" in search_terms("കറുത്ത", CONFIG.kind_words)
    assert "കറുത്ത" in search_terms("karutha", CONFIG.kind_words)
    buffalo = search_terms("എരുമ", CONFIG.kind_words)
    assert {"buffalo", "எருமை", "ಎಮ್ಮೆ"} <= set(buffalo)


def test_docs_commands_lists_every_search_word_and_every_owners_word() -> None:
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    missing = [
        word
        for entry in vocabulary()
        for words in entry.values()
        for word in words
        if not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)
    ]
    missing += [w for words in TABLE.values() for w in words.split() if w not in text]
    missing += [w for words in SHARED.values() for w in words if w.lower() not in text.lower()]
    assert not missing, f"docs/commands.md lacks: {missing}"


def test_the_owners_card_lists_the_owners_words() -> None:
    text = (DOCS / "owners-card.md").read_text(encoding="utf-8")
    missing = [w for words in TABLE.values() for w in words.split() if w not in text]
    assert not missing, f"docs/owners-card.md lacks: {missing}"
