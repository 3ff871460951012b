"""Text from outside, made fit to store: no control characters, no lone surrogates.

PostgreSQL refuses a NUL in text ("invalid byte sequence 0x00") and a lone surrogate
cannot be written as UTF-8 at all, so a message carrying either could never be stored
and was answered "try again later" for ever. Every channel (SMS, Telegram, the console)
cleans what it receives before anything else, the same way on both engines:

- a line break (``\\n``, ``\\r``) and a tab stay;
- any other control character that is white space (vertical tab, form feed, the
  separators U+001C-U+001F, U+0085) becomes a space, so words stay apart;
- every other control character (C0, DEL, C1: NUL, bell, escape ...) is dropped;
- a lone surrogate becomes U+FFFD, the replacement character.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["clean_data", "clean_text"]

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _one(match: re.Match[str]) -> str:
    return " " if match.group().isspace() else ""


_EITHER = re.compile(f"{_CONTROL.pattern}|{_SURROGATE.pattern}")


def clean_text(text: str) -> str:
    """``text`` without control characters (white ones become spaces) or lone surrogates."""
    if _EITHER.search(text) is None:  # most text: nothing to clean
        return text
    return _SURROGATE.sub("\ufffd", _CONTROL.sub(_one, text))


def clean_data(value: Any) -> Any:
    """A JSON value with every string in it (keys too) cleaned by ``clean_text``."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_data(v) for v in value]
    return value
