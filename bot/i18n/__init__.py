"""The language layer: catalogs (English, Malayalam, Tamil, Kannada), formats and replies.

Only this package calls gettext and formats money and dates. ``catalogs`` compiles the
``.po`` files under ``locales/`` in memory; ``fmt`` formats amounts and dates;
``language`` chooses the language of a reply; ``render`` turns domain facts into
replies, written in rooms by who reads them (``public``, ``keepers``, ``officers``,
``refusals``, ``documents``, ``chrome``).
"""

# Installs what writes the texts of an Act that cites otherwise than Kerala (catalogs).
from bot.i18n import act_words  # noqa: F401
from bot.i18n.catalogs import (
    LANGUAGES,
    CatalogError,
    Translator,
    UnknownLanguageError,
    detect_script,
    translator,
)
from bot.i18n.language import reply_language

__all__ = [
    "LANGUAGES",
    "CatalogError",
    "Translator",
    "UnknownLanguageError",
    "detect_script",
    "reply_language",
    "translator",
]
