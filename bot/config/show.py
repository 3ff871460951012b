"""``poundbot config show``: the configuration in force, one key a line, with where each
value comes from (the file and its line, or poundbot's default for a key left out).

Only a file that ``config check`` passes is shown: what is printed is what runs.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator
from datetime import date, datetime, time
from typing import Any

from bot.config.lines import Key, Lines
from bot.config.load import parse_config
from bot.config.model import Config, ProvisoOffice
from bot.config.names import Name

__all__ = ["DEFAULTED", "shown"]

#: The keys a file may leave out and the value poundbot then uses.
DEFAULTED: dict[Key, Callable[[Config], Any]] = {
    ("policy", "phone_region"): lambda c: c.phone_region,
    ("policy", "barred_buyers"): lambda c: list(c.barred_buyers),
    ("proviso_offices",): lambda c: [_office(o) for o in c.proviso_offices],
    ("limits", "window_minutes"): lambda c: int(c.limits.window.total_seconds() // 60),
    ("limits", "public"): lambda c: c.limits.public,
    ("limits", "keeper"): lambda c: c.limits.keeper,
    ("limits", "officer"): lambda c: c.limits.officer,
    ("limits", "answers_per_hour"): lambda c: c.limits.answers_per_hour,
    ("limits", "answers_per_day"): lambda c: c.limits.answers_per_day,
    ("limits", "answers_per_number_per_day"): lambda c: c.limits.answers_per_number_per_day,
    ("backups", "time"): lambda c: c.backups.at,
    ("backups", "keep"): lambda c: c.backups.keep,
    ("retention", "messages_days"): lambda c: c.retention.messages_days,
    ("dlt", "slot_limit"): lambda c: c.dlt.slot_limit,
}


def _office(office: ProvisoOffice) -> dict[str, Any]:
    """An office (s.13(3) proviso) as its [[proviso_offices]] table writes it."""

    def forms(name: str) -> dict[str, str]:
        return {"en": str(name), **(name.forms if isinstance(name, Name) else {})}

    return {
        "code": office.code,
        "name": forms(office.name),
        "short": forms(office.short),
        "office": office.office.value,
    }


def shown(text: str, name: str) -> list[str]:
    """The lines of ``config show`` for configuration ``text`` read from ``name``: each
    key with the line it is on, or ``default``. each
    key with the line of ``name`` it is on, or ``default``.

    Raises ConfigError (every fault, with its line) as ``config check`` does.
    """
    config = parse_config(text, name)
    raw = tomllib.loads(text)
    lines = Lines(text)
    rows = [
        (_dotted(raw, key), _value(value), f"line {lines.at(key)}")
        for key, value in _leaves(raw, ())
    ]
    for key, read in DEFAULTED.items():
        if not _present(raw, key):
            rows.append((_dotted(raw, key), _value(read(config)), "default"))
    rows += _default_acts(raw, config)
    rows += _default_offices(raw, config)
    width = min(max(len(f"{k} = {v}") for k, v, _ in rows), 60)
    return [f"{f'{key} = {value}':<{width}}  # {source}" for key, value, source in rows]


def _default_acts(raw: dict[str, Any], config: Config) -> list[tuple[str, str, str]]:
    """The Act of each authority whose table names none: the Kerala Act as enacted, from
    the beginning (``[[authorities.acts]]``)."""
    rows = []
    for index, table in enumerate(raw["authorities"]):
        if "acts" not in table:
            act = config.authorities[table["code"]].act_on(date.min).act
            key = _dotted(raw, ("authorities", index, "acts"))
            rows.append((key, _value([{"act": act}]), "default"))
    return rows


def _default_offices(raw: dict[str, Any], config: Config) -> list[tuple[str, str, str]]:
    """Beside the file's [[proviso_offices]] (s.13(3) proviso): the office of a table
    that names none (the Director), and each office poundbot supplies for an Act in use
    whose office that may order another disposal no table names, by its code (without
    the section, the key's own row shows them all)."""
    tables = raw.get("proviso_offices")
    if not isinstance(tables, list):
        return []
    rows = []
    for office in config.proviso_offices:
        index = next((i for i, t in enumerate(tables) if t.get("code") == office.code), None)
        if index is None:
            rows.append((f"proviso_offices[{office.code}]", _value(_office(office)), "default"))
        elif "office" not in tables[index]:
            key = _dotted(raw, ("proviso_offices", index, "office"))
            rows.append((key, _value(office.office.value), "default"))
    return rows


def _leaves(value: Any, key: Key) -> Iterator[tuple[Key, Any]]:
    """Every scalar (or list of scalars) of the TOML document, with its key path."""
    if isinstance(value, dict):
        for name, inner in value.items():
            yield from _leaves(inner, (*key, name))
    elif isinstance(value, list) and any(isinstance(item, dict) for item in value):
        for index, item in enumerate(value):
            yield from _leaves(item, (*key, index))
    else:
        yield key, value


def _present(raw: dict[str, Any], key: Key) -> bool:
    here: Any = raw
    for part in key:
        if not isinstance(here, dict) or part not in here:
            return False
        here = here[part]
    return True


def _dotted(raw: dict[str, Any], key: Key) -> str:
    """``pounds[KNM].name`` for ``("pounds", 0, "name")``: an array's table by its code."""
    out: str = ""
    here: Any = raw
    for part in key:
        here = _step(here, part)
        if isinstance(part, int):
            code = here.get("code") if isinstance(here, dict) else None
            out += f"[{code}]" if isinstance(code, str) else f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _step(here: Any, part: str | int) -> Any:
    """``here[part]``, or None where there is no such key or item."""
    if isinstance(here, dict) and isinstance(part, str):
        return here.get(part)
    if isinstance(here, list) and isinstance(part, int) and part < len(here):
        return here[part]
    return None


def _value(value: Any) -> str:
    """A value as TOML writes it (strings quoted, times as HH:MM)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, time):
        return value.strftime("%H:%M")
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
