"""The configuration's TOML document changed in place, its comments and layout kept
(tomlkit): the tables of an array (``[[authorities]]``, ``[[pounds]]``, ``[[kinds]]``)
found by code, their fields set or removed, a table added; each change returned as the
audit keeps it.

Pure: text in, text out. ``bot.services.config_edit`` checks the result as any imported
configuration is checked and writes it as a new version.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from typing import Any, NamedTuple

import tomlkit
from tomlkit.items import AoT, Table
from tomlkit.toml_document import TOMLDocument

__all__ = [
    "Change",
    "Value",
    "add_table",
    "dump",
    "load",
    "set_fields",
    "shown",
    "table_of",
]

#: A field's value as a form gives it: text, a whole number, a list of texts, text per
#: language ({"en": ..., "ml": ...}), or None (the field removed).
Value = str | int | list[str] | dict[str, str] | None


class Change(NamedTuple):
    """A value changed: of which authority (None: the state's), which entity (authority,
    pound, kind, fine, feeding, dlt, ...) and key (its code), which field, the old and the
    new value as text (None: none)."""

    authority: str | None
    entity: str
    key: str
    field: str
    old: str | None
    new: str | None


def load(text: str) -> TOMLDocument:
    """The document of ``text`` (raises ``tomlkit.exceptions.ParseError``)."""
    return tomlkit.parse(text)


def dump(document: TOMLDocument) -> str:
    """The text of ``document``."""
    return tomlkit.dumps(document)


def _plain(value: Any) -> Any:
    """A tomlkit item as plain Python (dicts, lists, text, numbers)."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def shown(value: Any) -> str | None:
    """A value as the audit keeps it: None none, text as it is, anything else as JSON
    (keys sorted, dates as ISO text)."""
    plain = _plain(value)
    if plain is None:
        return None
    if isinstance(plain, str):
        return plain
    return json.dumps(plain, ensure_ascii=False, sort_keys=True, default=str)


def table_of(document: TOMLDocument, array: str, code: str) -> Table | None:
    """The table of ``[[array]]`` whose ``code`` is ``code`` (None: there is none)."""
    tables = document.get(array)
    if not isinstance(tables, AoT):
        return None
    for table in tables:
        if isinstance(table, Table) and table.get("code") == code:
            return table
    return None


def _set(table: MutableMapping[str, Any], field: str, value: Value) -> None:
    """Set ``field`` of ``table`` to ``value`` in place: a table of languages keeps its
    form (dotted keys or inline), its languages set and removed one by one."""
    if value is None:
        del table[field]
        return
    old = table.get(field)
    if isinstance(value, dict) and isinstance(old, MutableMapping):
        # Looked up again after each removal: the proxy tomlkit gives for dotted keys
        # (``address.en = ...``) no longer finds its other keys once one is deleted.
        for language in [language for language in old if language not in value]:
            del table[field][language]
        for language, text in value.items():
            if table[field].get(language) != text:
                table[field][language] = text
        return
    if isinstance(value, dict):
        inline = tomlkit.inline_table()
        inline.update(value)
        table[field] = inline
        return
    table[field] = value


def set_fields(
    table: MutableMapping[str, Any],
    fields: Mapping[str, Value],
    *,
    authority: str | None,
    entity: str,
    key: str,
) -> list[Change]:
    """Set each of ``fields`` on ``table`` (None removes the field); the changes, a field
    whose value is already ``fields``' left as it is and not counted."""
    done: list[Change] = []
    for field, value in fields.items():
        before = _plain(table.get(field))
        if before == value or (before is None and value is None):
            continue
        _set(table, field, value)
        done.append(Change(authority, entity, key, field, shown(before), shown(value)))
    return done


def add_table(
    document: TOMLDocument,
    array: str,
    fields: Mapping[str, Value],
    *,
    authority: str | None,
    entity: str,
) -> list[Change]:
    """Add a table to ``[[array]]`` (made when the document has none) with ``fields``
    (``code`` first); the changes, a field a row, each from nothing."""
    table = tomlkit.table()
    for field, value in fields.items():
        if value is not None:
            _set(table, field, value)
    table.add(tomlkit.nl())
    tables = document.get(array)
    if isinstance(tables, AoT):
        tables.append(table)
    else:
        document.append(array, tomlkit.aot())
        document[array].append(table)
    key = str(fields.get("code", ""))
    return [
        Change(authority, entity, key, field, None, shown(value))
        for field, value in fields.items()
        if value is not None
    ]
