"""The schema of a database as poundbot compares it, and the schema each known revision
gives, recorded in ``migrations/schemas/<name>.json``.

A schema is its tables, each with four sections of ``name -> text``: ``columns`` (the
generic type, its length, ``null`` when it may be empty, ``primary key``), ``unique``
(constraints), ``indexes`` and ``foreign_keys`` (by the columns that refer). It reads
the same on SQLite and PostgreSQL: no dialect's type names, no time zones, no indexes
PostgreSQL makes for a unique constraint. Alembic's own ``alembic_version`` is left
out; anything else in the database is part of it.

Reading a schema takes a query per table and kind (over a hundred); every start reads
it. On SQLite the statements that made a schema (``sqlite_master``) are the whole of it,
so a schema once read is kept for the process under those statements, and a database
whose statements are the same is not read again (a test, the demo and a CLI command
open a database many times in one process).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import String, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.types import TypeEngine

from bot.support.resources import data_dir

__all__ = [
    "SCHEMAS",
    "Schema",
    "SchemaRefused",
    "differences",
    "digest",
    "load_schema",
    "read_schema",
    "save_schema",
]

#: A schema: table -> section (columns, unique, indexes, foreign_keys) -> name -> text.
Schema = dict[str, dict[str, dict[str, str]]]

#: Where the schema each known revision (or earlier variant) gives is recorded.
SCHEMAS = data_dir("migrations") / "schemas"

SECTIONS = ("columns", "unique", "indexes", "foreign_keys")
_SINGULAR = {
    "columns": "column",
    "unique": "unique constraint",
    "indexes": "index",
    "foreign_keys": "foreign key",
}
_SKIPPED = frozenset({"alembic_version"})


#: How many differences a refusal shows on one line (``migrate --status`` shows all).
SHOWN = 8


class SchemaRefused(Exception):
    """A database this version will not migrate: its schema is not the one its revision
    gives (nor that of an earlier variant), or its revision is unknown."""

    def __init__(self, summary: str, found: list[str] | None = None) -> None:
        self.summary = summary
        self.differences = list(found or ())
        shown = "; ".join(self.differences[:SHOWN])
        more = len(self.differences) - SHOWN
        if more > 0:
            shown += f"; and {more} more (poundbot migrate --status lists them)"
        super().__init__(f"{summary}: {shown}" if shown else summary)


def _type(type_: TypeEngine[Any]) -> str:
    """``String(20)``, ``Integer``, ``DateTime``: the generic type, as on every engine."""
    key = (type(type_), getattr(type_, "length", None))
    found = _GENERIC.get(key)
    if found is None:
        found = _GENERIC[key] = _generic(type_)
    return found


_GENERIC: dict[tuple[type[Any], Any], str] = {}


def _generic(type_: TypeEngine[Any]) -> str:
    try:
        generic = type_.as_generic()
    except NotImplementedError:  # a type of one dialect only: its own name
        return type(type_).__name__
    length = getattr(generic, "length", None)
    if isinstance(generic, String) and length:
        return f"{type(generic).__name__}({length})"
    return type(generic).__name__


def _names(columns: Iterable[str | None]) -> str:
    return ", ".join(str(c) for c in columns)


#: Schemas read on SQLite, under the statements that made them (``_made_by``); a few.
_READ: dict[tuple[tuple[str, ...], ...], Schema] = {}
_KEPT = 16


def _made_by(connection: Connection) -> tuple[tuple[str, ...], ...] | None:
    """The statements that made the schema of a SQLite database, in a fixed order; None
    on another engine."""
    if connection.dialect.name != "sqlite":
        return None
    rows = connection.execute(
        text(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master "
            "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        )
    )
    return tuple(tuple(str(v) for v in row) for row in rows)


def read_schema(connection: Connection) -> Schema:
    """The schema of the database on ``connection`` (run it with ``run_sync``); on SQLite
    the one kept for the same statements, if it was read before (see the module)."""
    made_by = _made_by(connection)
    if made_by is not None and made_by in _READ:
        return copy.deepcopy(_READ[made_by])
    found = _reflect(connection)
    if made_by is not None:
        if len(_READ) >= _KEPT:
            _READ.pop(next(iter(_READ)))
        _READ[made_by] = copy.deepcopy(found)
    return found


def _reflect(connection: Connection) -> Schema:
    """The schema of the database on ``connection``, read table by table."""
    inspector = inspect(connection)
    tables = sorted(set(inspector.get_table_names()) - _SKIPPED)
    if not tables:
        return {}
    keys = [(None, t) for t in tables]
    columns = inspector.get_multi_columns(filter_names=tables)
    keys_ = inspector.get_multi_pk_constraint(filter_names=tables)
    uniques = inspector.get_multi_unique_constraints(filter_names=tables)
    indexes = inspector.get_multi_indexes(filter_names=tables)
    foreign = inspector.get_multi_foreign_keys(filter_names=tables)
    found: Schema = {}
    for key in keys:
        pk = keys_.get(key)
        primary = set(pk["constrained_columns"]) if pk else set()
        table: dict[str, dict[str, str]] = {section: {} for section in SECTIONS}
        for column in columns.get(key, []):
            text = _type(column["type"])
            if column["nullable"]:
                text += " null"
            if column["name"] in primary:
                text += " primary key"
            table["columns"][column["name"]] = text
        for unique in uniques.get(key, []):
            cols = _names(unique["column_names"])
            table["unique"][unique["name"] or f"({cols})"] = cols
        for index in indexes.get(key, []):
            if index.get("duplicates_constraint"):  # PostgreSQL's index of a unique constraint
                continue
            cols = _names(index["column_names"])
            text = f"unique {cols}" if index["unique"] else cols
            table["indexes"][index["name"] or f"({cols})"] = text
        for fk in foreign.get(key, []):
            refers = f"{fk['referred_table']}({_names(fk['referred_columns'])})"
            table["foreign_keys"][_names(fk["constrained_columns"])] = refers
        found[str(key[1])] = table
    return found


def differences(expected: Mapping[str, Any], found: Mapping[str, Any]) -> list[str]:
    """What ``found`` has that ``expected`` has not, and the reverse, one line each:
    ``table media_fetches: missing``, ``cases: column snapshot: not expected``."""
    lines = []
    for table in sorted(set(expected) | set(found)):
        if table not in found:
            lines.append(f"table {table}: missing")
            continue
        if table not in expected:
            lines.append(f"table {table}: not expected")
            continue
        for section in SECTIONS:
            want, have = expected[table].get(section, {}), found[table].get(section, {})
            what = _SINGULAR[section]
            for name in sorted(set(want) | set(have)):
                if name not in have:
                    lines.append(f"{table}: {what} {name}: missing")
                elif name not in want:
                    lines.append(f"{table}: {what} {name}: not expected")
                elif want[name] != have[name]:
                    lines.append(f"{table}: {what} {name}: {have[name]}, expected {want[name]}")
    return lines


def _path(name: str, folder: Path | None) -> Path:
    return (folder or SCHEMAS) / f"{name}.json"


def load_schema(name: str, folder: Path | None = None) -> Schema | None:
    """The schema recorded as ``name`` (a revision, or an earlier variant), or None."""
    path = _path(name, folder)
    if not path.is_file():
        return None
    loaded: Schema = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _text(schema: Schema) -> str:
    return json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def save_schema(name: str, schema: Schema, folder: Path | None = None) -> Path:
    """Record ``schema`` as ``name``; returns the file written."""
    path = _path(name, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_text(schema), encoding="utf-8")
    return path


def digest(schema: Schema) -> str:
    """A short fingerprint of a schema (what the list of revisions keeps of each)."""
    return hashlib.sha256(_text(schema).encode()).hexdigest()[:16]
