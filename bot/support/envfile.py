"""The environment file ``/etc/poundbot/env``, read as systemd reads an ``EnvironmentFile=``
(systemd.exec(5)), so that ``poundbot-admin`` runs a command with exactly the settings the
service runs with.

The rules, as systemd.exec(5) documents them (and systemd's ``parse_env_file`` does):

- One ``NAME=value`` assignment a line. Empty lines, lines without ``=``, and lines whose
  first character that is not whitespace is ``#`` or ``;`` are ignored. Whitespace around
  the name, and between ``=`` and the value, is dropped. No ``export``, no shell.
- An unquoted value keeps everything up to the end of the line (``#``, ``;``, ``&``,
  ``$``, ``|``, quotes after its first character and interior spaces included), less its
  trailing spaces, tabs and carriage returns. A backslash keeps the character after it
  (``\\\\`` is one backslash); a backslash at the end of the line joins the next line,
  the newline dropped.
- ``'...'``: everything up to the next single quote, verbatim, over several lines if
  need be; no escapes.
- ``"..."``: over several lines if need be; a backslash before a double quote, a
  backslash, a backtick or ``$`` keeps that character, before a newline joins the
  lines, before anything else is kept with the character.
- After a closing quote the value goes on: ``A="x"'y'z`` is ``xyz``.
- ``$`` is never expanded: ``A=$HOME`` is the four characters ``$HOME``.
- A name must be letters, digits and ``_``, not starting with a digit; systemd drops any
  other assignment (said here as a note). The last assignment of a name wins.

One difference between systemd's versions is reported, not guessed: a comment ending
with a backslash. systemd 252 and 253 (Debian 12's is 252) join the next line to the
comment, so an assignment there is lost to the service; 254 and later do not. The
reader follows the documented rule (the next line is read) and notes the line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["EnvFile", "EnvFileError", "parse_env_file"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WHITESPACE = " \t\n\r"
_NEWLINE = "\n\r"
_COMMENTS = "#;"
_DOUBLE_QUOTE_ESCAPES = '"\\`$'


class EnvFileError(ValueError):
    """A file systemd would not read at all (not UTF-8, a NUL or byte order mark)."""


class EnvFile(NamedTuple):
    """The assignments of a file, in the order first set (each at its last value), and
    notes on lines systemd reads otherwise than one would think (``LINE: text``)."""

    values: dict[str, str]
    notes: list[str]


def parse_env_file(data: bytes | str, name: str = "environment file") -> EnvFile:
    """Read an environment file as systemd reads ``EnvironmentFile=``."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EnvFileError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    else:
        text = data
    for bad, what in (("\0", "a NUL character"), ("\ufeff", "a byte order mark (U+FEFF)")):
        if bad in text:
            line = text.count("\n", 0, text.index(bad)) + 1
            raise EnvFileError(f"{name}: line {line} holds {what}, which systemd refuses")
    return _Parser(name).parse(text)


class _Parser:
    """systemd's state machine (src/basic/env-file.c), one character at a time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.values: dict[str, str] = {}
        self.notes: list[str] = []

    def push(self, line: int, key: str, value: str) -> None:
        if not _NAME.fullmatch(key):
            self.notes.append(
                f"line {line}: {key!r} is not a variable name (letters, digits and _, not "
                "starting with a digit): systemd ignores the assignment, so does this reader"
            )
            return
        self.values.pop(key, None)  # the last assignment wins, in the order it was made
        self.values[key] = value

    def parse(self, text: str) -> EnvFile:
        state = "pre_key"
        key: list[str] = []
        value: list[str] = []
        key_ws: int | None = None  # where trailing whitespace of the key starts
        value_ws: int | None = None  # where trailing whitespace of the value starts
        line = 1
        start = 1  # the line the assignment began on

        def done() -> None:
            nonlocal key, value
            name = "".join(key if key_ws is None else key[:key_ws])
            self.push(start, name, "".join(value))
            key, value = [], []

        for c in text:
            if state == "pre_key":
                if c in _COMMENTS:
                    state = "comment"
                elif c not in _WHITESPACE:
                    state, key, key_ws, start = "key", [c], None, line
                elif c == "\n":
                    line += 1
            elif state == "key":
                if c in _NEWLINE:
                    state, key = "pre_key", []
                elif c == "=":
                    state, value, value_ws = "pre_value", [], None
                else:
                    if c not in _WHITESPACE:
                        key_ws = None
                    elif key_ws is None:
                        key_ws = len(key)
                    key.append(c)
                if c == "\n":
                    line += 1
            elif state == "pre_value":
                if c in _NEWLINE:
                    state = "pre_key"
                    done()
                elif c == "'":
                    state = "single"
                elif c == '"':
                    state = "double"
                elif c == "\\":
                    state = "value_escape"
                elif c not in _WHITESPACE:
                    state = "value"
                    value.append(c)
                if c == "\n":
                    line += 1
            elif state == "value":
                if c in _NEWLINE:
                    state = "pre_key"
                    if value_ws is not None:
                        value = value[:value_ws]
                    done()
                elif c == "\\":
                    state, value_ws = "value_escape", None
                else:
                    if c not in _WHITESPACE:
                        value_ws = None
                    elif value_ws is None:
                        value_ws = len(value)
                    value.append(c)
                if c == "\n":
                    line += 1
            elif state == "value_escape":
                state = "value"
                if c not in _NEWLINE:
                    value.append(c)
                if c == "\n":
                    line += 1
            elif state == "single":
                if c == "'":
                    state = "pre_value"
                else:
                    value.append(c)
                if c == "\n":
                    line += 1
            elif state == "double":
                if c == '"':
                    state = "pre_value"
                elif c == "\\":
                    state = "double_escape"
                else:
                    value.append(c)
                if c == "\n":
                    line += 1
            elif state == "double_escape":
                state = "double"
                if c in _DOUBLE_QUOTE_ESCAPES:
                    value.append(c)
                elif c != "\n":
                    value += ["\\", c]
                if c == "\n":
                    line += 1
            elif state == "comment":
                if c == "\\":
                    state = "comment_escape"
                elif c in _NEWLINE:
                    state = "pre_key"
                if c == "\n":
                    line += 1
            else:  # comment_escape
                if c in _NEWLINE:
                    self.notes.append(
                        f"line {line}: a comment ends with a backslash: systemd 252 and 253 "
                        f"(Debian 12's is 252) take line {line + 1} as part of the comment, "
                        "later versions do not; remove the backslash"
                    )
                    state = "pre_key"
                else:
                    state = "comment"
                if c == "\n":
                    line += 1
        if state in ("single", "double", "double_escape"):
            self.notes.append(
                f"line {start}: a quote opened and never closed: the value of "
                f"{''.join(key).strip()} runs to the end of the file"
            )
        if state in ("pre_value", "value", "value_escape", "single", "double", "double_escape"):
            if state == "value" and value_ws is not None:
                value = value[:value_ws]
            done()
        return EnvFile(self.values, self.notes)
