"""Which placeholders hold a name, and the case endings a name must not take.

A name (of a person, a place, a pound, an office, an authority) comes from the
configuration or from what an officer typed, whole: ``കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്``,
``Perla Market``. A case ending written after it in a translation cannot join it the way
Malayalam, Tamil and Kannada join endings to a word: ``%(place)s-ൽ`` prints
"ചന്ത-ൽ", ``%(place)s-இல்`` "சந்தை-இல்", ``%(place)s ನಲ್ಲಿ`` "ಸಂತೆ ನಲ್ಲಿ". So a name stands
after a label and a colon (``സ്ഥലം: %(place)s``), in brackets (``പൗണ്ടിൽ (%(pound)s)``)
or before a noun that takes the ending for it (``%(name)s എന്നയാളുടെ``); and not before
the noun the name already ends with (``%(pound)s പൗണ്ടിൽ`` prints "…കന്നുകാലി പൗണ്ട്
പൗണ്ടിൽ"). Dates, numbers, amounts and case codes keep their endings (``%(date)s-ന്``).

Every placeholder of the catalogs is classed here, as a name or not: a new placeholder
fails ``tests/unit/test_catalog_names.py`` until it is, so that someone decides.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = ["DATES", "DETACHED", "HEAD_NOUNS", "NAMES", "NOT_NAMES", "Ending", "endings_on_names"]

#: Placeholders that hold a name: of a place, a pound, a village, a market, an
#: authority, an office, a person (an owner, a claimant, a buyer) or who ordered a step.
#: ``by`` is also the BY word of a command line in the examples of refusals: a command
#: word takes no ending either.
NAMES: Final = frozenset(
    {
        "place",
        "places",
        "pound",
        "village",
        "market",
        "authority",
        "office",
        "name",
        "names",
        "buyer",
        "claimant",
        "by",
        "who",
    }
)

#: Placeholders that hold a date (or a time): written in digits and a month, it takes its
#: ending like any word (``%(date)s-ന്``, ``%(date)s ರಂದು``) and is never set off by quotes,
#: which mark a command to send.
DATES: Final = frozenset(
    {
        "complain_by",
        "corrected",
        "date",
        "deposited",
        "from",
        "impounded",
        "last",
        "notice_on",
        "now",
        "preferred",
        "reported",
        "since",
        "time",
        "until",
        "when",
        "year",
    }
)

#: Placeholders that hold no name, grouped by what they hold. A date, a number, an
#: amount or a case code is written in digits and takes its ending (``%(date)s-ന്``).
NOT_NAMES: Final = DATES | frozenset(
    {
        # the desk's imports: a column's heading, a line's number, a file's size
        # limit, a portal's status, a role's word (which takes its ending), a reader's
        # reason in English
        "column",
        "columns",
        "line",
        "size",
        "status",
        "role",
        "detail",
        # numbers: a configuration's version, how many have an id
        "version",
        "with",
        # a line's reason for being refused, a sentence of its own
        "why",
        # amounts
        "amount",
        "balance",
        "charges",
        "daily",
        "deducted",
        "due",
        "expenses",
        "feeding",
        "fines",
        "given",
        "met",
        "owed",
        "paid",
        "price",
        "proceeds",
        "rate",
        "short",
        "total",
        "unmet",
        # numbers and counts
        "count",
        "days",
        "disposed",
        "kept",
        "least",
        "lot",
        "lots",
        "mb",
        "months",
        "mp",
        "n",
        "para",
        "section",
        "seized",
        "sold",
        # case numbers, references, codes, links
        "case",
        "cases",
        "code",
        "codes",
        "id",
        "ref",
        "url",
        # commands and the words of command lines (set off by quotes), with the values of
        # their examples; ``auction`` is the AUCTION word, and a date where no command is
        # named (``The auction fixed for %(auction)s``)
        "at",
        "auction",
        "because",
        "claim",
        "command",
        "commands",
        "correct",
        "declared",
        "dues",
        "example",
        "example2",
        "fields",
        "figures",
        "find",
        "help",
        "notice",
        "on",
        "owner",
        "receipt",
        "refunded",
        "reject",
        "report",
        "seize",
        "settle",
        "to",
        "unsold",
        "void",
        "web",
        "word",
        # words from the catalogs or the configuration: kinds, counts of cattle,
        # classes of persons, labels, channels, languages, sections; the short title
        # of an Act (``act_title``: the catalog's own words, ending as its translator
        # wrote them, in Tamil and Kannada with the year) and a citation; an office of
        # an Act as something is reported to it (``to_office``: the catalog's own words
        # with the ending of "to", "തദ്ദേശ സ്ഥാപനത്തിന്", nothing written after it), where
        # money goes (``to_fund``, ``to_fund_short``, ``fines_to``: the same) and the
        # office that signs the notice (``signer``: an office of the Act, as
        # ``office_title`` names it); a form of the web desk by its title (``form``) or
        # as an answer on the desk names it (``sold_form``: "the form “Lot sold” below")
        "act",
        "cattle",
        "citation",
        "channel",
        "class",
        "classes",
        "form",
        "heads",
        "kind",
        "languages",
        "manner",
        "provision",
        "reason",
        "fines_to",
        "signer",
        "sold_form",
        "to_fund",
        "to_fund_short",
        "to_office",
        "unsold_form",
        "what",
        # what a person typed, echoed back in quotes
        "matched",
        "text",
        "typed",
    }
)

#: The noun each kind of name already ends with, per language (``… Cattle Pound``,
#: ``… Grama Panchayat``, ``… Market``): written again after the name, it is said twice.
HEAD_NOUNS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "pound": {"ml": ("പൗണ്ട",), "ta": ("பட்டி",), "kn": ("ದೊಡ್ಡಿ",)},
    "authority": {
        "ml": ("പഞ്ചായ", "ഗ്രാമപഞ്ചായ", "നഗരസഭ", "മുനിസിപ്പാ", "കോർപ്പറേഷ"),
        "ta": ("பஞ்சாய", "ஊராட்சி", "நகராட்சி", "மாநகராட்சி"),
        "kn": ("ಪಂಚಾಯ", "ನಗರಸಭೆ", "ಪುರಸಭೆ"),
    },
    "market": {
        "ml": ("ചന്ത", "മാർക്കറ്റ", "അങ്ങാടി"),
        "ta": ("சந்தை", "மார்க்கெட்"),
        "kn": ("ಸಂತೆ", "ಮಾರುಕಟ್ಟೆ"),
    },
}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Case endings and postpositions that are written as a word of their own after a name
#: (``%(pound)s ನಲ್ಲಿ``). An ending joined by a hyphen or with no space at all is refused
#: whatever it is; so is a word that starts with a vowel sign, a virama or a chillu.
DETACHED: Final[dict[str, frozenset[str]]] = {
    "ml": _words(
        "ൽ ിൽ ഇൽ ലെ ിലെ ഇലെ ലും ിലും ഇലും ന്റെ ൻ്റെ ന്റ ന് ക്ക് യ്ക്ക് ഉടെ യുടെ ിന്റെ "
        "ിലേക്ക് ലേക്ക് ഇലേക്ക് ൽനിന്ന് ിൽനിന്ന് ആൽ ാൽ ഓട് നോട് ഒപ്പം"
    ),
    "ta": _words(
        "இல் இன் க்கு உக்கு இற்கு இலும் இனும் ஆல் இலிருந்து இடம் இடமிருந்து இடமும் "
        "உடன் ஐ ஐயும் இனால் இற்கான க்கான உக்கான உடைய இனுடைய"
    ),
    "kn": _words(
        "ನಲ್ಲಿ ಅಲ್ಲಿ ದಲ್ಲಿ ಯಲ್ಲಿ ರಲ್ಲಿ ಲ್ಲಿ ರ ನ ದ ಯ ಗೆ ಕ್ಕೆ ಕೆ ಇಗೆ ಯಿಗೆ ಇಂದ ರಿಂದ ನಿಂದ ದಿಂದ ಯಿಂದ ಅನ್ನು ನ್ನು ವನ್ನು ಅವರಿಂದ"
    ),
}

_CHILLU: Final = frozenset("ൺൻർൽൾൿ")
_PLACEHOLDER: Final = re.compile(r"%\((\w+)\)s")
_CLOSING: Final = "”’\"'»"
_WORD: Final = re.compile(r"[\w\u0300-\u036f\u0b80-\u0bff\u0c80-\u0cff\u0d00-\u0d7f\u200c\u200d]+")


@dataclass(frozen=True, slots=True)
class Ending:
    """A name placeholder in a msgstr and what follows it there that is refused."""

    placeholder: str
    after: str
    why: str


def _bound(char: str) -> bool:
    """A character that cannot begin a word: a vowel sign, a virama, a chillu letter."""
    return unicodedata.category(char).startswith("M") or char in _CHILLU


def endings_on_names(text: str, lang: str) -> list[Ending]:
    """Every name placeholder of ``text`` (a msgstr in ``lang``) followed by a case
    ending or a postposition (joined, hyphenated or detached), or by its head noun."""
    found = []
    for match in _PLACEHOLDER.finditer(text):
        name = match.group(1)
        if name not in NAMES:
            continue
        rest = text[match.end() :].lstrip(_CLOSING)
        joined = rest[:1]
        if joined and (joined.isalpha() or _bound(joined)):
            found.append(Ending(name, rest[:12], "an ending joined to the name"))
            continue
        if rest[:1] and rest[0] in "-‐–" and rest[1:2] and (rest[1].isalpha() or _bound(rest[1])):
            found.append(Ending(name, rest[:12], "an ending joined by a hyphen"))
            continue
        if not rest[:1].isspace():
            continue
        word = _WORD.match(rest.lstrip())
        if word is None:
            continue
        token = word.group(0)
        if token in DETACHED[lang] or _bound(token[0]):
            found.append(Ending(name, token, "an ending written apart"))
        elif any(token.startswith(head) for head in HEAD_NOUNS.get(name, {}).get(lang, ())):
            found.append(Ending(name, token, "the noun the name already ends with"))
    return found
