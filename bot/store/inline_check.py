"""Whether the SQLAlchemy in use still has what ``bot.store.sqlite_inline`` builds on.

``sqlite_inline`` subclasses SQLAlchemy's private aiosqlite adapter classes and calls
its private ``await_``: any minor release may rename or reshape them. So before an
engine is made, this looks for each name, method and slot it uses, with the arguments
it passes, without importing ``sqlite_inline`` (whose own imports would fail first). On
a miss poundbot logs one warning naming what is missing and runs on SQLAlchemy's stock
aiosqlite dialect (a thread per connection; SQLite's own busy timeout, kept within a
request's wait budget by ``bot.store.engine``). ``POUNDBOT_SQLITE_INLINE=0`` chooses the
stock dialect on purpose (no warning).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
from collections.abc import Mapping
from typing import Any

__all__ = ["inline_off_reason", "missing"]

log = logging.getLogger("poundbot.store")

_DIALECT = "sqlalchemy.dialects.sqlite.aiosqlite"
_CONCURRENCY = "sqlalchemy.util.concurrency"

#: class -> (methods with the number of positional arguments poundbot passes or is
#: passed, besides self; attributes its instances keep in slots; class attributes).
_NEEDS: dict[str, tuple[dict[str, int], tuple[str, ...], tuple[str, ...]]] = {
    "AsyncAdapt_aiosqlite_cursor": (
        {
            "__init__": 1,
            "_make_new_cursor": 1,
            "_aenter_cursor": 1,
            "execute": 2,
            "executemany": 2,
            "fetchall": 0,
            "close": 0,
        },
        ("_adapt_connection", "_cursor", "_rows"),
        ("_awaitable_cursor_close",),
    ),
    "AsyncAdapt_aiosqlite_connection": (
        {
            "__init__": 2,
            "cursor": 0,
            "_handle_exception": 1,
            "commit": 0,
            "rollback": 0,
            "close": 0,
            "terminate": 0,
            "create_function": 0,
        },
        ("_connection",),
        ("_cursor_cls", "isolation_level"),
    ),
    "AsyncAdapt_aiosqlite_dbapi": ({"__init__": 2, "connect": 0}, (), ()),
}

#: None: not checked yet in this process; else what is missing (empty: nothing).
_checked: list[str] | None = None


def _takes(function: Any, positional: int) -> bool:
    """Whether ``function`` (unbound, with self) accepts ``positional`` more arguments."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return False
    params = list(signature.parameters.values())[1:]
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    slots = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in slots if p.default is p.empty]
    return len(required) <= positional <= len(slots)


def _slots(cls: type) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        declared = klass.__dict__.get("__slots__", ())
        names.update((declared,) if isinstance(declared, str) else declared)
    return names


def missing() -> list[str]:
    """What ``sqlite_inline`` needs and the installed SQLAlchemy lacks (empty: all there)."""
    gaps: list[str] = []
    try:
        concurrency = importlib.import_module(_CONCURRENCY)
        await_ = getattr(concurrency, "await_", None)
        if not callable(await_) or not _await_ok(await_):
            gaps.append(f"{_CONCURRENCY}.await_(awaitable)")
    except ImportError:
        gaps.append(_CONCURRENCY)
    try:
        dialect = importlib.import_module(_DIALECT)
    except ImportError:
        return [*gaps, _DIALECT]
    for name, (methods, slots, attributes) in _NEEDS.items():
        cls = getattr(dialect, name, None)
        if not isinstance(cls, type):
            gaps.append(f"{_DIALECT}.{name}")
            continue
        for method, positional in methods.items():
            function = getattr(cls, method, None)
            if not callable(function) or not _takes(function, positional):
                gaps.append(f"{name}.{method} taking {positional} argument(s)")
        present = _slots(cls)
        gaps += [f"{name} slot {slot}" for slot in slots if slot not in present]
        gaps += [f"{name}.{attribute}" for attribute in attributes if not hasattr(cls, attribute)]
    return gaps


def _await_ok(await_: Any) -> bool:
    try:
        params = list(inspect.signature(await_).parameters.values())
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0].kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )


def inline_off_reason(env: Mapping[str, str] | None = None) -> str | None:
    """Why the embedded SQLite runs on the stock aiosqlite dialect, or None when
    ``sqlite_inline`` is used. Checked once a process; a miss is logged once."""
    global _checked
    env = os.environ if env is None else env
    if env.get("POUNDBOT_SQLITE_INLINE", "").strip() == "0":
        return "POUNDBOT_SQLITE_INLINE=0"
    if _checked is None:
        _checked = missing()
        if _checked:
            import sqlalchemy

            log.warning(
                "SQLAlchemy %s lacks what bot/store/sqlite_inline.py needs (%s): the embedded "
                "SQLite runs on the stock aiosqlite dialect instead",
                sqlalchemy.__version__,
                "; ".join(_checked),
            )
    if _checked:
        return "SQLAlchemy lacks " + "; ".join(_checked)
    return None
