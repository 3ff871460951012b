"""Names people read — of an authority, a pound, an office, a village, a market place, a
kind of cattle — in the reader's language.

The configuration gives a name as plain text, or per language::

    name = { en = "Kunnamangalam Grama Panchayat", ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }

A :class:`Name` is the English form (it *is* that string: it compares, hashes, sorts and
is stored as it) carrying the other forms; :func:`local` gives the form of a language,
the English one where the configuration gives none. Code that does not render for a
reader (codes, logs, matching, the database) never sees the difference.

A place typed by an officer (where a notice was proclaimed, where the auction is held)
and kept as text is read in the reader's language too when it is one of the configured
names, in any of its forms (:class:`PlaceNames`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

__all__ = ["Name", "PlaceNames", "local"]


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


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


class PlaceNames:
    """The configured names of places (offices, villages, market places, pounds), found
    by any of their forms: ``places("kunnamangalam market")`` is that text carrying the
    configured forms, so that :func:`local` gives it in the reader's language; a text
    that is no configured name comes back as it is."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        found: dict[str, Name] = {}
        for name in names:
            if isinstance(name, Name) and name.forms:
                for form in (str(name), *name.forms.values()):
                    found.setdefault(_key(form), name)
        self._names = found

    def __call__(self, text: str) -> str:
        name = self._names.get(_key(text)) if text else None
        if name is None or isinstance(text, Name):
            return text
        # As typed (so it is stored as typed), read in each language as configured.
        return Name(text, {"en": str(name), **name.forms})

    def regroup(self, parts: Sequence[str]) -> tuple[str, ...]:
        """Places typed between commas, a configured name that holds a comma itself
        ("Kunnamangalam Town Market, Kunnamangalam Angadi") put back together: at each
        place the longest run of parts that is a configured name, else the part (as
        text: calling ``places`` on each finds its forms)."""
        found: list[str] = []
        start = 0
        while start < len(parts):
            end = next(
                (
                    end
                    for end in range(len(parts), start + 1, -1)
                    if _key(", ".join(parts[start:end])) in self._names
                ),
                start + 1,
            )
            found.append(", ".join(parts[start:end]))
            start = end
        return tuple(found)

    def __len__(self) -> int:
        return len(self._names)
