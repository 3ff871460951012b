"""The words of the one-line commands, in English, Malayalam, Tamil and Kannada.

Each command has an English keyword (what HELP shows first) and synonyms per
language. Matching ignores case, extra spaces and punctuation around the word; the
HELP reply, docs/keepers-card.md, docs/owners-card.md and docs/commands.md list the
same words. A word in Latin letters listed under Malayalam (``pizha``) is Malayalam
written as owners text it; ``SHARED`` words are the same in several languages and keep
the sender's language. ``close_keyword`` reads a word one letter away from an owner's
word (``bot.support.spelling``).

Why it is long: it is the table of every word of every command in four languages, in
one place so that no two commands share a word (``_index`` refuses it).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.support.spelling import normalize_word, one_edit_apart

__all__ = [
    "BUYER_TITLES",
    "BUYER_TITLES_ALL",
    "CONNECTIVES",
    "FIELDS",
    "KEYWORDS",
    "LANGUAGE_NAMES",
    "OUTCOMES",
    "OWNER_WORDS",
    "SHARED",
    "close_keyword",
    "field_of",
    "keyword_of",
    "language_named",
    "outcome_of",
]

#: command -> language -> words. The English keyword is the first English word.
KEYWORDS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        # anyone
        # The owners' words: the first of a language is the one replies and HELP name;
        # the others are the spellings owners use, in the script and in Latin letters
        # (Manglish; a Malayalam word in Latin letters is Malayalam).
        "help": {
            "en": ("HELP", "?", "MENU"),
            "ml": ("സഹായം", "sahayam"),
            "ta": ("உதவி",),
            "kn": ("ಸಹಾಯ",),
        },
        "dues": {
            "en": ("DUES", "DUE", "OWE"),
            "ml": (
                "കുടിശ്ശിക",
                "തുക",
                "പിഴ",
                "കുടിശിക",
                "എത്ര",
                "ഫൈൻ",
                "ബാക്കി",
                "pizha",
                "piza",
                "kudissika",
                "kudishika",
                "kudisika",
                "thuka",
                "tuka",
                "ethra",
            ),
            "ta": ("கட்டணம்", "பாக்கி", "நிலுவை", "அபராதம்", "தொகை", "niluvai", "abaradham"),
            "kn": ("ಬಾಕಿ", "ಶುಲ್ಕ", "ದಂಡ", "ಮೊತ್ತ", "danda"),
        },
        "deposit": {
            "en": ("DEPOSIT",),
            "ml": (
                "കെട്ടിവയ്പ്പ്",
                "ഡെപ്പോസിറ്റ്",
                "കെട്ടിവയ്പ്",
                "കെട്ടിവെപ്പ്",
                "കെട്ടിവയ്ക്കൽ",
                "കെട്ടിവെക്കൽ",
                "ഡിപ്പോസിറ്റ്",
                "kettivaykkal",
                "kettivekkal",
                "kettiveppu",
                "kettivaippu",
            ),
            "ta": ("வைப்பு",),
            "kn": ("ಠೇವಣಿ",),
        },
        "find": {
            "en": ("FIND", "SEARCH"),
            "ml": (
                "തിരയുക",
                "കണ്ടെത്തുക",
                "തിരയൂ",
                "തേടുക",
                "അന്വേഷണം",
                "thirayuka",
                "thiraya",
                "theduka",
            ),
            "ta": ("தேடு",),
            "kn": ("ಹುಡುಕು",),
        },
        "status": {
            "en": ("STATUS", "CASE"),
            "ml": ("സ്ഥിതി", "വിവരം", "നില", "കേസ്", "sthithi", "sthiti", "vivaram", "nila"),
            "ta": ("நிலை",),
            "kn": ("ಸ್ಥಿತಿ",),
        },
        # LANG, and the name of a language alone: that language (``LANGUAGE_NAMES``).
        "lang": {
            "en": ("LANG", "LANGUAGE", "ENGLISH"),
            "ml": ("ഭാഷ", "മലയാളം", "ഇംഗ്ലീഷ്", "bhasha", "malayalam"),
            "ta": ("மொழி", "தமிழ்", "tamil"),
            "kn": ("ಭಾಷೆ", "ಕನ್ನಡ", "kannada"),
        },
        "stop": {
            "en": ("STOP", "UNSUBSCRIBE", "STOPALL", "CANCEL", "END", "QUIT"),
            "ml": ("നിർത്തുക",),
            "ta": ("நிறுத்து",),
            "kn": ("ನಿಲ್ಲಿಸು",),
        },
        "start": {
            "en": ("START", "UNSTOP", "SUBSCRIBE"),
            "ml": ("തുടങ്ങുക",),
            "ta": ("தொடங்கு",),
            "kn": ("ಪ್ರಾರಂಭ",),
        },
        # pound-keepers
        "seize": {
            "en": ("SEIZE", "SEIZED", "IMPOUND"),
            "ml": ("പിടിച്ചെടുത്തു", "പിടിച്ചു"),
            "ta": ("பிடிப்பு",),
            "kn": ("ವಶ",),
        },
        "photo": {
            "en": ("PHOTO", "PIC"),
            "ml": ("ഫോട്ടോ", "ചിത്രം"),
            "ta": ("புகைப்படம்", "படம்"),
            "kn": ("ಫೋಟೋ", "ಚಿತ್ರ"),
        },
        "paid": {
            "en": ("PAID", "RELEASE"),
            "ml": ("അടച്ചു",),
            "ta": ("செலுத்தினார்",),
            "kn": ("ಪಾವತಿ",),
        },
        "deposited": {
            "en": ("DEPOSITED", "PROTEST"),
            "ml": ("കെട്ടിവച്ചു",),
            "ta": ("வைப்புசெலுத்தினார்",),
            "kn": ("ಠೇವಣಿಇಟ್ಟರು",),
        },
        "report": {
            "en": ("REPORT", "UNCLAIMED"),
            "ml": ("റിപ്പോർട്ട്",),
            "ta": ("அறிக்கை",),
            "kn": ("ವರದಿ",),
        },
        "refused": {
            "en": ("REFUSED", "NOPAY"),
            "ml": ("നിരസിച്ചു",),
            "ta": ("மறுத்தார்",),
            "kn": ("ನಿರಾಕರಿಸಿದರು",),
        },
        "cases": {
            "en": ("CASES", "LIST"),
            "ml": ("കേസുകൾ",),
            "ta": ("வழக்குகள்",),
            "kn": ("ಪ್ರಕರಣಗಳು",),
        },
        # officers
        "notice": {
            "en": ("NOTICE",),
            "ml": ("നോട്ടീസ്",),
            "ta": ("அறிவிப்பு",),
            "kn": ("ನೋಟಿಸ್", "ಸೂಚನೆ"),
        },
        "auction": {"en": ("AUCTION",), "ml": ("ലേലം",), "ta": ("ஏலம்",), "kn": ("ಹರಾಜು",)},
        "sold": {"en": ("SOLD",), "ml": ("വിറ്റു",), "ta": ("விற்றது",), "kn": ("ಮಾರಾಟ",)},
        "unsold": {
            "en": ("UNSOLD",),
            "ml": ("വിറ്റില്ല",),
            "ta": ("விற்கவில்லை",),
            "kn": ("ಮಾರಾಟವಾಗಿಲ್ಲ",),
        },
        "settle": {"en": ("SETTLE",), "ml": ("തീർപ്പ്",), "ta": ("தீர்வு",), "kn": ("ಇತ್ಯರ್ಥ",)},
        "receipt": {"en": ("RECEIPT",), "ml": ("രസീത്",), "ta": ("ரசீது",), "kn": ("ರಸೀದಿ",)},
        "account_refused": {
            "en": ("NORECEIPT",),
            "ml": ("സ്വീകരിച്ചില്ല",),
            "ta": ("பெறவில்லை",),
            "kn": ("ಸ್ವೀಕರಿಸಿಲ್ಲ",),
        },
        "dispose": {
            "en": ("DISPOSE",),
            "ml": ("വിനിയോഗിച്ചു",),
            "ta": ("அப்புறப்படுத்தினோம்",),
            "kn": ("ವಿಲೇವಾರಿ",),
        },
        "outcome": {"en": ("OUTCOME",), "ml": ("ഫലം",), "ta": ("முடிவு",), "kn": ("ಫಲಿತಾಂಶ",)},
        "refunded": {
            "en": ("REFUNDED",),
            "ml": ("തിരികെനൽകി",),
            "ta": ("திருப்பியளிப்பு",),
            "kn": ("ಮರುಪಾವತಿ",),
        },
        "claimed": {
            "en": ("CLAIMED",),
            "ml": ("അവകാശവാദം",),
            "ta": ("கோரிக்கை",),
            "kn": ("ಹಕ್ಕುಮಂಡನೆ",),
        },
        "reject": {
            "en": ("REJECT",),
            "ml": ("തള്ളി",),
            "ta": ("நிராகரிப்பு",),
            "kn": ("ತಿರಸ್ಕಾರ",),
        },
        "claim": {"en": ("CLAIM",), "ml": ("അവകാശം",), "ta": ("உரிமைகோரல்",), "kn": ("ಹಕ್ಕು",)},
        "fund": {"en": ("FUND",), "ml": ("ഫണ്ട്",), "ta": ("நிதி",), "kn": ("ನಿಧಿ",)},
        "due": {
            "en": ("DEADLINES", "TODAY"),
            "ml": ("സമയപരിധി",),
            "ta": ("காலக்கெடு",),
            "kn": ("ಗಡುವು",),
        },
        "register": {"en": ("REGISTER",), "ml": ("രജിസ്റ്റർ",), "ta": ("பதிவேடு",), "kn": ("ನೋಂದಣಿ",)},
        # keepers, officers and admins: a sign-in link of the web desk
        "web": {"en": ("WEB", "DESK"), "ml": ("വെബ്",), "ta": ("இணையம்",), "kn": ("ವೆಬ್",)},
        # the keeper who recorded a case (the pound's, when an officer recorded it), or an
        # officer of its authority (s.7)
        "correct": {
            "en": ("CORRECT", "CORRECTION"),
            "ml": ("തിരുത്തുക", "തിരുത്ത്"),
            "ta": ("திருத்து",),
            "kn": ("ತಿದ್ದು",),
        },
        "void": {
            "en": ("VOID",),
            "ml": ("റദ്ദാക്കുക",),
            "ta": ("ரத்துசெய்",),
            "kn": ("ರದ್ದುಮಾಡು",),
        },
    }
)

#: Connecting words inside a command: AT <place>, ON <date>, BY <person>, TO <buyer>,
#: REF <reference>, OWNER <name> [<phone>], SEIZED <date> (the day of seizure, s.19),
#: PREFERRED <date> (the day a claim to a deposit was preferred, s.16(3)),
#: BECAUSE <reason> (of a correction or a voiding), EXPENSES <rupees> (s.15(2)),
#: DECLARED (the buyer's s.18 declaration, a word with nothing after it), HOW <manner>.
#: BY names a seizer, a claimant or who ordered a disposal: in Malayalam, Tamil and
#: Kannada "seized by" and a plain "by".
CONNECTIVES: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "at": {"en": ("AT",), "ml": ("സ്ഥലം",), "ta": ("இடம்",), "kn": ("ಸ್ಥಳ",)},
        "on": {"en": ("ON",), "ml": ("തീയതി",), "ta": ("தேதி",), "kn": ("ದಿನಾಂಕ",)},
        "by": {
            "en": ("BY",),
            "ml": ("പിടിച്ചത്", "മുഖേന"),
            "ta": ("பிடித்தவர்", "மூலம்"),
            "kn": ("ಹಿಡಿದವರು", "ಮೂಲಕ"),
        },
        "how": {"en": ("HOW",), "ml": ("വിധം",), "ta": ("விதம்",), "kn": ("ವಿಧಾನ",)},
        "to": {"en": ("TO",), "ml": ("വാങ്ങിയത്",), "ta": ("வாங்கியவர்",), "kn": ("ಖರೀದಿದಾರ",)},
        "ref": {"en": ("REF",), "ml": ("നമ്പർ",), "ta": ("எண்",), "kn": ("ಸಂಖ್ಯೆ",)},
        "owner": {"en": ("OWNER",), "ml": ("ഉടമ",), "ta": ("உரிமையாளர்",), "kn": ("ಮಾಲೀಕ",)},
        "lot": {"en": ("LOT",), "ml": ("ലോട്ട്",), "ta": ("தொகுதி",), "kn": ("ಲಾಟ್",)},
        "seized": {
            "en": ("SEIZED",),
            "ml": ("പിടിച്ചദിവസം",),
            "ta": ("பிடித்ததேதி",),
            "kn": ("ಹಿಡಿದದಿನಾಂಕ",),
        },
        "preferred": {
            "en": ("PREFERRED",),
            "ml": ("ഉന്നയിച്ചദിവസം",),
            "ta": ("கோரியதேதி",),
            "kn": ("ಮಂಡಿಸಿದದಿನಾಂಕ",),
        },
        "because": {"en": ("BECAUSE",), "ml": ("കാരണം",), "ta": ("காரணம்",), "kn": ("ಕಾರಣ",)},
        "expenses": {"en": ("EXPENSES",), "ml": ("ചെലവ്",), "ta": ("செலவு",), "kn": ("ವೆಚ್ಚ",)},
        "declared": {
            "en": ("DECLARED",),
            "ml": ("സത്യപ്രസ്താവന",),
            "ta": ("உறுதிமொழி",),
            "kn": ("ಘೋಷಣೆ",),
        },
    }
)

#: The facts of a seizure report that CORRECT may change (s.7): the field's own word,
#: and the connecting word the same fact takes in SEIZE (AT, ON, BY, SEIZED, OWNER).
FIELDS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "cattle": {
            "en": ("CATTLE", "LOTS"),
            "ml": ("കന്നുകാലി",),
            "ta": ("கால்நடை",),
            "kn": ("ಜಾನುವಾರು",),
        },
        "place": {
            "en": ("PLACE", "AT"),
            "ml": ("സ്ഥലം",),
            "ta": ("இடம்",),
            "kn": ("ಸ್ಥಳ",),
        },
        "brought": {
            "en": ("BROUGHT", "ON"),
            "ml": ("കൊണ്ടുവന്നത്", "തീയതി"),
            "ta": ("கொண்டுவந்தது", "தேதி"),
            "kn": ("ತಂದದ್ದು", "ದಿನಾಂಕ"),
        },
        "seized": {
            "en": ("SEIZED",),
            "ml": ("പിടിച്ചദിവസം",),
            "ta": ("பிடித்ததேதி",),
            "kn": ("ಹಿಡಿದದಿನಾಂಕ",),
        },
        "seizer": {
            "en": ("SEIZER", "BY"),
            "ml": ("പിടിച്ചത്",),
            "ta": ("பிடித்தவர்",),
            "kn": ("ಹಿಡಿದವರು",),
        },
        "owner": {"en": ("OWNER",), "ml": ("ഉടമ",), "ta": ("உரிமையாளர்",), "kn": ("ಮಾಲೀಕ",)},
    }
)

#: s.18: words that, in a buyer's name or residence, name an office whose holder may not
#: buy at a pound sale ("SI Suresh, Kunnamangalam police station", "Ward member
#: Jameela"), per barred class and language. The classes barred are the configuration's
#: ``[policy] barred_buyers``; these words only recognise them.
BUYER_TITLES: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "police_officer": {
            "en": (
                "police",
                "policeman",
                "SI",
                "ASI",
                "CI",
                "SHO",
                "DySP",
                "constable",
                "sub-inspector",
                "circle inspector",
                "station house officer",
            ),
            "ml": ("പോലീസ്", "പൊലീസ്", "എസ്ഐ", "എസ്.ഐ", "സിഐ", "കോൺസ്റ്റബിൾ", "ഇൻസ്പെക്ടർ"),
            "ta": ("காவல்", "போலீஸ்", "காவலர்", "காவல்துறை", "ஆய்வாளர்", "கான்ஸ்டபிள்"),
            "kn": ("ಪೊಲೀಸ್", "ಪೇದೆ", "ಇನ್ಸ್ಪೆಕ್ಟರ್", "ಕಾನ್ಸ್ಟೇಬಲ್"),
        },
        "officer": {
            "en": ("secretary", "assistant secretary", "panchayat officer", "municipal officer"),
            "ml": ("സെക്രട്ടറി", "അസിസ്റ്റന്റ് സെക്രട്ടറി"),
            "ta": ("செயலாளர்", "செயலர்"),
            "kn": ("ಕಾರ್ಯದರ್ಶಿ",),
        },
        "member": {
            "en": ("member", "ward member", "councillor", "councilor", "president", "chairperson"),
            "ml": ("മെമ്പർ", "മെംബർ", "അംഗം", "കൗൺസിലർ", "പ്രസിഡന്റ്"),
            "ta": ("உறுப்பினர்", "கவுன்சிலர்", "தலைவர்"),
            "kn": ("ಸದಸ್ಯ", "ಸದಸ್ಯೆ", "ಅಧ್ಯಕ್ಷ", "ಅಧ್ಯಕ್ಷೆ"),
        },
        "pound_keeper": {
            "en": ("pound-keeper", "pound keeper", "poundkeeper"),
            "ml": ("പൗണ്ട് കീപ്പർ", "പൗണ്ട്കീപ്പർ", "ആലയം സൂക്ഷിപ്പുകാരൻ"),
            "ta": ("பட்டிக் காப்பாளர்", "பட்டி காப்பாளர்"),
            "kn": ("ದೊಡ್ಡಿ ಪಾಲಕ",),
        },
    }
)

#: The same words, every language together (a buyer's description may mix them).
BUYER_TITLES_ALL: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        barred_as: tuple(word for words in by_lang.values() for word in words)
        for barred_as, by_lang in BUYER_TITLES.items()
    }
)


def _index(table: Mapping[str, Mapping[str, tuple[str, ...]]]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for name, by_lang in table.items():
        for lang, words in by_lang.items():
            for word in words:
                key = normalize_word(word)
                if key in out and out[key][0] != name:
                    raise ValueError(f"{word!r} names both {out[key][0]} and {name}")
                out[key] = (name, lang)
    return out


#: What became of a deposit under protest (OUTCOME): the seizure upheld, or found illegal.
OUTCOMES: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "upheld": {
            "en": ("UPHELD",),
            "ml": ("ശരിവച്ചു",),
            "ta": ("உறுதிசெய்யப்பட்டது",),
            "kn": ("ಎತ್ತಿಹಿಡಿಯಲಾಗಿದೆ",),
        },
        "illegal": {
            "en": ("ILLEGAL",),
            "ml": ("നിയമവിരുദ്ധം",),
            "ta": ("சட்டவிரோதம்",),
            "kn": ("ಕಾನೂನುಬಾಹಿರ",),
        },
    }
)

#: Words of a command shared by several languages (an owner's "fine", "baaki"): they
#: keep the language the sender is answered in.
SHARED: Mapping[str, tuple[str, ...]] = MappingProxyType({"dues": ("FINE", "BAAKI", "BAKI")})

#: The commands a word one letter away may be read as: an owner's, and none that
#: changes anything a person relies on (never STOP or START, never a step on a case).
OWNER_WORDS = frozenset({"dues", "deposit", "status", "find", "help", "lang"})

#: The names of the languages, as LANG takes them (``LANG malayalam``, ``ഭാഷ ഇംഗ്ലീഷ്``),
#: or alone (``english``).
LANGUAGE_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "ml": ("ml", "malayalam", "മലയാളം", "மலையாளம்", "ಮಲಯಾಳಂ", "mal"),
        "en": ("en", "english", "ഇംഗ്ലീഷ്", "ആംഗലേയം", "ஆங்கிலம்", "ಇಂಗ್ಲಿಷ್", "eng"),
        "ta": ("ta", "tamil", "തമിഴ്", "தமிழ்", "ತಮಿಳು", "tam"),
        "kn": ("kn", "kannada", "കന്നഡ", "கன்னடம்", "ಕನ್ನಡ", "kan"),
    }
)
_LANGUAGE_INDEX = {
    normalize_word(name): code for code, names in LANGUAGE_NAMES.items() for name in names
}

_KEYWORD_INDEX = _index(KEYWORDS)
for _name, _words in SHARED.items():
    for _word in _words:
        if normalize_word(_word) in _KEYWORD_INDEX:
            raise ValueError(f"{_word!r} is both shared and a word of one language")
        # Read as English words are: the answer keeps the sender's language.
        _KEYWORD_INDEX[normalize_word(_word)] = (_name, "en")
CONNECTIVE_INDEX = _index(CONNECTIVES)
FIELD_INDEX = _index(FIELDS)
_OUTCOME_INDEX = _index(OUTCOMES)


def keyword_of(word: str) -> tuple[str, str] | None:
    """(command, language) that ``word`` names, or None; a ``SHARED`` word is "en", as
    an English word is (the answer keeps the sender's language)."""
    return _KEYWORD_INDEX.get(normalize_word(word.strip(".,:;!-")))


def close_keyword(word: str) -> tuple[str, str, str] | None:
    """(command, language, the word it is read as) for a word that is no command word
    but one letter (a letter as people see it) away from exactly one, and that one an
    owner's word (``OWNER_WORDS``); else None. Short words are never read so."""
    typed = normalize_word(word.strip(".,:;!-"))
    near = [known for known in _KEYWORD_INDEX if one_edit_apart(typed, known)]
    if len(near) != 1:
        return None
    name, lang = _KEYWORD_INDEX[near[0]]
    return (name, lang, near[0]) if name in OWNER_WORDS else None


def language_named(word: str) -> str | None:
    """The language code ``word`` names (``ml``, ``malayalam``, ``ഇംഗ്ലീഷ്``), or None."""
    return _LANGUAGE_INDEX.get(normalize_word(word.strip(".,:;!-")))


def field_of(word: str) -> str | None:
    """The seizure fact (``FIELDS``) that ``word`` names in a CORRECT line, or None."""
    found = FIELD_INDEX.get(normalize_word(word.strip(".,:;!-")))
    return found[0] if found else None


def outcome_of(word: str) -> str | None:
    """``upheld`` or ``illegal``, the outcome that ``word`` names, or None."""
    found = _OUTCOME_INDEX.get(normalize_word(word.strip(".,:;!-")))
    return found[0] if found else None
