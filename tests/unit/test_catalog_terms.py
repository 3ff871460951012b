"""The catalogs' words: one term per concept, no calques, Tamil verbs that agree with one
animal and ask officers politely, Malayalam welcomes that do not make the role the
predicate, and one spelling of each name (locales/GLOSSARY.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from bot.i18n import translator
from bot.i18n.catalogs import LOCALES_DIR, read_catalog

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("ml", "ta", "kn")


@dataclass(frozen=True, slots=True)
class Term:
    """A concept, the term the glossary chose for it, and the words that must not stand
    for it. ``english``, when set, limits the check to messages whose English matches."""

    concept: str
    chosen: str
    forbidden: str
    english: str | None = None


#: Pattern 3: one term per concept, per language (GLOSSARY.md "Legal terms").
TERMS: dict[str, tuple[Term, ...]] = {
    "ml": (
        Term("cattle", "കന്നുകാലി", "ഉരു"),
        Term("deposit (s.14; s.16(3) is നിക്ഷേപം)", "കെട്ടിവയ്ക്കൽ", "കെട്ടിവയ്പ"),
        Term("claim established", "തെളിയിക്കപ്പെടുക", "സ്ഥാപിക്ക|സ്ഥാപിച്ച"),
        Term("too early", "സമയമായിട്ടില്ല", "നേരത്തെയായി"),
        Term("reported unclaimed", "ആരും അവകാശപ്പെട്ടില്ലെന്ന്", "അവകാശികളില്ല"),
        Term("the s.18 declaration (not an affidavit)", "സത്യപ്രസ്താവന", "സത്യവാങ്മൂലം"),
        Term("proviso", "പരന്തുകം", "വ്യവസ്ഥ", english=r"proviso"),
        Term("public auction", "പരസ്യലേലം", "പൊതുലേല|പൊതു ലേല"),
    ),
    "ta": (
        Term("claim established", "நிரூபிக்கப்படு", "நிறுவப்|நிறுவ "),
        Term("too early", "இன்னும் காலம் வரவில்லை", "முன்கூட்டியே"),
        Term("seizure (the other word is the SEIZE command)", "கைப்பற்றல்", "பிடிப்பு"),
        Term("pound-keeper", "பட்டிக் காப்பாளர்", "பட்டி காப்பாளர்"),
        Term("proclamation by beat of drum", "தண்டோரா", "பறையறிவிப்பு"),
        Term("the operator (the other word is the Director)", "பொறுப்பாளர்", "இயக்குநர", r"operator"),
    ),
    "kn": (
        Term("local authority", "ಸ್ಥಳೀಯ ಸಂಸ್ಥೆ", "ಪ್ರಾಧಿಕಾರ"),
        Term("feeding and watering charges", "ಮೇವು", "ಆಹಾರ"),
        Term("public auction", "ಬಹಿರಂಗ ಹರಾಜು", "ಸಾರ್ವಜನಿಕ ಹರಾಜ"),
        # ಅಧಿಸೂಚನೆ is a notification (of a rate, s.4, s.11), not a notice
        Term("notice", "ನೋಟಿಸ್", "(?<!ಅಧಿ)ಸೂಚನೆ"),
        Term("claim established", "ಸಾಬೀತಾಗು", "ಸ್ಥಾಪಿ"),
        Term("too early", "ಇನ್ನೂ ಸಮಯವಾಗಿಲ್ಲ", "ಬೇಗನೆ"),
        Term("lot", "ಲಾಟ್", "ಗುಂಪು|ಗುಂಪಿನ|ಗುಂಪನ್ನು"),
        Term("under protest", "ಆಕ್ಷೇಪಣೆಯೊಂದಿಗೆ", "ಪ್ರತಿಭಟನೆ"),
        Term("the seizure found illegal (a finding)", "ವಶಪಡಿಸಿಕೊಂಡದ್ದು", "ವಶಪಡಿಸಿಕೊಳ್ಳುವುದು ಕಾನೂನು"),
    ),
}

#: Pattern 5: calques, word for word from English, in any message.
CALQUES: dict[str, tuple[str, ...]] = {
    "ml": ("കാത്തിരിക്കുന്നു", "ഓടുന്നു", "ഇപ്പോൾത്തന്നെ"),
    "ta": ("காத்திருக்கிறது", "ஓடுகின்றன", "முதன்மையானவை"),
    "kn": ("ಕಾದಿದೆ", "ನಕ್ಷೆ"),
}

#: Pattern 7: one spelling of each word and name.
SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "ml": (("ടെലിഗ്രാം", "ടെലഗ്രാ"), ("കുന്ദമംഗലം", "കുന്നമംഗലം"), ("വില്പന", "വിൽപ്പന")),
    "ta": (("சொவ்வன்னூர்", "சௌவன்னூர்"),),
    "kn": (),
}

_QUOTED = re.compile(r"“[^”]*”|‘[^’]*’|'[^']*'|\"[^\"]*\"")


def _messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _english(message: Message) -> str:
    return str(message.id if isinstance(message.id, str) else message.id[0])


def _strings(message: Message) -> tuple[str, ...]:
    strings = message.string
    if isinstance(strings, tuple | list):
        return tuple(str(s) for s in strings)
    return (strings or "",)


def _prose(text: str) -> str:
    """The text without what stands in quotes (command words sent as they are)."""
    return _QUOTED.sub("", text)


def _offending(lang: str, forbidden: str, english: str | None = None) -> list[str]:
    pattern = re.compile(forbidden)
    return [
        f"{_english(m)[:60]!r}: {text}"
        for m in _messages(read_catalog(lang))
        if english is None or re.search(english, _english(m))
        for text in _strings(m)
        if pattern.search(_prose(text))
    ]


@pytest.mark.parametrize(
    ("lang", "term"),
    [(lang, term) for lang, terms in TERMS.items() for term in terms],
    ids=lambda v: v if isinstance(v, str) else v.concept,
)
def test_one_term_per_concept(lang: str, term: Term) -> None:
    assert _offending(lang, term.forbidden, term.english) == [], term.chosen


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_names_each_chosen_term(lang: str) -> None:
    glossary = (LOCALES_DIR / "GLOSSARY.md").read_text(encoding="utf-8")
    missing = [t.chosen for t in TERMS[lang] if t.chosen not in glossary]
    assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_calque_is_left(lang: str) -> None:
    assert _offending(lang, "|".join(CALQUES[lang])) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_word_and_name_has_one_spelling(lang: str) -> None:
    for chosen, other in SPELLINGS[lang]:
        assert _offending(lang, other) == [], chosen


def test_the_sample_configuration_spells_the_places_as_the_catalogs_do() -> None:
    text = (ROOT / "bot" / "sample_config.toml").read_text(encoding="utf-8")
    for lang in TRANSLATED:
        for _chosen, other in SPELLINGS[lang]:
            assert other not in text


# --- Tamil: one animal, and officers asked politely (pattern 4) -------------------

_LIST_SLOTS = re.compile(r"%\((cattle|heads)\)s")
#: A finite verb that tells number: plural -அன (விடுவிக்கப்பட்டன, மீதமுள்ளன) or
#: singular -அது (விற்கப்பட்டது); after a list of cattle neither fits both 1 and 2.
_NUMBERED_VERB = re.compile(r"\S+(ப்பட்டன|ப்பட்டது|ள்ளன|கின்றன|ந்தன)(?=[\s.;,()]|$)")


def test_a_tamil_verb_after_a_list_of_cattle_fits_one_animal_and_many() -> None:
    wrong = []
    for message in _messages(read_catalog("ta")):
        for text in _strings(message):
            for found in _LIST_SLOTS.finditer(text):
                clause = re.split(r"[.;:]", text[found.end() :], maxsplit=1)[0]
                clause = re.sub(r"\([^)]*\)", "", clause)
                if _NUMBERED_VERB.search(clause):
                    wrong.append(text)
    assert wrong == []


def test_one_animal_released_reads_in_the_singular_in_tamil() -> None:
    tr = translator("ta")
    text = tr.gettext("Case %(case)s: %(amount)s paid on %(date)s; %(cattle)s released (s.12).")
    one = text % {"case": "KNM-1", "amount": "₹500", "date": "1 மார். 2026", "cattle": "1 பசு"}
    assert "1 பசு விடுவிக்கப்பட்டன" not in one
    assert "1 பசு" in one


#: A bare Tamil imperative closing a sentence (செய். — "do."): to an officer or a
#: pound-keeper the polite -வும் form is written (செய்யவும்). Buttons may stay short.
_BARE_IMPERATIVE = re.compile(r"(?:^|\s)(செய்|அனுப்பு|கொடு|அளி|எழுது|பெறு|சேர்)(?=[.;]|$)")


#: Where the replies to staff are written (chrome/ and the templates hold the buttons).
_TO_STAFF = ("bot/i18n/officers/", "bot/i18n/keepers/", "bot/i18n/refusals/")


def test_tamil_asks_officers_and_keepers_in_the_polite_form() -> None:
    curt = [
        text
        for m in _messages(read_catalog("ta"))
        if any(path.startswith(_TO_STAFF) for path, _ in m.locations)
        for text in _strings(m)
        if _BARE_IMPERATIVE.search(_prose(text))
    ]
    assert curt == []


# --- Malayalam welcomes (pattern 6) -------------------------------------------------

#: "നിങ്ങൾ ഇപ്പോൾ … ഉദ്യോഗസ്ഥരാണ്": the role as the predicate of "you".
_ROLE_PREDICATE = re.compile(r"നിങ്ങൾ.*(രാണ്|റാണ്|ർ ആണ്)")


def test_a_malayalam_welcome_does_not_make_the_role_the_predicate() -> None:
    welcomes = [
        text
        for m in _messages(read_catalog("ml"))
        if _english(m).startswith("Welcome")
        for text in _strings(m)
    ]
    assert welcomes
    assert [t for t in welcomes if _ROLE_PREDICATE.search(t)] == []


# --- rows of the reading whose fault no general rule catches ------------------------

#: (language, English, what the translation must say, what it must no longer say)
ROWS = [
    (
        "ml",
        "Case %(case)s: deemed unclaimed (s.15(5)); the owner can pay nothing. The sale met "
        "%(met)s of the dues; %(unmet)s due on %(date)s is met from the sale of the rest "
        "(s.15(2)).",
        "ഇനി ഉടമയ്ക്ക് തുക അടയ്ക്കാനാവില്ല",  # the owner cannot pay, not "cannot be paid"
        "തുക നൽകാനാവില്ല",
    ),
    (
        "ml",
        "Case %(case)s: to dispute the seizure, deposit %(amount)s (dues on %(date)s) and "
        "take the cattle (s.14).",
        "(%(date)s-ലെ കണക്ക്)",  # the dues as on that day, not a deadline
        "(%(date)s വരെ)",
    ),
    (
        "ta",
        "Case %(case)s: the time to complain ended on %(complain_by)s (s.19), so no deposit "
        "(s.14). Pay %(amount)s to release the cattle (s.12).",
        "வைப்புத்தொகை செலுத்திக் கால்நடைகளைப் பெற இயலாது",
        "வைப்புத்தொகை இல்லை",
    ),
    (
        "kn",
        "Case %(case)s: the time to complain ended on %(complain_by)s (s.19), so no deposit "
        "(s.14). Pay %(amount)s to release the cattle (s.12).",
        "ಠೇವಣಿ ಇಟ್ಟು ಜಾನುವಾರುಗಳನ್ನು ಪಡೆಯಲು ಅವಕಾಶವಿಲ್ಲ",
        "ಠೇವಣಿ ಇಲ್ಲ",
    ),
    (
        "ta",
        "The pound-keeper reports them with %(report)s (s.13(1)); the notice and the public "
        "auction follow (s.13(2), s.13(3)).",
        "அறிக்கை அளிக்க வேண்டும்",  # the keeper reports; அறிவி is the officer's notice
        "அறிவிக்க வேண்டும்",
    ),
]


@pytest.mark.parametrize(("lang", "english", "says", "not_"), ROWS, ids=lambda v: str(v)[:24])
def test_a_row_of_the_reading_is_applied(lang: str, english: str, says: str, not_: str) -> None:
    text = translator(lang).gettext(english)
    assert text != english
    assert says in text
    assert not_ not in text


def test_the_auction_instruction_quotes_its_command_line_in_every_language() -> None:
    english = translator("en").gettext(AUCTION)
    assert '"%(sold)s ... %(to)s name, place %(declared)s"' in english
    assert english.isascii()  # GSM-7 by SMS: three dots, straight quotes
    for lang in TRANSLATED:
        text = translator(lang).gettext(AUCTION)
        assert re.search(r"“%\(sold\)s … %\(to\)s .+ %\(declared\)s”", text), lang
        assert "“%(unsold)s”" in text, lang


AUCTION = (
    'On that day record each lot as "%(sold)s ... %(to)s name, place %(declared)s" '
    "(%(declared)s: the buyer's declaration that they are not barred from buying, "
    's.18); if it is not sold, "%(unsold)s".'
)
