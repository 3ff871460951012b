"""The message catalogs: ``locales/<lang>/LC_MESSAGES/messages.po``, compiled in memory.

The ``.po`` files are the only source. They are read and compiled into a buffer on
first use (once per process), so a stale or missing ``.mo`` can never make Malayalam
fall back to English. Fuzzy entries are never used; a catalog whose ``%(name)s``
placeholders disagree with its msgids is refused at load, not at the first reply.

An English text rendered for an SMS keeps to GSM-7: its few typographic signs outside
that alphabet (``…``, ``×``) are given as ``...`` and ``x`` (``GSM7_ENGLISH``), so that
one sign does not make the whole SMS UCS-2 and halve its room. In chat, on the web and
in documents they stay.
"""

from __future__ import annotations

import contextvars
import functools
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog
from babel.support import Translations

from bot.support.languages import LANGUAGES
from bot.support.resources import data_dir
from domain.profiles import KERALA_1961, Profile

__all__ = [
    "GSM7_ENGLISH",
    "LANGUAGES",
    "LOCALES",
    "LOCALES_DIR",
    "SMS_RENDERING",
    "CatalogError",
    "CatalogStats",
    "Translator",
    "UnknownLanguageError",
    "catalog_report",
    "detect_script",
    "for_sms",
    "install_act_words",
    "locale_of",
    "read_catalog",
    "translator",
]


#: The Babel locale of each language (Indian English, and the Indian variants).
LOCALES: Final[dict[str, str]] = {"en": "en_IN", "ml": "ml_IN", "ta": "ta_IN", "kn": "kn_IN"}

#: ``locales/`` at the top of the repository, or inside the installed package.
LOCALES_DIR: Final = data_dir("locales")

# Unicode blocks of the scripts an owner may text in (inclusive ranges).
_SCRIPTS: Final[dict[str, tuple[int, int]]] = {
    "ml": (0x0D00, 0x0D7F),  # Malayalam
    "ta": (0x0B80, 0x0BFF),  # Tamil
    "kn": (0x0C80, 0x0CFF),  # Kannada
}


class UnknownLanguageError(LookupError):
    """A language code that poundbot has no catalog for."""


class CatalogError(RuntimeError):
    """A catalog that cannot be used (unreadable, or placeholders that disagree)."""


def locale_of(lang: str) -> str:
    """The Babel locale for ``lang`` (``ml`` -> ``ml_IN``); unknown codes are an error."""
    try:
        return LOCALES[lang]
    except KeyError:
        raise UnknownLanguageError(
            f"no catalog for language {lang!r}; known: {', '.join(LANGUAGES)}"
        ) from None


#: The signs of English texts outside GSM-7, as an English SMS writes them.
GSM7_ENGLISH: Final = str.maketrans({"…": "...", "×": "x"})


#: Whether the text being rendered goes out by SMS (``dlt_probe.rendering_sms`` sets it).
SMS_RENDERING: Final[contextvars.ContextVar[bool]] = contextvars.ContextVar(
    "sms_rendering", default=False
)


def for_sms(lang: str, text: str, sms: bool = False) -> str:
    """``text`` as an SMS in ``lang`` gives it when one is rendered (``sms`` or
    ``SMS_RENDERING``): in GSM-7 for English (``GSM7_ENGLISH``)."""
    if lang != "en" or not (sms or SMS_RENDERING.get()):
        return text
    return text.translate(GSM7_ENGLISH)


@dataclass(frozen=True, slots=True)
class Translator:
    """gettext for one language, with the Babel locale used to format its numbers and
    dates, and the Act whose texts it gives (``act``: a text about a case is in the words
    of the case's own Act, ``under``).

    The msgids cite the Kerala Act (``(s.13(1))``); under an Act that cites a provision
    otherwise, each text comes with its citations as that Act's (``bot.i18n.act_words``:
    ``(s.14, para 1)`` under the Cattle-trespass Act, 1871). Under the Kerala profiles
    the texts are the catalog's, as they are, at no cost."""

    lang: str
    locale: str
    translations: Translations = field(repr=False, compare=False)
    act: Profile = KERALA_1961
    #: Whether ``act`` cites some provision otherwise than the Kerala Act.
    rewrites: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rewrites", _renumbers(self.act))

    def under(self, act: Profile) -> Translator:
        """This translator, giving the texts of ``act``."""
        return self if act is self.act else replace(self, act=act)

    def gettext(self, message: str) -> str:
        """The translation of ``message`` (the English msgid when it has none), in the
        words of the translator's Act; in an English SMS, in GSM-7."""
        text = self.translations.gettext(message)
        if self.rewrites:
            text = _in_act(self, text, message)
        return for_sms(self.lang, text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a plural message for ``n`` under the language's Plural-Forms."""
        text = self.translations.ngettext(singular, plural, n)
        if self.rewrites:
            text = _in_act(self, text, singular, plural)
        return for_sms(self.lang, text)


@functools.cache
def _renumbers(act: Profile) -> bool:
    """Whether ``act`` cites some provision otherwise than the Kerala Act (once an Act:
    a translator is put under a case's Act for every reply)."""
    return act is not KERALA_1961 and any(
        own != provision for provision, own in act.citations.items()
    )


#: A text in the words of a translator's Act (``bot.i18n.act_words.in_act``): its
#: translation, the msgid and the plural msgid. Installed by that module when the
#: package ``bot.i18n`` is imported (it writes citations with ``bot.i18n.common``, which
#: imports this module: it cannot be imported from here).
InAct = Callable[["Translator", str, str, "str | None"], str]
_act_words: list[InAct] = []


def install_act_words(in_act: InAct) -> None:
    """Make ``in_act`` what writes texts in the words of an Act that cites otherwise
    than the Kerala Act (``bot.i18n.act_words``)."""
    _act_words[:] = [in_act]


def _in_act(tr: Translator, text: str, singular: str, plural: str | None = None) -> str:
    if not _act_words:  # never the Kerala citations where another Act's are due
        raise CatalogError("bot.i18n.act_words is not installed: import bot.i18n")
    return _act_words[0](tr, text, singular, plural)


def _po_path(lang: str, directory: Path) -> Path:
    return directory / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(lang: str, directory: Path = LOCALES_DIR) -> Catalog:
    """Parse the ``.po`` of ``lang``; a malformed file is an error, not a partial catalog."""
    locale = locale_of(lang)
    path = _po_path(lang, directory)
    try:
        with path.open("rb") as fp:
            return pofile.read_po(fp, locale=locale, abort_invalid=True)
    except (OSError, pofile.PoFileError) as exc:
        raise CatalogError(f"cannot read the {lang} catalog {path}: {exc}") from exc


def _check_placeholders(lang: str, catalog: Catalog) -> None:
    """Refuse a catalog whose translations use other placeholders than their msgids."""
    problems = [
        f"{message.id!r}: {'; '.join(str(e) for e in errors)}"
        for message, errors in catalog.check()
        if not message.fuzzy
    ]
    if problems:
        raise CatalogError(f"the {lang} catalog has bad placeholders: " + " | ".join(problems))


@functools.cache
def _load(lang: str, directory: Path) -> Translator:
    catalog = read_catalog(lang, directory)
    _check_placeholders(lang, catalog)
    buffer = io.BytesIO()
    mofile.write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    translations = Translations(fp=buffer, domain="messages")
    return Translator(lang=lang, locale=locale_of(lang), translations=translations)


def translator(lang: str, directory: Path = LOCALES_DIR) -> Translator:
    """The translator for ``lang``, compiled from its ``.po`` on first use and cached."""
    locale_of(lang)  # unknown languages fail here, before any file is touched
    return _load(lang, directory)


def detect_script(text: str) -> str | None:
    """The language whose script most of the letters of ``text`` are in, if an Indian one.

    Malayalam (U+0D00-0D7F), Tamil (U+0B80-0BFF) or Kannada (U+0C80-0CFF); ``None``
    for text in none of them (Latin text may be English or Malayalam in Latin letters,
    so it is left to the caller). A tie goes to the earlier language in ``LANGUAGES``.
    """
    if text.isascii():  # most SMS: no Indian letter to count
        return None
    counts = dict.fromkeys(_SCRIPTS, 0)
    for char in text:
        point = ord(char)
        for lang, (first, last) in _SCRIPTS.items():
            if first <= point <= last:
                counts[lang] += 1
                break
    best = max(counts.values())
    if best == 0:
        return None
    return next(lang for lang in LANGUAGES if counts.get(lang) == best)


@dataclass(frozen=True, slots=True)
class CatalogStats:
    """How complete one catalog is."""

    lang: str
    total: int
    translated: int
    fuzzy: int

    @property
    def untranslated(self) -> int:
        return self.total - self.translated - self.fuzzy


def _stats(lang: str, directory: Path) -> CatalogStats:
    catalog = read_catalog(lang, directory)
    messages = [m for m in catalog if m.id]
    fuzzy = sum(1 for m in messages if m.fuzzy)
    translated = sum(
        1
        for m in messages
        if not m.fuzzy and (all(m.string) if isinstance(m.string, tuple | list) else bool(m.string))
    )
    return CatalogStats(lang=lang, total=len(messages), translated=translated, fuzzy=fuzzy)


def catalog_report(directory: Path = LOCALES_DIR) -> Iterator[CatalogStats]:
    """Statistics of every catalog (``make messages-report``, ``i18n_tools.report``);
    English may be empty: its msgids are its texts."""
    for lang in LANGUAGES:
        yield _stats(lang, directory)
