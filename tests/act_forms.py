"""The citations a text about a case under another Act must not carry: the Kerala
forms of the provisions that Act cites otherwise, as each language writes them
(``cite``), computed from the profile, never listed by hand."""

from __future__ import annotations

import html
import re
from functools import cache

from bot.i18n import translator
from bot.i18n.act_words import section_in
from bot.i18n.common import cite, cite_own
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961, Profile

__all__ = ["act_forms", "kerala_forms", "kerala_left", "page_text", "whole"]

_TAG = re.compile(r"<[^>]+>")


def _pairs(lang: str, act: Profile) -> list[tuple[str, str]]:
    """Each provision of the engine's table, and each bare section of them (``s.13``),
    as the Kerala Act cites it in ``lang`` and as ``act`` does (a provision it lacks:
    the Kerala citation marked as the Kerala Act's; a bare section: the section of
    ``act`` its sub-provisions share, ``bot.i18n.act_words.section_in``)."""
    tr = translator(lang)
    pairs = [(cite(p, tr, KERALA_1961), cite(p, tr, act)) for p in act.citations]
    bare = {p.split("(")[0] for p in act.citations if p.startswith("s.") and "(" in p}
    for section in bare - set(act.citations):
        own = section_in(act, section)
        if own is not None:
            pairs.append((cite(section, tr, KERALA_1961), cite_own(own, tr, act)))
    return pairs


@cache
def act_forms(lang: str, act: Profile = CATTLE_TRESPASS_1871) -> tuple[str, ...]:
    """Every citation ``act`` gives in ``lang`` of the provisions of the engine's table
    and of their bare sections, the longest first."""
    return tuple(sorted({ours for _, ours in _pairs(lang, act)}, key=len, reverse=True))


@cache
def kerala_forms(lang: str, act: Profile = CATTLE_TRESPASS_1871) -> frozenset[str]:
    """The Kerala citations in ``lang`` of the provisions ``act`` cites otherwise, less
    those that are also a citation of ``act`` (the 1871 Act's "s.13" is Kerala's s.12)."""
    theirs = {kerala for kerala, ours in _pairs(lang, act) if kerala != ours}
    return frozenset(theirs - set(act_forms(lang, act)))


def whole(forms: tuple[str, ...] | frozenset[str]) -> re.Pattern[str]:
    """Any of ``forms`` as a whole citation: not the end of a word before it, nor the
    start of a longer number ("s.13" of "s.13(1)", "s.13(2)" of "s.13(2)(a)"); the
    longest first."""
    either = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{either})(?!\d|\([0-9a-z]+\))")


def kerala_left(text: str, lang: str, act: Profile = CATTLE_TRESPASS_1871) -> list[str]:
    """The Kerala citations ``text`` still carries where ``act`` cites otherwise: the
    text with ``act``'s own whole citations taken out, searched for whole ones."""
    rest = whole(act_forms(lang, act)).sub("\x00", text)
    return sorted(set(whole(kerala_forms(lang, act)).findall(rest)))


def page_text(page: str) -> str:
    """The text of an HTML page as read: its tags taken out, its entities as characters."""
    return html.unescape(_TAG.sub(" ", page))
