"""Reading a DLT portal's export of content templates and matching it to poundbot's.

A portal (Jio, Airtel, Vodafone Idea, BSNL, Tata) lists an entity's templates as a sheet,
CSV or XLSX, one row a template: its id, the name the entity gave it, its text with
``{#var#}``, its type and its status (approved, rejected, pending). The layouts differ a
little between portals and over time; the columns poundbot reads are, by default,
``COLUMNS`` (each found by its heading, any case and spacing; ``Message`` or ``Content``
for the text), and ``--columns`` names others (``parse_columns``).

An approved row is matched to poundbot's template by its text, not its name (a portal may
have rewritten the name, and the text is what the operators check): both texts are
normalised (``normalise``: Unicode NFC, no zero-width joiners, straight quotes, one space
for any run of white space, the variable marks as ``{#var#}``). Two of poundbot's
templates with the same text (in one language) are told apart by the row's name, the
``kind.lang`` poundbot gave it in the upload sheet; a text that several of poundbot's
templates share and no row names gives its id to each of them, since the operators check
the text, not which of poundbot's messages it is.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Final

from bot.support.dlt import Registry, Template

__all__ = [
    "COLUMNS",
    "ExportError",
    "Matched",
    "Row",
    "match",
    "normalise",
    "parse_columns",
    "read_export",
    "read_sheet",
]

#: The fields poundbot reads, each with the headings the portals give it (compared
#: without case, spaces or punctuation).
COLUMNS: Final[Mapping[str, tuple[str, ...]]] = {
    "id": ("Template ID", "Content Template ID", "DLT Template ID", "Template Id"),
    "name": ("Template Name",),
    "content": ("Template Content", "Message", "Content", "Template Message"),
    "type": ("Template Type", "Content Type"),
    "status": ("Status", "Template Status", "Approval Status"),
}
#: The fields a sheet must have.
REQUIRED: Final = ("id", "content", "status")
#: Rows looked at for the heading (a portal's sheet may open with a title).
_HEADING_ROWS: Final = 10

_ZERO_WIDTH: Final = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_QUOTES: Final = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
    }
)
_VAR_MARK: Final = re.compile(r"\{\s*#\s*var\s*#\s*\}|\{\{\s*var\s*\}\}", re.IGNORECASE)
_URL_MARK: Final = re.compile(r"\{\s*#\s*url\s*#\s*\}", re.IGNORECASE)
_SPACE: Final = re.compile(r"\s+")


class ExportError(Exception):
    """A sheet poundbot cannot read: its message says why, for the operator."""


def normalise(text: str) -> str:
    """A template's text as compared: NFC, no zero-width (non-)joiners, straight quotes,
    one space for any white space, the variables as ``{#var#}`` / ``{#url#}``."""
    text = unicodedata.normalize("NFC", text).translate(_ZERO_WIDTH).translate(_QUOTES)
    text = _URL_MARK.sub("{#url#}", _VAR_MARK.sub("{#var#}", text))
    return _SPACE.sub(" ", text).strip()


def _heading(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


@dataclass(frozen=True)
class Row:
    """One template of the portal's sheet, with its line (row) in the sheet."""

    line: int
    template_id: str
    name: str
    content: str
    type: str
    status: str

    @property
    def state(self) -> str:
        """approved, rejected or pending (anything else a portal says: under review,
        submitted, ...)."""
        said = self.status.strip().lower()
        if said.startswith(("approv", "active")) or said in {"accepted", "registered"}:
            return "approved"
        if any(word in said for word in ("reject", "block", "inactive", "deactiv", "expired")):
            return "rejected"
        return "pending"


def parse_columns(spec: Sequence[str]) -> dict[str, str]:
    """``--columns`` as given: ``FIELD=HEADING`` pairs (comma-separated or repeated),
    FIELD one of ``COLUMNS``; the heading as the sheet writes it."""
    out: dict[str, str] = {}
    for part in (p for each in spec for p in each.split(",")):
        if not part.strip():
            continue
        what, eq, heading = part.partition("=")
        what = what.strip().lower()
        if not eq or what not in COLUMNS or not heading.strip():
            raise ExportError(
                f"--columns: {part.strip()!r} is not FIELD=HEADING with FIELD one of "
                f"{', '.join(COLUMNS)}"
            )
        out[what] = heading.strip()
    return out


def _cells(name: str, data: bytes) -> list[list[str]]:
    """The sheet's rows as text cells: CSV (UTF-8, with or without a BOM; comma,
    semicolon or tab) or the first worksheet of an XLSX workbook; ``name`` is the file's
    (its ending says which)."""
    suffix = PurePath(name).suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _xlsx_cells(name, data)
    if suffix not in (".csv", ".txt", ".tsv"):
        raise ExportError(f"{name}: give a .csv or .xlsx file (save an .xls as .xlsx)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ExportError(f"{name}: not UTF-8 text: save the sheet as CSV UTF-8") from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    try:
        return [list(row) for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    except csv.Error as exc:
        raise ExportError(f"{name}: not a CSV file that can be read ({exc})") from None


def _xlsx_cells(name: str, data: bytes) -> list[list[str]]:
    import zipfile

    from openpyxl import load_workbook  # only an XLSX needs it

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ExportError(f"{name}: not an XLSX workbook ({exc})") from None
    try:
        sheet = book.worksheets[0]
        return [
            ["" if cell is None else _xlsx_text(cell) for cell in row]
            for row in sheet.iter_rows(values_only=True)
        ]
    finally:
        book.close()


def _xlsx_text(value: object) -> str:
    """A cell as text; an id a spreadsheet stored as a number keeps all its digits."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_export(path: Path, columns: Mapping[str, str] | None = None) -> list[Row]:
    """The rows of a portal's export, by ``COLUMNS`` or the headings ``columns`` names."""
    return read_sheet(path.name, path.read_bytes(), columns)


def read_sheet(name: str, data: bytes, columns: Mapping[str, str] | None = None) -> list[Row]:
    """The rows of a portal's export ``data`` (a file called ``name``: an upload), by
    ``COLUMNS`` or the headings ``columns`` names."""
    rows = _cells(name, data)
    wanted = {
        what: (columns[what],) if columns and what in columns else names
        for what, names in COLUMNS.items()
    }
    for n, cells in enumerate(rows[:_HEADING_ROWS]):
        headings = [_heading(c) for c in cells]
        where: dict[str, int] = {}
        for what, names in wanted.items():
            for name in names:
                if _heading(name) in headings:
                    where[what] = headings.index(_heading(name))
                    break
        if all(what in where for what in REQUIRED):
            return [
                _row(line, cells, where)
                for line, cells in enumerate(rows[n + 1 :], start=n + 2)
                if any(c.strip() for c in cells)
            ]
    lacking = [" or ".join(repr(h) for h in wanted[what]) for what in REQUIRED]
    raise ExportError(
        f"{name}: no heading row with the columns {'; '.join(lacking)} in its first "
        f"{_HEADING_ROWS} rows: name this sheet's columns with --columns "
        "(e.g. --columns 'id=DLT Template Id,content=Body,status=State')"
    )


def _row(line: int, cells: list[str], where: Mapping[str, int]) -> Row:
    def cell(what: str) -> str:
        n = where.get(what)
        return cells[n].strip() if n is not None and n < len(cells) else ""

    template_id = cell("id").lstrip("'")
    return Row(line, template_id, cell("name"), cell("content"), cell("type"), cell("status"))


@dataclass
class Matched:
    """What an export gave: the id of each of poundbot's templates it matched (by
    ``kind.lang``), and the rows it could not use."""

    ids: dict[str, str] = field(default_factory=dict)
    #: approved rows and the templates each gave its id to
    matched: list[tuple[Row, list[str]]] = field(default_factory=list)
    #: approved rows whose text is none of poundbot's, with the reason
    unmatched: list[tuple[Row, str]] = field(default_factory=list)
    rejected: list[Row] = field(default_factory=list)
    pending: list[Row] = field(default_factory=list)


def match(rows: Sequence[Row], templates: Registry) -> Matched:
    """Match each approved row to poundbot's templates by its normalised text; two of
    poundbot's with the same text are told apart by the row's name (``kind.lang``)."""
    by_text: dict[str, list[Template]] = {}
    for t in templates:
        by_text.setdefault(normalise(t.text), []).append(t)
    out = Matched()
    named: dict[str, list[tuple[Row, list[Template]]]] = {}
    for row in rows:
        if row.state == "rejected":
            out.rejected.append(row)
            continue
        if row.state == "pending":
            out.pending.append(row)
            continue
        if not re.fullmatch(r"\d{1,30}", row.template_id):
            out.unmatched.append((row, f"the template id {row.template_id!r} is not digits"))
            continue
        text = normalise(row.content.removeprefix("'"))
        found = by_text.get(text, [])
        if not found:
            same_name = templates.get(row.name.strip())
            why = (
                f"its text differs from poundbot's {same_name.name}"
                if same_name is not None
                else "its text is none of poundbot's templates"
            )
            out.unmatched.append((row, why))
            continue
        named.setdefault(text, []).append((row, found))
    for group in named.values():
        candidates = group[0][1]
        claimed: dict[str, Row] = {}
        for row, _ in group:  # a row that names one of the candidates takes it
            own = [t.name for t in candidates if row.name.strip() in (t.name, t.kind)]
            for name in own:
                claimed.setdefault(name, row)
        first = group[0][0]
        for t in candidates:  # the others take the first row's id
            row = claimed.get(t.name, first)
            out.ids[t.name] = row.template_id
        for row, _ in group:
            gave = sorted(t.name for t in candidates if out.ids[t.name] == row.template_id)
            out.matched.append((row, gave))
    return out
