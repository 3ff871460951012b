"""Pounds added and changed in bulk from a CSV file (a state administrator's, on the web
desk): each line read and checked against the configuration in force, what it would do
said line by line (the dry run), and the change that does them all as one version.

The columns (a header line first; any order; only ``code`` required):
``code, authority, name_en, name_ml, name_ta, name_kn, address_en, ..., hours_en, ...,
phone, languages, tariff``. A line whose code is a pound's changes the values its cells
give (an empty cell leaves a value as it is; a pound's code and authority never
change); another adds a pound, which needs ``authority``, ``name_en``, ``address_en``
and ``languages`` (codes, ``ml en``, in the order its notices print them).

Pure: text in, a plan out (``plan``), and the plan done on a document (``apply``); the
checks of an imported configuration (``parse_config``) check the result.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from tomlkit.toml_document import TOMLDocument

from bot.config.edit import Change, Value, add_table, dump, load, set_fields, table_of
from bot.support.languages import LANGUAGES
from bot.web.config_place_forms import POUND_CODE, POUND_NAMES, plain

__all__ = ["COLUMNS", "MAX_LINES", "BadFile", "Line", "Plan", "apply", "plan"]

#: The columns a file may have.
COLUMNS = (
    "code",
    "authority",
    *(f"{field}_{lang}" for field in POUND_NAMES for lang in ("en", "ml", "ta", "kn")),
    "phone",
    "languages",
    "tariff",
)
#: The most lines a file may have (the header aside).
MAX_LINES = 2000
_SPLIT = re.compile(r"[\s,;/|]+")


class BadFile(Exception):
    """A file that is no CSV of pounds: ``why`` (``header``, ``empty``, ``long``) and
    ``columns`` (those not known)."""

    def __init__(self, why: str, columns: tuple[str, ...] = ()) -> None:
        super().__init__(why)
        self.why = why
        self.columns = columns


class Line(NamedTuple):
    """A line of the file as checked: its number (the header is line 1), its code, what
    it does (``added``, ``changed``, ``unchanged``, ``refused``), the fields it changes
    or the reason it is refused (``why``, with ``facts``), and its values."""

    number: int
    code: str
    status: str
    fields: tuple[str, ...] = ()
    why: str = ""
    facts: tuple[tuple[str, str], ...] = ()
    values: tuple[tuple[str, Any], ...] = ()


class Plan(NamedTuple):
    """The lines of a file, checked."""

    lines: list[Line]

    @property
    def refused(self) -> list[Line]:
        return [line for line in self.lines if line.status == "refused"]

    @property
    def changing(self) -> list[Line]:
        return [line for line in self.lines if line.status in ("added", "changed")]


def _rows(text: str) -> list[dict[str, str]]:
    sample = text[:4096]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows = [row for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        raise BadFile("empty")
    header = [cell.strip().lower() for cell in rows[0]]
    unknown = tuple(h for h in header if h not in COLUMNS)
    if unknown or "code" not in header or len(set(header)) != len(header):
        raise BadFile("header", unknown)
    if len(rows) - 1 > MAX_LINES:
        raise BadFile("long")
    return [
        {h: " ".join(cell.split()) for h, cell in zip(header, row, strict=False)}
        for row in rows[1:]
    ]


def _named(row: Mapping[str, str], field: str, old: Any) -> Value:
    """A text per language: the old one with each language the line gives set."""
    given = {lang: row.get(f"{field}_{lang}", "") for lang in ("en", "ml", "ta", "kn")}
    given = {lang: text for lang, text in given.items() if text}
    if not given:
        return plain(old)  # type: ignore[no-any-return]
    before = plain(old)
    if isinstance(before, dict):
        return {**before, **given}
    if isinstance(before, str) and "en" not in given:
        return {"en": before, **given}
    if list(given) == ["en"]:
        return given["en"]
    return given


def _languages(text: str) -> list[str] | None:
    """The languages of a cell, in order; None when one is unknown or given twice."""
    codes = [code.lower() for code in _SPLIT.split(text) if code]
    if not codes or any(c not in LANGUAGES for c in codes) or len(set(codes)) != len(codes):
        return None
    return codes


def _line(document: TOMLDocument, number: int, row: Mapping[str, str], seen: set[str]) -> Line:
    code = row.get("code", "").upper()
    if not POUND_CODE.fullmatch(code):
        return Line(number, code, "refused", why="code")
    if code in seen:
        return Line(number, code, "refused", why="twice")
    seen.add(code)
    languages: list[str] | None = None
    if row.get("languages"):
        languages = _languages(row["languages"])
        if languages is None:
            return Line(number, code, "refused", why="languages")
    found = table_of(document, "pounds", code)
    old: Mapping[str, Any] = plain(found) if found is not None else {}
    authority = row.get("authority", "").upper()
    if found is not None and authority and authority != old.get("authority"):
        return Line(number, code, "refused", why="moved")
    values: dict[str, Any] = {field: _named(row, field, old.get(field)) for field in POUND_NAMES}
    values["phone"] = row.get("phone") or old.get("phone")
    values["languages"] = languages or old.get("languages")
    if found is None:
        missing = [c for c in ("authority", "name_en", "address_en", "languages") if not row.get(c)]
        if missing:
            return Line(
                number, code, "refused", why="missing", facts=(("fields", ", ".join(missing)),)
            )
        if table_of(document, "authorities", authority) is None:
            return Line(number, code, "refused", why="authority", facts=(("authority", authority),))
        values = {"authority": authority, **values, "tariff": row.get("tariff") or None}
        return Line(number, code, "added", fields=tuple(values), values=tuple(values.items()))
    changed = tuple(field for field, value in values.items() if value != old.get(field))
    if not changed:
        return Line(number, code, "unchanged")
    kept = tuple((field, values[field]) for field in changed)
    return Line(number, code, "changed", fields=changed, values=kept)


def plan(document: TOMLDocument, text: str) -> Plan:
    """What each line of ``text`` would do to ``document`` (raises ``BadFile``)."""
    seen: set[str] = set()
    rows = _rows(text)
    return Plan([_line(document, n, row, seen) for n, row in enumerate(rows, start=2)])


def apply(document: TOMLDocument, found: Plan) -> list[Change]:
    """The lines of ``found`` that add or change a pound, done on ``document``."""
    done: list[Change] = []
    for line in found.changing:
        values: dict[str, Value] = dict(line.values)
        if line.status == "added":
            authority = str(values["authority"])
            fields = {"code": line.code, **values}
            done += add_table(document, "pounds", fields, authority=authority, entity="pound")
            continue
        table = table_of(document, "pounds", line.code)
        assert table is not None
        authority = str(table.get("authority"))
        done += set_fields(table, values, authority=authority, entity="pound", key=line.code)
    return done


def tried(document: TOMLDocument, found: Plan) -> TOMLDocument:
    """A copy of ``document`` with ``found`` done on it (for the dry run's checks)."""
    again = load(dump(document))
    apply(again, found)
    return again
