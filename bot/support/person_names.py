"""A person's name in a text, alone or with a case ending, for the public texts to leave out.

The public texts of a case (the s.13(2) notice, its proclamation, the notice board, FIND
and STATUS) give no name of the owner or the seizer. A keeper writes a name as the
sentence needs it: ``Kunhammed's field``, ``Kunhammed-Haji's field``, in Malayalam
``കുഞ്ഞമ്മദിന്റെ പറമ്പ്`` (the genitive of ``കുഞ്ഞമ്മദ്``), in Tamil ``முருகனின் வயல்``, in
Kannada ``ರಾಮನ ಹೊಲ``. One rule says which words of a text are such a name:

A word is a form of a name word when it is the name word itself, or the name word joined
to one of the case or possessive endings of its script (``ENDINGS``), optionally with a
clitic after it (``CLITICS``: ``കുഞ്ഞമ്മദിന്റെയും`` "and Kunhammed's"). A word is what
lies between spaces and punctuation, so a name followed by a hyphen, a slash, a bracket,
an apostrophe or nothing is a word of its own; an English ``'s`` or an ending written
after a hyphen (``Kunhammed-inte``) goes with it. A word that only begins with the name
is not a form of it and is kept: the town ``Ramanattukara`` (``രാമനാട്ടുകര``) stays when
the owner is Raman (``രാമൻ``), ``ರಾಮನಗರ`` when he is ``ರಾಮ``; s.13(2)(b) needs the place.

How an ending joins a name (the sandhi), the same in Malayalam, Tamil and Kannada:

- an ending that begins with a vowel takes the place of a final virama (chandrakkala,
  pulli, halant) as that vowel's sign: ``കുഞ്ഞമ്മദ്`` + ``ഇന്റെ`` → ``കുഞ്ഞമ്മദിന്റെ``,
  ``முருகன்`` + ``இன்`` → ``முருகனின்``, ``ಮಹಮ್ಮದ್`` + ``ಅನ್ನು`` → ``ಮಹಮ್ಮದನ್ನು``; a final
  Malayalam chillu first becomes its consonant (``ബഷീർ`` → ``ബഷീറിന്റെ``), and a final
  anusvara ``മ`` (``ഇബ്രാഹിം`` → ``ഇബ്രാഹിമിന്റെ``);
- after a final vowel it comes with a glide, ``യ``/``വ`` (``ய``/``வ``, ``ಯ``/``ವ``):
  ``ഹാജി`` + ``ഉടെ`` → ``ഹാജിയുടെ``, ``രാജു`` + ``ഇന്റെ`` → ``രാജുവിന്റെ``,
  ``லக்ஷ்மி`` + ``ஐ`` → ``லக்ஷ்மியை``, ``ರಾಜು`` + ``ಅನ್ನು`` → ``ರಾಜುವನ್ನು``; or its
  sign takes the place of the final one (a clitic: ``முருகனுக்கு`` + ``உம்`` →
  ``முருகனுக்கும்``, ``ರಾಮನಿಗೆ`` + ``ಊ`` → ``ರಾಮನಿಗೂ``);
- an ending that begins with a consonant is written after the name (``ಲಕ್ಷ್ಮಿಗೆ``,
  ``ഹാജിക്ക്``, ``ಮಹಮ್ಮದ್‌ನ``) or after the name without its final virama
  (``ಮಹಮ್ಮದನ``); when it begins with the consonant a final chillu stands for, the two
  are one: ``രാമൻ`` + ``ന്റെ`` → ``രാമന്റെ``.

Latin letters join the same way: ``Raman`` + ``nte`` → ``Ramante``, ``Haji`` + ``ude`` →
``Hajiyude``, ``Raju`` + ``inte`` → ``Rajuvinte``.

Words are compared as ``normalize_word`` gives them (NFC, casefolded, old-style chillus
made atomic, zero-width joiners dropped), with the three ways of writing the ``ന്റ`` of
``ന്റെ`` read as one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import groupby
from typing import Final

from bot.support.spelling import normalize_word

__all__ = [
    "CLITICS",
    "ENDINGS",
    "MIN_NAME_WORD",
    "name_forms",
    "name_words",
    "without_names",
]

#: The endings a name takes, by the script it is written in: each with what it is and a
#: name that takes it. An ending beginning with a vowel is written with the vowel letter
#: (``ഇന്റെ``); joined to a name it becomes the vowel's sign (``-ിന്റെ``), see above.
ENDINGS: Final[Mapping[str, Mapping[str, str]]] = {
    "MALAYALAM": {
        "ഇന്റെ": "genitive after a consonant or -u: കുഞ്ഞമ്മദിന്റെ, ബഷീറിന്റെ, രാജുവിന്റെ",
        "ന്റെ": "genitive of a name in -ൻ: രാമന്റെ",
        "ഉടെ": "genitive after a vowel: ഹാജിയുടെ, സീതയുടെ",
        "ഇന്റേത്": "possessive, 'that of': കുഞ്ഞമ്മദിന്റേത്",
        "ന്റേത്": "possessive of a name in -ൻ: രാമന്റേത്",
        "ഇന്": "dative after a consonant or -u: കുഞ്ഞമ്മദിന്, രാജുവിന്",
        "ഇനു": "dative, the same with -u: കുഞ്ഞമ്മദിനു",
        "ന്": "dative of a name in -ൻ: രാമന്",
        "നു": "dative of a name in -ൻ, with -u: രാമനു",
        "ക്ക്": "dative after a vowel: ഹാജിക്ക്",
        "ക്കു": "dative after a vowel, with -u: ഹാജിക്കു",
        "യ്ക്ക്": "dative after -a: സീതയ്ക്ക്",
        "ഇനെ": "accusative after a consonant or -u: കുഞ്ഞമ്മദിനെ, രാജുവിനെ",
        "നെ": "accusative of a name in -ൻ: രാമനെ",
        "എ": "accusative after a vowel or -ൻ: ഹാജിയെ, രാമനെ",
        "ഇൽ": "locative: കുഞ്ഞമ്മദിൽ, ഹാജിയിൽ, രാമനിൽ",
        "ഇൽനിന്ന്": "ablative, 'from': കുഞ്ഞമ്മദിൽനിന്ന്",
        "ഓട്": "sociative, 'to, with': ഹാജിയോട്, രാമനോട്",
        "ഇനോട്": "sociative after a consonant: കുഞ്ഞമ്മദിനോട്",
        "ആൽ": "instrumental, 'by': ഹാജിയാൽ, രാമനാൽ",
        "ഇനാൽ": "instrumental after a consonant: കുഞ്ഞമ്മദിനാൽ",
    },
    "TAMIL": {
        "இன்": "genitive: முருகனின், லக்ஷ்மியின், ராஜாவின்",
        "உடைய": "genitive: முருகனுடைய, லக்ஷ்மியுடைய",
        "அது": "genitive, formal: முருகனது",
        "உக்கு": "dative after a consonant or -aa: முருகனுக்கு, ராஜாவுக்கு",
        "க்கு": "dative after -i, -ai: லக்ஷ்மிக்கு",
        "ஐ": "accusative: முருகனை, லக்ஷ்மியை",
        "இல்": "locative: முருகனில்",
        "இடம்": "locative of a person, 'with': முருகனிடம்",
        "இடமிருந்து": "ablative of a person, 'from': முருகனிடமிருந்து",
        "ஆல்": "instrumental, 'by': முருகனால்",
        "ஓடு": "sociative, 'with': முருகனோடு",
        "உடன்": "sociative, 'with': முருகனுடன்",
    },
    "KANNADA": {
        "ನು": "nominative of a name in -a: ರಾಮನು (ರಾಮನೂ 'Rama too')",
        "ಉ": "nominative after a vowel: ಲಕ್ಷ್ಮಿಯು, ರಾಜುವು",
        "ನ": "genitive of a name in -a, or after a halant: ರಾಮನ, ಮಹಮ್ಮದ್‌ನ",
        "ಅ": "genitive after -i or -e: ಲಕ್ಷ್ಮಿಯ, ಸೀತೆಯ",
        "ಇನ": "genitive after -u: ರಾಜುವಿನ",
        "ರ": "genitive, honorific: ರಾಮರ",
        "ರವರ": "genitive, honorific: ರಾಮರವರ",
        "ಅವರ": "genitive, honorific, after a halant: ಮಹಮ್ಮದವರ",
        "ಳ": "genitive of a woman's name in -aa: ಸೀತಾಳ",
        "ಗೆ": "dative after -i, -e or a halant: ಲಕ್ಷ್ಮಿಗೆ, ಅಬ್ದುಲ್‌ಗೆ",
        "ಇಗೆ": "dative after -u: ರಾಜುವಿಗೆ",
        "ನಿಗೆ": "dative of a name in -a: ರಾಮನಿಗೆ",
        "ರಿಗೆ": "dative, honorific: ರಾಮರಿಗೆ",
        "ಳಿಗೆ": "dative of a woman's name in -aa: ಸೀತಾಳಿಗೆ",
        "ಅನ್ನು": "accusative after a vowel or a halant: ಲಕ್ಷ್ಮಿಯನ್ನು, ರಾಜುವನ್ನು",
        "ನ್ನು": "accusative, short: ರಾಮನ್ನು",
        "ನನ್ನು": "accusative of a name in -a: ರಾಮನನ್ನು",
        "ರನ್ನು": "accusative, honorific: ರಾಮರನ್ನು",
        "ಳನ್ನು": "accusative of a woman's name in -aa: ಸೀತಾಳನ್ನು",
        "ಇಂದ": "ablative, 'from, by': ಲಕ್ಷ್ಮಿಯಿಂದ, ರಾಜುವಿಂದ",
        "ನಿಂದ": "ablative of a name in -a: ರಾಮನಿಂದ",
        "ಅಲ್ಲಿ": "locative: ಲಕ್ಷ್ಮಿಯಲ್ಲಿ",
        "ನಲ್ಲಿ": "locative of a name in -a: ರಾಮನಲ್ಲಿ",
        "ಒಂದಿಗೆ": "sociative, 'with': ಲಕ್ಷ್ಮಿಯೊಂದಿಗೆ",
        "ನೊಂದಿಗೆ": "sociative of a name in -a: ರಾಮನೊಂದಿಗೆ",
    },
    "LATIN": {
        "s": "English possessive, after an apostrophe (Kunhammed's) or before one (the Nairs')",
        # Malayalam endings as a keeper types them in Latin letters.
        "inte": "ml genitive: Kunhammedinte, Rajuvinte",
        "nte": "ml genitive of a name in -n: Ramante",
        "ude": "ml genitive after a vowel: Hajiyude",
        "inu": "ml dative: Kunhammedinu",
        "nu": "ml dative of a name in -n: Ramanu",
        "kku": "ml, ta dative after a vowel: Hajikku",
        "ine": "ml accusative: Kunhammedine",
        "ne": "ml accusative of a name in -n: Ramane",
        "il": "ml locative: Kunhammedil",
        "ode": "ml sociative: Ramanode",
        # Tamil endings in Latin letters.
        "in": "ta genitive: Muruganin",
        "udaya": "ta genitive: Muruganudaya",
        "ukku": "ta dative: Muruganukku",
        "ai": "ta accusative: Muruganai",
        "idam": "ta locative of a person: Muruganidam",
        "aal": "ta instrumental: Muruganaal",
        "odu": "ta sociative: Muruganodu",
        # Kannada endings in Latin letters (not -na or -ge alone: Krish + na is Krishna).
        "nige": "kn dative: Ramanige",
        "nannu": "kn accusative: Ramanannu",
        "annu": "kn accusative: Lakshmiyannu",
        "ninda": "kn ablative: Ramaninda",
        "avara": "kn honorific genitive: Mahammadavara",
        "ravara": "kn honorific genitive: Ramaravara",
    },
}

#: Clitics that follow a name with or without its ending: "and", "or".
CLITICS: Final[Mapping[str, tuple[str, ...]]] = {
    "MALAYALAM": ("ഉം", "ഓ"),  # കുഞ്ഞമ്മദും, കുഞ്ഞമ്മദിന്റെയും, ഹാജിയോ
    "TAMIL": ("உம்", "ஓ"),  # முருகனும், லக்ஷ்மியோ
    "KANNADA": ("ಊ", "ಓ"),  # ರಾಮನೂ, ಲಕ್ಷ್ಮಿಯೂ
    "LATIN": ("um",),  # Kunhammedum, Hajiyum
}

#: Glides between a final vowel and an ending that begins with a vowel.
_GLIDES: Final = {"LATIN": ("y", "v")}
_LATIN_VOWELS: Final = frozenset("aeiou")

#: Initials ("K.") say nothing alone; a shorter word may be a colour or a number.
MIN_NAME_WORD: Final = 3

_JOINERS: Final = frozenset("\u200c\u200d")
_APOSTROPHES: Final = frozenset("'’")
#: What may stand between a name and an ending written apart: Kunhammed's, Kunhammed-inte.
_BETWEEN: Final = frozenset({"'", "’", "-"})
_BRACKETS: Final = {")": "(", "]": "["}


def _is_word_char(char: str) -> bool:
    """A letter, a mark (a vowel sign, a virama) or a digit; a zero-width (non-)joiner."""
    return char in _JOINERS or unicodedata.category(char)[0] in "LMN"


def _pieces(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into words and what lies between them: (is a word, the text)."""
    return [(word, "".join(chars)) for word, chars in groupby(text, _is_word_char)]


#: The ways ``ന്റ`` (the ``nt`` of ``ന്റെ``) is written: chillu, virama and RRA, as recent
#: keyboards write it; chillu and RRA, as Unicode 5.1 did (and ``normalize_word`` makes
#: of ``ന്‍റ``, with a zero-width joiner).
_NTA: Final = ("\u0d7b\u0d4d\u0d31", "\u0d7b\u0d31")


def _compared(word: str) -> str:
    """A word as compared: ``normalize_word``, with every way of writing ``ന്റ`` as one."""
    text = normalize_word(word)
    for nta in _NTA:
        text = text.replace(nta, "\u0d28\u0d4d\u0d31")
    return text


def _script(char: str) -> str:
    """The script of a letter as Unicode names it: MALAYALAM, TAMIL, KANNADA, LATIN ..."""
    return unicodedata.name(char, "").split(" ")[0]


def _vowel_sign(char: str) -> str | None:
    """The sign of an independent vowel (``ഇ`` → ``ി``; ``അ`` → none, the inherent
    vowel); None for anything that is not an independent vowel."""
    name = unicodedata.name(char, "")
    script, _, vowel = name.partition(" LETTER ")
    if not vowel or _script(char) == "LATIN":
        return None
    if vowel == "A":
        return ""
    try:
        return unicodedata.lookup(f"{script} VOWEL SIGN {vowel}")
    except KeyError:
        return None  # a consonant


def _consonant_of(char: str) -> str | None:
    """The consonant a final letter stands for before a vowel: a chillu's (``ൻ`` → ``ന``,
    ``ർ`` → ``റ``), an anusvara's (``ം`` → ``മ``); None for any other letter."""
    name = unicodedata.name(char, "")
    script, chillu, base = name.partition(" LETTER CHILLU ")
    if chillu:
        return unicodedata.lookup(f"{script} LETTER {base}A")
    script, anusvara, _ = name.partition(" SIGN ANUSVARA")
    if anusvara:
        return unicodedata.lookup(f"{script} LETTER MA")
    return None


def _is_virama(char: str) -> bool:
    return unicodedata.name(char, "").endswith(" SIGN VIRAMA")


def _ends_in_vowel(word: str) -> bool:
    """Whether a word ends in a vowel: a vowel sign, an independent vowel, a consonant
    with its inherent ``a``; a Latin vowel."""
    last = word[-1]
    if _script(last) == "LATIN":
        return last in _LATIN_VOWELS
    name = unicodedata.name(last, "")
    return (" LETTER " in name and "CHILLU" not in name) or "VOWEL SIGN" in name


def _glides(script: str) -> tuple[str, ...]:
    if script in _GLIDES:
        return _GLIDES[script]
    names = (f"{script} LETTER {glide}" for glide in ("YA", "VA"))
    return tuple(unicodedata.lookup(name) for name in names if _has(name))


def _has(name: str) -> bool:
    """Whether Unicode has a character of that name."""
    try:
        unicodedata.lookup(name)
    except KeyError:
        return False
    return True


def _joined(word: str, ending: str) -> set[str]:
    """The ways ``ending`` is written after ``word`` (the sandhi of the module's text)."""
    forms = {word + ending}  # side by side: ಲಕ್ಷ್ಮಿಗೆ, Kunhammedinte
    last, first, script = word[-1], ending[0], _script(word[-1])
    sign = _vowel_sign(first)
    consonant = _consonant_of(last)
    if sign is not None:  # an ending that begins with a vowel
        rest = sign + ending[1:]
        if _is_virama(last):  # കുഞ്ഞമ്മദ് + ഇന്റെ -> കുഞ്ഞമ്മദിന്റെ
            forms.add(word[:-1] + rest)
        elif consonant is not None:  # ബഷീർ + ഇന്റെ -> ബഷീറിന്റെ; ഇബ്രാഹിം -> ഇബ്രാഹിമിന്റെ
            forms.add(word[:-1] + consonant + rest)
        elif _ends_in_vowel(word):  # ഹാജി + ഉടെ -> ഹാജിയുടെ; രാജു + ഇന്റെ -> രാജുവിന്റെ
            forms.update(word + glide + rest for glide in _glides(script))
            if "VOWEL SIGN" in unicodedata.name(last, ""):  # ರಾಮನಿಗೆ + ಊ -> ರಾಮನಿಗೂ
                forms.add(word[:-1] + rest)
    elif script == "LATIN":
        if first in _LATIN_VOWELS and last in _LATIN_VOWELS:  # Haji + ude -> Hajiyude
            forms.update(word + glide + ending for glide in _GLIDES["LATIN"])
        if first == last and first not in _LATIN_VOWELS:  # Raman + nte -> Ramante
            forms.add(word[:-1] + ending)
    elif _is_virama(last) or consonant == first:
        # ಮಹಮ್ಮದ್ + ನ -> ಮಹಮ್ಮದನ (the virama gone); രാമൻ + ന്റെ -> രാമന്റെ (the chillu's
        # consonant is the ending's first)
        forms.add(word[:-1] + ending)
    return forms


@lru_cache(maxsize=1024)
def name_forms(word: str) -> frozenset[str]:
    """Every form of one name word (as ``normalize_word`` gives it): the word, the word
    with each ending of its script, and each of these with a clitic."""
    script = _script(word[-1])
    endings = ENDINGS.get(script, {})
    with_endings = {word}.union(*(_joined(word, ending) for ending in endings))
    clitics = CLITICS.get(script, ())
    with_clitics = (_joined(form, clitic) for form in with_endings for clitic in clitics)
    return frozenset(_compared(form) for form in with_endings.union(*with_clitics))


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The words of ``names`` worth looking for, as compared: initials are left out."""
    return frozenset(
        _compared(text)
        for name in names
        for word, text in _pieces(name)
        if word and len(_compared(text)) >= MIN_NAME_WORD
    )


#: An ending written apart from its name, after a hyphen or an apostrophe.
_APART: Final = frozenset(_compared(e) for endings in ENDINGS.values() for e in endings)


def without_names(text: str, names: Iterable[str]) -> str:
    """``text`` without the words that are forms of the words of ``names``; a word made
    only of punctuation once they are gone goes too, and spaces are single:
    ``Kunhammed-Haji's field`` without ``Kunhammed Haji`` is ``field``."""
    words = name_words(names)
    if not words:
        return text
    forms = frozenset().union(*(name_forms(word) for word in words))
    kept = (_token_without(token, words, forms) for token in text.split())
    return " ".join(token for token in kept if token)


def _token_without(token: str, words: frozenset[str], forms: frozenset[str]) -> str:
    """One space-free token of a text without the names in it."""
    pieces = _pieces(token)
    gone = [False] * len(pieces)
    for i, (word, text) in enumerate(pieces):
        if not word or gone[i]:
            continue
        compared = _compared(text)
        after = pieces[i + 1][1] if i + 1 < len(pieces) else ""
        if compared in forms:
            gone[i] = True
            # An ending written apart: Kunhammed's, Kunhammed-inte, കുഞ്ഞമ്മദ്-ന്റെ.
            if after in _BETWEEN and i + 2 < len(pieces) and _compared(pieces[i + 2][1]) in _APART:
                gone[i + 1] = gone[i + 2] = True
        elif after[:1] in _APOSTROPHES and compared.endswith("s") and compared[:-1] in words:
            gone[i] = True  # the Nairs'
    if not any(gone):
        return token
    return _rejoined(pieces, gone)


def _rejoined(pieces: list[tuple[bool, str]], gone: list[bool]) -> str:
    """The pieces left, without the punctuation that stood by a name and no longer stands
    between two words: ``field(Kunhammed)`` → ``field``, ``brown,Kunhammed,cows`` →
    ``brown,cows``; nothing when no word is left."""
    out: list[str] = []
    between: list[str] = []  # the punctuation since the last word kept
    dropped = False  # whether a name was dropped since then
    for (word, text), left_out in zip(pieces, gone, strict=True):
        if left_out:
            dropped = dropped or word
            continue
        if not word:
            between.append(text)
            continue
        if out:
            out.append(between[0] if dropped and between else "".join(between))
        elif not dropped:
            out.append("".join(between))
        out.append(text)
        between, dropped = [], False
    if not any(word for (word, _), left_out in zip(pieces, gone, strict=True) if not left_out):
        return ""
    if not dropped:
        out.append("".join(between))
    return _balanced("".join(out))


def _balanced(text: str) -> str:
    """``text`` without brackets that no longer have their pair."""
    opened: list[int] = []
    unpaired: set[int] = set()
    for i, char in enumerate(text):
        if char in "([":
            opened.append(i)
        elif char in _BRACKETS:
            if opened and text[opened[-1]] == _BRACKETS[char]:
                opened.pop()
            else:
                unpaired.add(i)
    unpaired.update(opened)
    return "".join(char for i, char in enumerate(text) if i not in unpaired)
