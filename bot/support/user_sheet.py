"""A sheet of users as a CSV file (``bot.services.user_import``): its bytes read into
rows, each a line of the sheet with its cells by field; nothing else is decided here.

The file is UTF-8 (a byte-order mark, as Excel's "CSV UTF-8" writes, is dropped), its
cells separated by commas, semicolons or tabs (whichever the heading row has most of),
at most ``MAX_BYTES`` and ``MAX_ROWS`` rows. Its first row that is not blank names the
columns: each heading is compared without case, spaces or punctuation with those of
``HEADINGS`` (and any the caller adds: the desk's words for them in each language);
``phone`` and ``role`` must be there, a heading that names nothing is passed over (and
said). Blank lines are skipped; a line keeps its number in the sheet (the first is 1),
so that a refusal names the row a spreadsheet shows.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.support.errors import SheetRefusedError

__all__ = ["FIELDS", "HEADINGS", "MAX_BYTES", "MAX_ROWS", "REQUIRED", "Sheet", "SheetRow", "read"]

#: The largest file read (bytes), and the most rows of users in it.
MAX_BYTES: Final = 1_000_000
MAX_ROWS: Final = 5_000
#: The fields of a user a sheet may give, in the order a template lists them.
FIELDS: Final = ("name", "phone", "role", "lang", "pound", "authority", "offices", "reason")
#: The fields every sheet must have a column for.
REQUIRED: Final = ("phone", "role")
#: The English headings of each field (any case, spacing or punctuation).
HEADINGS: Final[Mapping[str, tuple[str, ...]]] = {
    "name": ("name", "full name"),
    "phone": ("phone", "phone number", "mobile", "mobile number"),
    "role": ("role",),
    "lang": ("language", "lang"),
    "pound": ("pound", "pound code"),
    "authority": ("authority", "local authority", "authority code"),
    "offices": ("offices", "office"),
    "reason": ("reason",),
}
#: A file that is a workbook (XLSX, ODS: a ZIP), or an old Excel one (OLE2), not CSV.
_WORKBOOKS: Final = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")
_PLAIN: Final = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A line of the sheet that is not blank: its number, its cells by field (blank: ""),
    and whether it has cells beyond the heading row's (a stray separator)."""

    line: int
    cells: Mapping[str, str]
    overflow: bool = False

    def get(self, field: str) -> str:
        return self.cells.get(field, "")


@dataclass(frozen=True, slots=True)
class Sheet:
    """The rows of a sheet, the fields its columns give, and the headings it has that
    name none (passed over)."""

    rows: tuple[SheetRow, ...]
    fields: tuple[str, ...]
    ignored: tuple[str, ...]


def _plain(heading: str) -> str:
    return _PLAIN.sub("", unicodedata.normalize("NFC", heading).casefold())


def _text(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise SheetRefusedError("file too big", why="too_big", limit=MAX_BYTES)
    if data.startswith(_WORKBOOKS):
        raise SheetRefusedError("a workbook, not CSV", why="workbook")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SheetRefusedError("not UTF-8", why="not_utf8") from None
    if "\x00" in text:
        raise SheetRefusedError("not text", why="not_csv")
    return text


def read(data: bytes, more: Mapping[str, Iterable[str]] | None = None) -> Sheet:
    """The rows of the sheet ``data``; ``more``: headings of each field besides
    ``HEADINGS``. A file that is no such sheet is ``SheetRefusedError`` (its ``why``:
    ``too_big``, ``workbook``, ``not_utf8``, ``not_csv``, ``empty``, ``missing_column``
    with the ``column``, ``column_twice``, ``too_many_rows``)."""
    text = _text(data)
    known: dict[str, str] = {}
    for field, names in HEADINGS.items():
        for name in (*names, *(more or {}).get(field, ())):
            known.setdefault(_plain(name), field)
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise SheetRefusedError("no rows", why="empty")
    delimiter = max(",;\t", key=lines[0].count)
    try:
        raw = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error:
        raise SheetRefusedError("not CSV", why="not_csv") from None
    numbered = [(n, cells) for n, cells in enumerate(raw, start=1) if any(c.strip() for c in cells)]
    headings = numbered[0][1]
    where: dict[str, int] = {}
    ignored: list[str] = []
    for at, heading in enumerate(headings):
        named = known.get(_plain(heading))
        if named is None:
            if heading.strip():
                ignored.append(heading.strip())
            continue
        if named in where:
            raise SheetRefusedError("a column twice", why="column_twice", column=heading.strip())
        where[named] = at
    for field in REQUIRED:
        if field not in where:
            raise SheetRefusedError("a column missing", why="missing_column", column=field)
    body = numbered[1:]
    if len(body) > MAX_ROWS:
        raise SheetRefusedError("too many rows", why="too_many_rows", limit=MAX_ROWS)
    rows = tuple(
        SheetRow(
            line=n,
            cells={f: cells[at].strip() if at < len(cells) else "" for f, at in where.items()},
            overflow=any(c.strip() for c in cells[len(headings) :]),
        )
        for n, cells in body
    )
    if not rows:
        raise SheetRefusedError("no rows", why="empty")
    return Sheet(rows, tuple(f for f in FIELDS if f in where), tuple(ignored))
