"""Where things are in a configuration file: the line of each table, key and array item.

Faults are reported by line (``poundbot config check FILE``); tomllib gives none.
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from bisect import bisect_right

__all__ = ["Key", "Lines"]

#: A key path as tomllib nests it: ``("pounds", 0, "code")``.
Key = tuple[str | int, ...]
_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"[^,\]}\r\n#]+")


class Lines:
    """Best-effort line numbers of the tables, keys and array items of valid TOML.

    tomllib reports no positions for values, so this scans the text once and records,
    for each key path as tomllib nests it (``("pounds", 0, "code")``), the line on
    which it first appears.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.found: dict[Key, int] = {}
        self._arrays: dict[Key, int] = {}
        self._starts: list[int] | None = None  # scanned on the first question: a file
        # without a fault never needs a line (``poundbot config check`` answers sooner)

    def _scan(self) -> None:
        self._starts = [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]
        # Valid TOML never stops the scan; should it, faults get the nearest lines found.
        with contextlib.suppress(LookupError, ValueError):
            self._document()

    def at(self, key: Key) -> int:
        """The line of ``key``, else of its first descendant, else of its nearest ancestor."""
        if self._starts is None:
            self._scan()
        if key in self.found:
            return self.found[key]
        below = [line for k, line in self.found.items() if k[: len(key)] == key]
        if key and below:
            return min(below)
        ancestors = [self.found[key[:end]] for end in range(len(key)) if key[:end] in self.found]
        return ancestors[-1] if ancestors else 1

    def _note(self, key: Key, pos: int) -> None:
        for end in range(1, len(key) + 1):
            self.found.setdefault(key[:end], bisect_right(self._starts or [], pos) + 1)

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
        table: Key = ()
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

    def _key(self) -> Key:
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

    def _keyval(self, table: Key) -> None:
        start = self.pos
        key = (*table, *self._key())
        self._note(key, start)
        self.pos += 1  # the "="
        self._skip(newlines=False)
        self._value(key)

    def _value(self, key: Key) -> None:
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
