"""The catalog's texts in the words of the translator's Act: each Kerala citation a text
carries ("Reported unclaimed on %(date)s (s.13(1)).", "... (വകുപ്പ് 13(1)).") written as
that Act cites it (``s.14, para 1``, ``വകുപ്പ് 14, ഖണ്ഡിക 1`` under the Cattle-trespass Act,
1871), in the language, as ``cite`` writes a provision known only at run time.

The msgids speak of provisions by their Kerala numbers, and every translation writes
each citation of its msgid as the language's citation message makes it (``tr.gettext
("s.%(section)s")``: tests/integration/test_catalogs.py). So the citations to rewrite
are read from the msgid, and each is found in the translation in the language's Kerala
form: never a guess at what a number in the text means. A template is rewritten before
its placeholders are filled, so nothing a person wrote is ever touched.

What is rewritten, and as what:

- a provision of the engine's table (``s.13(1)``, ``s.13(3) proviso``) as ``cite``
  gives it under the Act: its own citation, or, where the Act has no counterpart, the
  Kerala citation marked as the Kerala Act's;
- a proviso whose translation writes the word otherwise than the language's proviso
  message: its section, as the Act cites that, the translator's word kept after it;
- a bare section (``s.16``, ``s.13``) as the section of the Act that all its
  sub-provisions share (1871: ``s.17``, ``s.14``); one whose sub-provisions fall in
  several of the Act's sections is left as it is (a sub-provision the Act has no
  counterpart of does not count);
- anything else (no provision of the table) is left as it is, as ``cite`` leaves it.

``catalogs.Translator`` calls ``in_act`` only for an Act that cites some provision
otherwise than the Kerala Act (the Kerala profiles cost nothing); each text is rewritten
once a language, Act and template, and kept. This module installs it there when it is
imported, as the package ``bot.i18n`` is (``catalogs`` cannot import it: it writes with
``common``, which imports ``catalogs``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from bot.i18n.catalogs import Translator, install_act_words, translator
from bot.i18n.common import cite, cite_own
from domain.profiles import KERALA_1961, Profile

__all__ = ["in_act", "section_in"]

#: A Kerala citation in a msgid: ``s.13(1)``, ``s.16``, ``s.13(3) proviso`` (the
#: forms tests/integration/test_catalogs.py finds, with a proviso after its section).
_IN_MSGID: Final = re.compile(r"\bs\.\d+[A-Z]?(?:\([0-9a-z]+\))*(?: proviso)?")
#: The number of a section at the head of a citation (``s.14 para 1`` -> ``14``).
_SECTION: Final = re.compile(r"s\.(\d+[A-Z]?)")

#: How many texts are kept rewritten (more than every msgid in every language and Act).
_KEPT: Final = 16384
_done: dict[tuple[str, str, str, str], str] = {}


def in_act(tr: Translator, text: str, singular: str, plural: str | None = None) -> str:
    """``text``, the translation of ``singular`` (or of its ``plural``), with each
    Kerala citation of the msgid as ``tr.act`` cites it in ``tr.lang``; kept."""
    key = (tr.lang, tr.act.key, singular, text)
    found = _done.get(key)
    if found is None:
        msgids = (singular,) if plural is None else (singular, plural)
        found = _rewritten(tr, text, msgids)
        if len(_done) >= _KEPT:
            _done.clear()
        _done[key] = found
    return found


def section_in(act: Profile, section: str) -> str | None:
    """The section of ``act`` that every sub-provision of the Kerala ``section``
    (``s.16``: s.16(1) to s.16(3)) answers to (1871: ``s.17``), or None: they answer to
    several, or ``section`` has none in the engine's table."""
    heads = (section + "(", section + " ")
    owns = {
        _head(own)
        for provision, own in act.citations.items()
        if provision.startswith(heads) and own is not None
    }
    return owns.pop() if len(owns) == 1 else None


def _head(citation: str) -> str:
    match = _SECTION.match(citation)
    return f"s.{match[1]}" if match else citation


def _plain(tr: Translator) -> Translator:
    """``tr`` as a plain translator of its catalog and Act: a citation written through
    a subclass (the DLT probe's, which marks each message) would carry its marks."""
    if type(tr) is Translator:
        return tr
    return Translator(tr.lang, tr.locale, tr.translations, tr.act)


def _rewritten(tr: Translator, text: str, msgids: tuple[str, ...]) -> str:
    cited = list(dict.fromkeys(c for msgid in msgids for c in _IN_MSGID.findall(msgid)))
    if not cited:
        return text
    words = _plain(tr)
    if words.lang != "en" and text in msgids:  # not translated: the English text, cited so
        words = translator("en").under(words.act)
    kerala = words.under(KERALA_1961)
    swaps: dict[str, str] = {}
    for citation in cited:
        for theirs, ours in _forms(citation, words, kerala):
            if theirs != ours:
                swaps.setdefault(theirs, ours)
    if not swaps:
        return text
    return _pattern(tuple(swaps)).sub(_swap(swaps), text)


def _forms(citation: str, words: Translator, kerala: Translator) -> list[tuple[str, str]]:
    """The Kerala form of ``citation`` in the language, and the Act's; for a proviso,
    its section's too (a translation may name the proviso in its own word)."""
    act = words.act
    if citation in act.citations:
        pairs = [(cite(citation, kerala), cite(citation, words))]
        section = citation.removesuffix(" proviso")
        if section != citation and section in act.citations:
            pairs.append((cite(section, kerala), cite(section, words)))
        return pairs
    if "(" in citation or " " in citation:  # no provision of the table: as it is
        return []
    own = section_in(act, citation)
    if own is None:
        return []
    return [(cite(citation, kerala), cite_own(own, words))]


def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``forms`` as a whole citation: not inside a word before it (``ss.13``,
    a longer word ending in the language's section word), nor followed by more of a
    number (``s.1`` of ``s.13``, ``s.13(2)`` of ``s.13(2)(a)``); the longest first."""
    longest = sorted(forms, key=len, reverse=True)
    either = "|".join(re.escape(form) for form in longest)
    return re.compile(rf"(?<!\w)(?:{either})(?!\d|\([0-9a-z]+\))")


def _swap(swaps: dict[str, str]) -> Callable[[re.Match[str]], str]:
    return lambda match: swaps[match[0]]


install_act_words(in_act)
