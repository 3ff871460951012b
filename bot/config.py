"""The configuration file: authorities, pounds, kinds of cattle (s.2(1)), dated tariffs
(s.11 fines, s.4 feeding charges), policy and reminder settings.

The file is TOML; ``sample_config.toml`` documents every key. It is read into frozen
dataclasses over the domain types. Validation collects every fault with the line it is
on, so that one ``poundbot config check FILE`` shows them all.
"""

from __future__ import annotations

import contextlib
import difflib
import enum
import math
import os
import re
import tomllib
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from domain.dues import DuesItem
from domain.kinds import Kind, Kinds
from domain.money import Money
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff

__all__ = [
    "LANGUAGES",
    "Authority",
    "AuthorityKind",
    "Config",
    "ConfigError",
    "Fault",
    "Pound",
    "ReminderSettings",
    "load_config",
    "normalize_word",
    "parse_config",
    "sample_config_path",
]

#: Languages of notices and messages: Malayalam and English (official in Kerala),
#: Tamil and Kannada (linguistic-minority areas).
LANGUAGES = ("ml", "en", "ta", "kn")


class AuthorityKind(enum.Enum):
    """The kinds of local authority that run pounds."""

    GRAMA_PANCHAYAT = "grama_panchayat"
    MUNICIPALITY = "municipality"
    CORPORATION = "corporation"


@dataclass(frozen=True, slots=True)
class Authority:
    """A local authority, with where its s.13(2) notice is affixed and proclaimed."""

    code: str
    name: str
    kind: AuthorityKind
    district: str
    office_address: str  # s.13(2): the notice is affixed in its office
    village: str  # s.13(2): proclaimed by beat of drum in the village ...
    market_place: str  # ... and in the market place nearest to the place of seizure
    default_language: str


@dataclass(frozen=True, slots=True)
class Pound:
    """A pound of an authority; ``tariff`` names the tariff table it applies."""

    code: str
    name: str
    authority: str
    address: str  # s.13(2)(c): the place where the cattle are impounded
    languages: tuple[str, ...]
    tariff: str


@dataclass(frozen=True, slots=True)
class ReminderSettings:
    """When reminders go out, the night hours with no owner SMS, and the SMS rate limit."""

    timezone: ZoneInfo
    reminder_time: time
    night_start: time
    night_end: time
    sms_per_second: float

    def is_night(self, at: time) -> bool:
        """Whether the local wall-clock time ``at`` is in the night hours [start, end)."""
        if self.night_start < self.night_end:
            return self.night_start <= at < self.night_end
        return at >= self.night_start or at < self.night_end


@dataclass(frozen=True, slots=True)
class Config:
    """A checked configuration. ``pounds`` and ``tariffs`` are keyed by pound code;
    ``kind_words[lang][normalize_word(word)]`` is a kind code."""

    authorities: Mapping[str, Authority]
    pounds: Mapping[str, Pound]
    kinds: Kinds
    kind_words: Mapping[str, Mapping[str, str]]
    tariffs: Mapping[str, Tariff]
    deduction_order: tuple[DuesItem, ...]  # s.15(2): what sale proceeds meet first
    feeding_days: FeedingDays
    reminders: ReminderSettings

    def authority_of(self, pound: str) -> Authority:
        """The local authority that runs the pound with code ``pound``."""
        return self.authorities[self.pounds[pound].authority]

    def kind_for_word(self, language: str, word: str) -> str | None:
        """The kind code that ``word`` names in ``language``, or None."""
        return self.kind_words.get(language, {}).get(normalize_word(word))


@dataclass(frozen=True, order=True, slots=True)
class Fault:
    """One fault of a configuration file, at a 1-based line."""

    line: int
    message: str


class ConfigError(Exception):
    """A configuration file with faults; ``faults`` lists every one, by line."""

    def __init__(self, faults: Iterable[Fault], name: str = "<string>") -> None:
        self.faults: list[Fault] = sorted(faults)
        self.name = name
        super().__init__("\n".join(f"{name}:{f.line}: {f.message}" for f in self.faults))


# Malayalam chillu letters typed the old way: consonant, virama, zero-width joiner.
_CHILLU = {"ണ്\u200d": "ൺ", "ന്\u200d": "ൻ", "ര്\u200d": "ർ", "ല്\u200d": "ൽ", "ള്\u200d": "ൾ"}


def normalize_word(word: str) -> str:
    """A word for a kind as compared: NFC, casefolded, single-spaced, old-style Malayalam
    chillus made atomic and zero-width (non-)joiners dropped."""
    text = unicodedata.normalize("NFC", word.casefold())
    for old, new in _CHILLU.items():
        text = text.replace(old, new)
    return " ".join(text.replace("\u200c", "").replace("\u200d", "").split())


def sample_config_path() -> Traversable:
    """The sample configuration shipped in the package (``bot/sample_config.toml``)."""
    return files("bot").joinpath("sample_config.toml")


def load_config(path: str | os.PathLike[str] | Traversable) -> Config:
    """Read and check the configuration file at ``path``.

    Raises ConfigError listing every fault, or OSError when the file cannot be read.
    """
    source = Path(path) if isinstance(path, str | os.PathLike) else path
    name = os.fspath(path) if isinstance(path, str | os.PathLike) else str(path)
    data = source.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError([Fault(line, "not UTF-8 text")], name) from None
    return parse_config(text, name)


def parse_config(text: str, name: str = "<string>") -> Config:
    """Parse and check configuration ``text``; ``name`` names it in faults.

    Raises ConfigError listing every fault found.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r" \(at line (\d+), column \d+\)", str(exc))
        line = int(found.group(1)) if found else max(1, len(text.splitlines()))  # at the end
        message = str(exc).replace(found.group(), "") if found else str(exc)
        raise ConfigError([Fault(line, f"TOML syntax: {message}")], name) from None
    reader = _Reader(raw, _Lines(text))
    config = reader.read()
    if config is None:
        raise ConfigError(reader.faults, name)
    return config


# -- line numbers ------------------------------------------------------------------------

_Key = tuple[str | int, ...]
_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"[^,\]}\r\n#]+")


class _Lines:
    """Best-effort line numbers of the tables, keys and array items of valid TOML.

    tomllib reports no positions for values, so this scans the text once and records,
    for each key path as tomllib nests it (``("pounds", 0, "code")``), the line on
    which it first appears.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.found: dict[_Key, int] = {}
        self._arrays: dict[_Key, int] = {}
        self._starts = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        # Valid TOML never stops the scan; should it, faults get the nearest lines found.
        with contextlib.suppress(LookupError, ValueError):
            self._document()

    def at(self, key: _Key) -> int:
        """The line of ``key``, else of its first descendant, else of its nearest ancestor."""
        if key in self.found:
            return self.found[key]
        below = [line for k, line in self.found.items() if k[: len(key)] == key]
        if key and below:
            return min(below)
        ancestors = [self.found[key[:end]] for end in range(len(key)) if key[:end] in self.found]
        return ancestors[-1] if ancestors else 1

    def _note(self, key: _Key, pos: int) -> None:
        for end in range(1, len(key) + 1):
            self.found.setdefault(key[:end], bisect_right(self._starts, pos) + 1)

    def _skip(self, newlines: bool) -> None:
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "#":
                end = self.text.find("\n", self.pos)
                self.pos = len(self.text) if end < 0 else end
            elif ch in " \t" or (newlines and ch in "\r\n"):
                self.pos += 1
            else:
                return

    def _document(self) -> None:
        table: _Key = ()
        while True:
            self._skip(newlines=True)
            if self.pos >= len(self.text):
                return
            start = self.pos
            if self.text[start] != "[":
                self._keyval(table)
                continue
            array = self.text.startswith("[[", start)
            self.pos += 2 if array else 1
            keys = self._key()
            table = ()
            for i, part in enumerate(keys):  # resolve to the last table of each array
                table += (part,)
                if i < len(keys) - 1 and table in self._arrays:
                    table += (self._arrays[table] - 1,)
            if array:
                self._arrays[table] = self._arrays.get(table, 0) + 1
                table += (self._arrays[table] - 1,)
            self._skip(newlines=False)
            self.pos += 2 if array else 1
            self._note(table, start)

    def _key(self) -> _Key:
        keys: list[str] = []
        while True:
            self._skip(newlines=False)
            found = _TOKEN.match(self.text, self.pos)
            if not found:
                raise ValueError(f"no key at {self.pos}")
            raw = found.group()
            keys.append(tomllib.loads(f"k = {raw}")["k"] if raw[0] in "\"'" else raw)
            self.pos = found.end()
            self._skip(newlines=False)
            if self.text[self.pos] != ".":
                return tuple(keys)
            self.pos += 1

    def _keyval(self, table: _Key) -> None:
        start = self.pos
        key = (*table, *self._key())
        self._note(key, start)
        self.pos += 1  # the "="
        self._skip(newlines=False)
        self._value(key)

    def _value(self, key: _Key) -> None:
        opener = self.text[self.pos]
        if opener in "\"'":
            return self._string(opener)
        if opener not in "{[":
            found = _SCALAR.match(self.text, self.pos)
            if not found:
                raise ValueError(f"no value at {self.pos}")
            self.pos = found.end()
            return None
        self.pos += 1
        index = 0
        while True:
            self._skip(newlines=opener == "[")
            if self.text[self.pos] in "}]":
                self.pos += 1
                return None
            if opener == "{":
                self._keyval(key)
            else:
                self._note((*key, index), self.pos)
                self._value((*key, index))
                index += 1
            self._skip(newlines=opener == "[")
            if self.text[self.pos] == ",":
                self.pos += 1

    def _string(self, quote: str) -> None:
        text = self.text
        delim = quote * 3 if text.startswith(quote * 3, self.pos) else quote
        pos = self.pos + len(delim)
        while not text.startswith(delim, pos):
            pos += 2 if text[pos] == "\\" and quote == '"' else 1
        pos += len(delim)
        while len(delim) == 3 and pos < len(text) and text[pos] == quote:
            pos += 1  # '''a'''' ends with a quote
        self.pos = pos


# -- reading and checking ------------------------------------------------------------------

_Check = Callable[[Any, _Key, str], Any]  # (value, key, where) -> the value read
_TOP = ("reminders", "policy", "kinds", "authorities", "pounds", "tariffs")
_CLOCK = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
_RUPEES = re.compile(r"-?\d+(\.\d+)?")


def _listing(values: Iterable[str]) -> str:
    return ", ".join(f'"{v}"' for v in values)


class _Bad(Exception):
    """A value that cannot be read; ``below`` locates the fault inside it."""

    def __init__(self, message: str, *below: str | int) -> None:
        super().__init__(message)
        self.below = below


@dataclass
class _Reader:
    """Reads parsed TOML into a Config, collecting every fault with its line."""

    raw: dict[str, Any]
    lines: _Lines
    faults: list[Fault] = field(default_factory=list)
    kind_codes: list[str] = field(default_factory=list)

    def fault(self, key: _Key, message: str) -> None:
        self.faults.append(Fault(self.lines.at(key), message))

    def read(self) -> Config | None:
        """The Config, or None when there are faults (in ``faults``)."""
        self.keys(self.raw, (), "the file", _TOP, _TOP)
        text, code = self.text, self.code
        reminders = self.section(
            "reminders",
            {
                "timezone": self.zone,
                "reminder_time": self.clock,
                "night_hours": self.night,
                "sms_per_second": self.rate,
            },
        )
        policy = self.section(
            "policy", {"feeding_days": self.one_of(FeedingDays), "deduction_order": self.order}
        )
        kinds, words = self.kinds()
        authorities = self.entries(
            "authorities",
            "authority",
            {
                "code": code(r"[A-Z][A-Z0-9-]{1,15}", "upper-case letters, digits and -"),
                "name": text,
                "kind": self.one_of(AuthorityKind),
                "district": text,
                "office_address": text,
                "village": text,
                "market_place": text,
                "default_language": self.one_of(LANGUAGES),
            },
        )
        pounds = self.entries(
            "pounds",
            "pound",
            {
                "code": code(r"[A-Z]{2,6}", "2 to 6 upper-case letters"),
                "name": text,
                "authority": text,
                "address": text,
                "languages": self.languages,
                "tariff": text,
            },
            optional=("tariff",),
        )
        known = {a["code"] for _, a in authorities}
        for key, pound in pounds:
            if pound["authority"] is not None and pound["authority"] not in known:
                self.fault((*key, "authority"), f"pound {pound['code']}: unknown authority")
        tariffs = self.tariffs(pounds, policy["feeding_days"])
        if self.faults:
            return None
        night_start, night_end = reminders["night_hours"]
        return Config(
            authorities=MappingProxyType({a["code"]: Authority(**a) for _, a in authorities}),
            pounds=MappingProxyType({p["code"]: Pound(**p) for _, p in pounds}),
            kinds=Kinds(Kind(k["code"], k["name"], k["adult"]) for _, k in kinds),
            kind_words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}),
            tariffs=MappingProxyType({p["code"]: tariffs[p["tariff"]] for _, p in pounds}),
            deduction_order=policy["deduction_order"],
            feeding_days=policy["feeding_days"],
            reminders=ReminderSettings(
                reminders["timezone"],
                reminders["reminder_time"],
                night_start,
                night_end,
                reminders["sms_per_second"],
            ),
        )

    # -- tables ---------------------------------------------------------------------

    def keys(
        self,
        table: Mapping[str, Any],
        key: _Key,
        where: str,
        required: Iterable[str],
        known: Sequence[str],
    ) -> None:
        """Fault each missing required key and each unknown key (with a likely fix)."""
        for name in required:
            if name not in table:
                self.fault(key, f"{where}: missing key '{name}'")
        for name in table:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.fault((*key, name), f"{where}: unknown key '{name}'{hint}")

    def record(
        self,
        table: Any,
        key: _Key,
        where: str,
        spec: Mapping[str, _Check],
        optional: Sequence[str] = (),
    ) -> dict[str, Any]:
        """Each key of ``spec`` read from ``table`` by its check (None if missing or bad)."""
        read: dict[str, Any] = dict.fromkeys(spec)
        if not isinstance(table, dict):
            self.fault(key, f"{where} must be a table")
            return read
        self.keys(table, key, where, [n for n in spec if n not in optional], list(spec))
        for name, check in spec.items():
            if name in table:
                try:
                    read[name] = check(table[name], (*key, name), f"{where}: {name}")
                except _Bad as bad:
                    self.fault((*key, name, *bad.below), str(bad))
        return read

    def section(self, name: str, spec: Mapping[str, _Check]) -> dict[str, Any]:
        """A top-level [name] table (its absence is already a fault)."""
        if name not in self.raw:
            return dict.fromkeys(spec)
        return self.record(self.raw[name], (name,), f"[{name}]", spec)

    def entries(
        self, name: str, what: str, spec: Mapping[str, _Check], optional: Sequence[str] = ()
    ) -> list[tuple[_Key, dict[str, Any]]]:
        """The [[name]] tables, read by ``spec``; a code listed twice is a fault."""
        value = self.raw.get(name)
        if value is not None and (not isinstance(value, list) or not value):
            self.fault((name,), f"'{name}' must be one or more [[{name}]] tables")
        if not isinstance(value, list):
            return []  # (missing: already a fault)
        read: list[tuple[_Key, dict[str, Any]]] = []
        first: dict[str, int] = {}
        for i, entry in enumerate(value):
            code = entry.get("code") if isinstance(entry, dict) else None
            where = f"{what} {code}" if isinstance(code, str) else f"[[{name}]] entry {i + 1}"
            record = self.record(entry, (name, i), where, spec, optional)
            if record["code"] in first:
                line = first[record["code"]]
                self.fault((name, i, "code"), f"{where} is listed twice (first on line {line})")
            elif record["code"] is not None:
                first[record["code"]] = self.lines.at((name, i))
            read.append(((name, i), record))
        return read

    def kinds(self) -> tuple[list[tuple[_Key, dict[str, Any]]], dict[str, dict[str, str]]]:
        """[[kinds]] (s.2(1)); an adult kind is listed, a word names one kind per language."""
        spec = {
            "code": self.code(r"[a-z][a-z0-9_]*", "lower-case letters, digits and _"),
            "name": self.text,
            "adult": self.text,
            "words": self.words,
        }
        kinds = self.entries("kinds", "kind", spec, optional=("adult",))
        self.kind_codes = [k["code"] for _, k in kinds if k["code"] is not None]
        grown = {k["code"] for _, k in kinds if k["adult"] is None}
        words: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
        for key, kind in kinds:
            if kind["adult"] is not None and kind["adult"] not in grown:
                message = f"kind {kind['code']}: adult {kind['adult']!r} is not a listed adult kind"
                self.fault((*key, "adult"), message)
            for lang, word, at in kind["words"] or []:
                held = words[lang].setdefault(word, kind["code"])
                if kind["code"] is not None and held != kind["code"]:
                    self.fault(at, f"the {lang} word {word!r} names both {held} and {kind['code']}")
        return kinds, words

    def tariffs(
        self, pounds: list[tuple[_Key, dict[str, Any]]], days: FeedingDays | None
    ) -> dict[str, Tariff]:
        """[tariffs.NAME]: dated fines (s.11) and feeding rates (s.4) for every kind."""
        tables = self.raw.get("tariffs", {})
        if not isinstance(tables, dict):
            self.fault(("tariffs",), "tariffs must be [tariffs.NAME] tables")
            tables = {}
        for key, pound in pounds:
            pound["tariff"] = pound["tariff"] or pound["authority"]  # the authority's tariff
            if pound["tariff"] is not None and pound["tariff"] not in tables:
                at = (*key, "tariff") if "tariff" in self.raw["pounds"][key[1]] else key
                self.fault(at, f"pound {pound['code']}: no [tariffs.{pound['tariff']}] table")
        spec = {
            "fines": self.rates,
            "feeding": self.rates,
            "feeding_days": self.one_of(FeedingDays),
            "sale_expense_note": self.text,
        }
        used = {pound["tariff"] for _, pound in pounds}
        built: dict[str, Tariff] = {}
        for name, table in tables.items():
            if name not in used and None not in used:  # (a pound with no tariff is a fault)
                self.fault(("tariffs", name), f"tariff {name} is applied by no pound")
            optional = ("feeding_days", "sale_expense_note")
            read = self.record(table, ("tariffs", name), f"tariff {name}", spec, optional)
            counting = read["feeding_days"] or days
            if read["fines"] and read["feeding"] and counting:
                note = read["sale_expense_note"] or ""
                built[name] = Tariff(read["fines"], read["feeding"], counting, note)
        return built

    # -- values: each returns what it read or raises _Bad -----------------------------

    def text(self, value: Any, key: _Key, where: str) -> str:
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise _Bad(f"{where} must be non-empty text")

    def one_of(self, allowed: Sequence[str] | type[enum.Enum]) -> _Check:
        """A check that the value is one of ``allowed`` (an enum's values, read as it)."""
        values = [m.value for m in allowed] if isinstance(allowed, type) else list(allowed)

        def check(value: Any, key: _Key, where: str) -> Any:
            if value not in values:
                raise _Bad(f"{where}: {value!r} is not one of {_listing(values)}")
            return allowed(value) if isinstance(allowed, type) else value

        return check

    def code(self, pattern: str, rule: str) -> _Check:
        """A check that the value is a code matching ``pattern``."""

        def check(value: Any, key: _Key, where: str) -> str:
            if isinstance(value, str) and re.fullmatch(pattern, value):
                return value
            raise _Bad(f"{where}: {value!r} must be {rule}")

        return check

    def languages(self, value: Any, key: _Key, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise _Bad(f'{where} must be a list such as ["ml", "en"]')
        for i, lang in enumerate(value):
            if lang not in LANGUAGES or lang in value[:i]:
                why = "listed twice" if lang in LANGUAGES else f"not one of {_listing(LANGUAGES)}"
                raise _Bad(f"{where}: {lang!r} is {why}", i)
        return tuple(value)

    def words(self, value: Any, key: _Key, where: str) -> list[tuple[str, str, _Key]]:
        """(language, normalized word, key) for each word of a kind's ``words`` table."""
        if not isinstance(value, dict) or not value:
            raise _Bad(f'{where} must be a table such as {{ en = ["cow", "cows"] }}')
        found: list[tuple[str, str, _Key]] = []
        for lang, listed in value.items():
            if lang not in LANGUAGES:
                raise _Bad(f"{where}: {lang!r} is not one of {_listing(LANGUAGES)}", lang)
            if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
                raise _Bad(f"{where}.{lang} must be a list of text", lang)
            for i, word in enumerate(listed):
                if not normalize_word(word):
                    raise _Bad(f"{where}.{lang}: a word is empty", lang, i)
                found.append((lang, normalize_word(word), (*key, lang, i)))
        return found

    def zone(self, value: Any, key: _Key, where: str) -> ZoneInfo:
        with contextlib.suppress(ZoneInfoNotFoundError, ValueError, TypeError):
            return ZoneInfo(value)
        raise _Bad(f"{where}: {value!r} is not a known time zone")

    def clock(self, value: Any, key: _Key, where: str) -> time:
        """A wall-clock time written "HH:MM" (24-hour)."""
        found = _CLOCK.fullmatch(value) if isinstance(value, str) else None
        if not found:
            raise _Bad(f'{where}: {value!r} is not a time "HH:MM" (24-hour)')
        return time(int(found.group(1)), int(found.group(2)))

    def night(self, value: Any, key: _Key, where: str) -> tuple[time, time]:
        if not isinstance(value, list) or len(value) != 2:
            raise _Bad(f'{where} must be ["HH:MM", "HH:MM"] (start, end)')
        hours: list[time] = []
        for i, hour in enumerate(value):
            try:
                hours.append(self.clock(hour, key, where))
            except _Bad as bad:
                raise _Bad(str(bad), i) from None
        if hours[0] == hours[1]:
            raise _Bad(f"{where}: the night starts when it ends")
        return hours[0], hours[1]

    def rate(self, value: Any, key: _Key, where: str) -> float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not (number and math.isfinite(value) and value > 0):
            raise _Bad(f"{where}: {value!r} is not a number above 0")
        return float(value)

    def order(self, value: Any, key: _Key, where: str) -> tuple[DuesItem, ...]:
        """s.15(2): each head of dues once, in the order sale proceeds meet them."""
        heads = [item.value for item in DuesItem]
        if not isinstance(value, list) or sorted(map(str, value)) != sorted(heads):
            raise _Bad(f"{where} must list each of {_listing(heads)} once")
        return tuple(DuesItem(v) for v in value)

    def rates(self, value: Any, key: _Key, where: str) -> dict[str, RateTable] | None:
        """For each kind, a rate table of dated rows; every listed kind needs one."""
        if not isinstance(value, dict):
            raise _Bad(f"{where} must be a table of kinds")
        for kind in self.kind_codes:
            if kind not in value:
                self.fault(key, f"{where}: no rate for kind '{kind}'")
        spec = {"from": self.day, "rupees": self.amount, "source": self.text}
        tables: dict[str, RateTable] = {}
        for kind, rows in value.items():
            if kind not in self.kind_codes:
                self.fault((*key, kind), f"{where}: '{kind}' is not a listed kind")
            if not isinstance(rows, list) or not rows:
                self.fault((*key, kind), f"{where}.{kind} must be a list of dated rows")
                continue
            read: dict[date, DatedRate] = {}
            for i, row in enumerate(rows):
                rec = self.record(row, (*key, kind, i), f"{where}.{kind} row {i + 1}", spec)
                if rec["from"] in read:
                    self.fault((*key, kind, i), f"{where}.{kind}: two rows from {rec['from']}")
                elif None not in rec.values():
                    read[rec["from"]] = DatedRate(rec["from"], rec["rupees"], rec["source"])
            if len(read) == len(rows) and kind in self.kind_codes:
                tables[kind] = RateTable.of(read.values())
        return tables if sorted(tables) == sorted(self.kind_codes) else None

    def day(self, value: Any, key: _Key, where: str) -> date:
        if isinstance(value, date) and not isinstance(value, datetime):
            return value
        raise _Bad(f"{where}: {value!r} is not a date such as 2024-04-01")

    def amount(self, value: Any, key: _Key, where: str) -> Money:
        """Rupees as text ("37.50") or a whole number: never a float, negative or with
        more than two decimals."""
        if isinstance(value, float):
            raise _Bad(f'{where}: {value!r} is a float; write money as text: "{value}"')
        text = value.strip() if isinstance(value, str) else str(value)
        if isinstance(value, bool) or not _RUPEES.fullmatch(text):
            raise _Bad(f'{where}: {value!r} is not an amount such as "500" or "37.50"')
        if text.startswith("-"):
            raise _Bad(f"{where}: {value!r} is negative")
        try:
            return Money.rupees(text)
        except ValueError:
            raise _Bad(f"{where}: {value!r} has more than two decimals") from None
