"""The language of a reply, chosen in one place.

In this order: a language the person chose (on their number, in their chat, with the web
desk's switch, or their Telegram client's, where poundbot speaks it); else the script of
what they wrote (Malayalam, Tamil or Kannada letters); else the first language of their
pound, or their authority's; else the fallback: English for a message in Latin letters
(the command words are English), Malayalam where nothing was written (a page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.i18n.catalogs import LANGUAGES, detect_script

if TYPE_CHECKING:  # types only: the command line imports this package, and stays light
    from bot.config import Authority, Pound

__all__ = ["PAGE_FALLBACK", "TEXT_FALLBACK", "reply_language"]

#: A message in Latin letters, from someone of no pound and no authority.
TEXT_FALLBACK: Final = "en"
#: A page for someone of whom nothing is known.
PAGE_FALLBACK: Final = "ml"


def reply_language(
    *chosen: str | None,
    text: str | None = None,
    pound: Pound | None = None,
    authority: Authority | None = None,
) -> str:
    """The language to answer in: the first of ``chosen`` poundbot speaks; else the
    script of ``text``; else the ``pound``'s first language or the ``authority``'s; else
    ``TEXT_FALLBACK`` when a text was written, ``PAGE_FALLBACK`` when none was."""
    for lang in chosen:
        if lang in LANGUAGES:
            return str(lang)
    written = detect_script(text) if text else None
    if written:
        return written
    if pound is not None:
        return pound.languages[0]
    if authority is not None:
        return authority.default_language
    return TEXT_FALLBACK if text is not None else PAGE_FALLBACK
