"""The words of the one-line commands, in English, Malayalam, Tamil and Kannada.

Each command has an English keyword (what HELP shows first) and synonyms per
language. Matching ignores case, extra spaces and punctuation around the word; the
README and the HELP reply list the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.config import normalize_word

__all__ = ["CONNECTIVES", "FIELDS", "KEYWORDS", "field_of", "keyword_of"]

#: command -> language -> words. The English keyword is the first English word.
KEYWORDS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        # anyone
        "help": {"en": ("HELP", "?", "MENU"), "ml": ("സഹായം",), "ta": ("உதவி",), "kn": ("ಸಹಾಯ",)},
        "dues": {
            "en": ("DUES", "DUE?", "OWE"),
            "ml": ("കുടിശ്ശിക", "തുക"),
            "ta": ("கட்டணம்", "பாக்கி"),
            "kn": ("ಬಾಕಿ", "ಶುಲ್ಕ"),
        },
        "deposit": {
            "en": ("DEPOSIT",),
            "ml": ("കെട്ടിവയ്പ്പ്", "ഡെപ്പോസിറ്റ്"),
            "ta": ("வைப்பு",),
            "kn": ("ಠೇವಣಿ",),
        },
        "find": {
            "en": ("FIND", "SEARCH"),
            "ml": ("തിരയുക", "കണ്ടെത്തുക"),
            "ta": ("தேடு",),
            "kn": ("ಹುಡುಕು",),
        },
        "status": {
            "en": ("STATUS", "CASE"),
            "ml": ("സ്ഥിതി",),
            "ta": ("நிலை",),
            "kn": ("ಸ್ಥಿತಿ",),
        },
        "lang": {"en": ("LANG", "LANGUAGE"), "ml": ("ഭാഷ",), "ta": ("மொழி",), "kn": ("ಭಾಷೆ",)},
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
        "notice": {"en": ("NOTICE",), "ml": ("നോട്ടീസ്",), "ta": ("அறிவிப்பு",), "kn": ("ಸೂಚನೆ",)},
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
        # the keeper who recorded a case, or an officer of its authority (s.7)
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
#: BECAUSE <reason> (of a correction or a voiding).
CONNECTIVES: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "at": {"en": ("AT",), "ml": ("സ്ഥലം",), "ta": ("இடம்",), "kn": ("ಸ್ಥಳ",)},
        "on": {"en": ("ON",), "ml": ("തീയതി",), "ta": ("தேதி",), "kn": ("ದಿನಾಂಕ",)},
        "by": {"en": ("BY",), "ml": ("പിടിച്ചത്",), "ta": ("பிடித்தவர்",), "kn": ("ಹಿಡಿದವರು",)},
        "to": {"en": ("TO",), "ml": ("വാങ്ങിയത്",), "ta": ("வாங்கியவர்",), "kn": ("ಖರೀದಿದಾರ",)},
        "ref": {"en": ("REF",), "ml": ("നമ്പർ",), "ta": ("எண்",), "kn": ("ಸಂಖ್ಯೆ",)},
        "owner": {"en": ("OWNER",), "ml": ("ഉടമ",), "ta": ("உரிமையாளர்",), "kn": ("ಮಾಲೀಕ",)},
        "seized": {
            "en": ("SEIZED",),
            "ml": ("പിടിച്ചദിവസം",),
            "ta": ("பிடித்ததேதி",),
            "kn": ("ಹಿಡಿದದಿನಾಂಕ",),
        },
        "because": {"en": ("BECAUSE",), "ml": ("കാരണം",), "ta": ("காரணம்",), "kn": ("ಕಾರಣ",)},
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


_KEYWORD_INDEX = _index(KEYWORDS)
CONNECTIVE_INDEX = _index(CONNECTIVES)
FIELD_INDEX = _index(FIELDS)


def keyword_of(word: str) -> tuple[str, str] | None:
    """(command, language) that ``word`` names, or None."""
    return _KEYWORD_INDEX.get(normalize_word(word.strip(".,:;!-")))


def field_of(word: str) -> str | None:
    """The seizure fact (``FIELDS``) that ``word`` names in a CORRECT line, or None."""
    found = FIELD_INDEX.get(normalize_word(word.strip(".,:;!-")))
    return found[0] if found else None
