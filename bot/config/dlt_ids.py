"""Writing the DLT template ids into a configuration file's ``[dlt.templates]`` table,
leaving every other line of the file as it was (its comments and layout too).

The table is rewritten whole: its comment lines first, then one ``kind.lang = "id"`` a
line, sorted; the ids it held and those given are merged (a given id wins). A file that
gives ids another way (``[dlt.templates.<kind>]`` tables, or ``templates`` inside
``[dlt]``) is refused: an operator moves them into ``[dlt.templates]`` first. The new
text is read back before it replaces the file: every other value the same, the table
the merged ids; then it replaces the file in one step (a temporary file renamed, its
permissions, owner and group kept).
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

__all__ = ["IdsRefused", "merged_text", "write_ids"]

_TABLE: Final = re.compile(r"^\s*\[\s*dlt\s*\.\s*templates\s*\]\s*(#.*)?$")
_DLT: Final = re.compile(r"^\s*\[\s*dlt\s*\]\s*(#.*)?$")
_ANY_TABLE: Final = re.compile(r"^\s*\[")
_BARE: Final = re.compile(r"[A-Za-z0-9_-]+")


class IdsRefused(Exception):
    """The file cannot take the ids as they are written: the message says why."""


def _key(part: str) -> str:
    return part if _BARE.fullmatch(part) else '"' + part.replace('"', '\\"') + '"'


def _lines(ids: Mapping[str, str]) -> list[str]:
    out = []
    for name in sorted(ids):
        kind, _, lang = name.rpartition(".")
        out.append(f'{_key(kind)}.{_key(lang)} = "{ids[name]}"\n')
    return out


def _old_ids(data: Mapping[str, Any]) -> dict[str, str]:
    table = data.get("dlt", {}).get("templates", {})
    return {
        f"{kind}.{lang}": str(tid)
        for kind, by_lang in table.items()
        if isinstance(by_lang, dict)
        for lang, tid in by_lang.items()
    }


def merged_text(text: str, ids: Mapping[str, str]) -> str:
    """``text`` with ``ids`` merged into its ``[dlt.templates]`` table (made at the end
    of ``[dlt]``, or of the file, when there is none)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise IdsRefused(f"not valid TOML: {exc}") from None
    merged = _old_ids(data) | dict(ids)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    starts = [n for n, line in enumerate(lines) if _TABLE.match(line)]
    if len(starts) > 1:
        raise IdsRefused("[dlt.templates] is given twice")
    if starts:
        start = starts[0] + 1
        end = next((n for n in range(start, len(lines)) if _ANY_TABLE.match(lines[n])), len(lines))
        body = lines[start:end]
        kept = [line for line in body if not line.strip() or line.lstrip().startswith("#")]
        comments = [line for line in kept if line.strip()]
        tail = ["\n"] if end < len(lines) else []
        lines[start:end] = comments + _lines(merged) + tail
    else:
        dlt = next((n for n, line in enumerate(lines) if _DLT.match(line)), None)
        if dlt is None:
            at = len(lines)
        else:
            at = next(
                (n for n in range(dlt + 1, len(lines)) if _ANY_TABLE.match(lines[n])), len(lines)
            )
        block = ["[dlt.templates]\n", *_lines(merged)]
        if at < len(lines):
            block.append("\n")
        elif lines and lines[-1].strip():
            block.insert(0, "\n")
        lines[at:at] = block
    new = "".join(lines)
    _same_but_ids(data, new, merged)
    return new


def _same_but_ids(old: Mapping[str, Any], new_text: str, ids: Mapping[str, str]) -> None:
    try:
        new = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        new = {}
    if not new or _old_ids(new) != dict(ids):
        raise IdsRefused(
            "the template ids are given outside [dlt.templates] (a [dlt.templates.<kind>] "
            "table or templates in [dlt]): move them into [dlt.templates], one "
            '<kind>.<language> = "<id>" a line, then import again'
        )

    def without(data: Mapping[str, Any]) -> dict[str, Any]:
        copy = dict(data)
        dlt = dict(copy.get("dlt", {}))
        dlt.pop("templates", None)
        copy["dlt"] = dlt
        return copy

    if without(old) != without(new):
        raise IdsRefused("writing [dlt.templates] would change other settings: not written")


def write_ids(path: Path, ids: Mapping[str, str]) -> None:
    """Merge ``ids`` into the file at ``path`` and replace it in one step."""
    text = path.read_text(encoding="utf-8")
    new = merged_text(text, ids)
    if new == text:
        return
    st = path.stat()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(new)
        os.chmod(tmp, st.st_mode & 0o7777)
        if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            # root writing /etc/poundbot/poundbot.toml: still the poundbot group's to read
            os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
