"""Names people read — of an authority, a pound, an office, a village, a market place, a
kind of cattle — in the reader's language.

The configuration gives a name as plain text, or per language::

    name = { en = "Kunnamangalam Grama Panchayat", ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }

A :class:`Name` is the English form (it *is* that string: it compares, hashes, sorts and
is stored as it) carrying the other forms; :func:`local` gives the form of a language,
the English one where the configuration gives none. Code that does not render for a
reader (codes, logs, matching, the database) never sees the difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["Name", "local"]


class Name(str):
    """A name in English, with its forms in other languages."""

    forms: Mapping[str, str]

    def __new__(cls, english: str, forms: Mapping[str, str] | None = None) -> Name:
        name = super().__new__(cls, english)
        name.forms = MappingProxyType({lang: text for lang, text in (forms or {}).items()})
        return name

    def __repr__(self) -> str:
        return f"Name({str(self)!r}, {dict(self.forms)!r})" if self.forms else repr(str(self))

    def __reduce__(self) -> tuple[type[Name], tuple[str, dict[str, str]]]:
        return Name, (str(self), dict(self.forms))


def local(name: str, lang: str) -> str:
    """``name`` as a reader of ``lang`` reads it: its form in that language when the
    configuration gives one, else the name as given (in English)."""
    if isinstance(name, Name):
        return name.forms.get(lang, str(name))
    return name
