"""What the public search (``FIND``) and the desk's filter by kind match of a case, as
columns of its row.

``cases.search_text`` holds the place seized, then each lot's kind and public
description (no owner's name, no telephone number: ``public_lots``), a line each,
casefolded; a word of a search matches it as ``%word%``. On PostgreSQL a trigram index
(pg_trgm) over the cases still in the pound (``IN_POUND_SQL``) finds those words without
reading every open case of a state. ``cases.kinds`` holds the kinds of its lots
(``kinds_text``): the desk's filter by kind reads it with the case, from the index of an
authority's cases, not from each case's lots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.s07_seizure import Lot
from domain.stages import IN_POUND_STAGES

__all__ = [
    "IN_POUND_SQL",
    "IN_POUND_VALUES",
    "SEPARATOR",
    "kinds_text",
    "search_columns",
    "search_text",
]

#: Between the parts of ``search_text``: no word of a search holds it, so a word matches
#: within one part (the place, a kind, a description), as it did part by part.
SEPARATOR = "\n"

#: The stages with cattle still in the pound (a search over these uses the index).
IN_POUND_VALUES = frozenset(stage.value for stage in IN_POUND_STAGES)
#: The same as SQL: the predicate of the partial index, written into the query as it is
#: (a literal), so that PostgreSQL sees the query's cases are the index's.
IN_POUND_SQL = "stage IN (" + ", ".join(f"'{s}'" for s in sorted(IN_POUND_VALUES)) + ")"


def search_text(place: str, lots: Iterable[tuple[str, str]]) -> str:
    """The place seized and each lot's (kind, public description), a line each,
    casefolded."""
    parts = [place]
    for kind, description in lots:
        parts += [kind, description]
    return SEPARATOR.join(parts).casefold()


def kinds_text(kinds: Iterable[str]) -> str:
    """The kinds of a case's lots as the desk's filter by kind matches them: each once, in
    order, between spaces (`` cow goat ``; a kind is found as ``% cow %``)."""
    return " " + " ".join(sorted(set(kinds))) + " "


def search_columns(place: str, lots: Sequence[Lot]) -> tuple[str, str]:
    """The ``search_text`` and ``kinds`` of a case seized at ``place`` with ``lots`` (as
    the public reads them: ``public_lots``)."""
    found = search_text(place, ((lot.kind, lot.description) for lot in lots))
    return found, kinds_text(lot.kind for lot in lots)
