"""The words of the one-line commands, in English, Malayalam, Tamil and Kannada.

Each command has an English keyword (what HELP shows first) and synonyms per
language. Matching ignores case, extra spaces and punctuation around the word; the
README and the HELP reply list the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.config import normalize_word

__all__ = ["CONNECTIVES", "KEYWORDS", "OUTCOMES", "keyword_of", "outcome_of"]

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
        "dispose": {
            "en": ("DISPOSE",),
            "ml": ("വിനിയോഗിച്ചു",),
            "ta": ("அப்புறப்படுத்தினோம்",),
            "kn": ("ವಿಲೇವಾರಿ",),
        },
        "outcome": {"en": ("OUTCOME",), "ml": ("ഫലം",), "ta": ("முடிவு",), "kn": ("ಫಲಿತಾಂಶ",)},
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
    }
)

#: Connecting words inside a command: AT <place>, ON <date>, BY <person>, TO <buyer>,
#: REF <reference>, OWNER <name> [<phone>], HOW <manner>. BY names a seizer, a claimant or
#: who ordered a disposal: in Malayalam, Tamil and Kannada "seized by" and a plain "by".
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

_KEYWORD_INDEX = _index(KEYWORDS)
CONNECTIVE_INDEX = _index(CONNECTIVES)
_OUTCOME_INDEX = _index(OUTCOMES)


def keyword_of(word: str) -> tuple[str, str] | None:
    """(command, language) that ``word`` names, or None."""
    return _KEYWORD_INDEX.get(normalize_word(word.strip(".,:;!-")))


def outcome_of(word: str) -> str | None:
    """``upheld`` or ``illegal``, the outcome that ``word`` names, or None."""
    found = _OUTCOME_INDEX.get(normalize_word(word.strip(".,:;!-")))
    return found[0] if found else None
