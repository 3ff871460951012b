"""The embedded SQLite, driven on the event loop's own thread.

aiosqlite runs every cursor call (open, execute, fetch, close, commit) on a thread of
its own and hands the result back through the event loop: some 30 hand-overs for one
SMS, each waiting for the GIL while the loop is busy with other requests. For a local
SQLite file in WAL mode a statement takes microseconds, so poundbot runs them where
it stands, through the same SQLAlchemy aiosqlite dialect (``sqlite+aiosqlite://``
URLs are unchanged) with the standard library's ``sqlite3`` underneath.

What could block the loop is waiting for a lock held by another connection (the admin
CLI, a second instance): so SQLite's own busy handler is off (``INLINE_BUSY_MS``), and
a statement refused with SQLITE_BUSY is retried after an asyncio sleep, the loop
serving others meanwhile, until ``BUSY_DEADLINE`` seconds have passed or the
request's wait budget (``bot.support.budget``) runs out, whichever comes first. (The
transactions of one ``poundbot serve`` take turns on the Store's lock anyway.)

What this module uses of SQLAlchemy's private API is listed in ``bot.store.inline_check``,
which ``make_engine`` runs before importing it: keep the two in step. Without it, the
stock aiosqlite dialect runs instead (one warning).
"""

from __future__ import annotations

import asyncio
import collections
import sqlite3
import time
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.util.concurrency import await_

from bot.observe.metrics import DB_WAIT, DB_WAIT_REFUSED
from bot.support import budget

__all__ = ["BUSY_DEADLINE", "INLINE_BUSY_MS", "begin_immediate", "inline_dbapi"]

#: How long SQLite's own busy handler may hold the loop, in milliseconds: not at all.
INLINE_BUSY_MS = 0
#: How long a statement keeps retrying a lock held by another process, in seconds.
BUSY_DEADLINE = 5.0
_SQLITE_BUSY = 5
_BEGIN = "BEGIN IMMEDIATE"
T = TypeVar("T")
_LOCK_WAIT = DB_WAIT.labels("lock")


def _busy(error: sqlite3.OperationalError) -> bool:
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) == _SQLITE_BUSY


class _Cursor(AsyncAdapt_aiosqlite_cursor):
    """A DBAPI cursor over a plain ``sqlite3`` cursor."""

    __slots__ = ()
    _awaitable_cursor_close = False

    def _make_new_cursor(self, connection: Any) -> Any:
        return connection.cursor()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor

    @property
    def _raw(self) -> sqlite3.Cursor:
        return cast(sqlite3.Cursor, self._cursor)

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        cursor = self._raw
        args = () if parameters is None else (parameters,)

        def run() -> None:
            cursor.execute(operation, *args)
            if cursor.description:
                self._rows = collections.deque(cursor.fetchall())

        try:
            await_(_retrying_busy(run))
        except Exception as error:
            self._adapt_connection._handle_exception(error)

    def executemany(self, operation: Any, seq_of_parameters: Any) -> Any:
        cursor = self._raw
        try:
            await_(_retrying_busy(lambda: cursor.executemany(operation, seq_of_parameters)))
        except Exception as error:
            self._adapt_connection._handle_exception(error)


async def _retrying_busy(call: Callable[[], T]) -> T:
    """``call()`` at once; while another process holds the lock, sleep and retry.

    The work is done before the coroutine's first await, so awaiting it costs no trip
    through the event loop (SQLAlchemy's async layer still sees an await, as it must).
    The first try is always made, even past a request's deadline.
    """
    deadline = time.monotonic() + BUSY_DEADLINE
    request_deadline = budget.deadline()
    if request_deadline is not None:
        deadline = min(deadline, request_deadline)
    pause = 0.005
    held_since: float | None = None  # the first time the lock was found held
    while True:
        try:
            result = call()
        except sqlite3.OperationalError as error:
            if not _busy(error):
                raise
            now = time.monotonic()
            held_since = now if held_since is None else held_since
            if now >= deadline:
                _LOCK_WAIT.observe(now - held_since)
                DB_WAIT_REFUSED.labels("lock").inc()
                raise
        else:
            if held_since is not None:
                _LOCK_WAIT.observe(time.monotonic() - held_since)
            return result
        await asyncio.sleep(min(pause, max(deadline - time.monotonic(), 0.0)))
        pause = min(pause * 2, 0.1)


class _Connection(AsyncAdapt_aiosqlite_connection):
    """The SQLAlchemy async adaptation, over a ``sqlite3`` connection used in place."""

    __slots__ = ()
    _cursor_cls = _Cursor

    @property
    def raw(self) -> sqlite3.Connection:
        """The ``sqlite3`` connection underneath."""
        return cast(sqlite3.Connection, self._connection)

    @property
    def isolation_level(self) -> str | None:
        level: str | None = self.raw.isolation_level
        return level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        self.raw.isolation_level = value  # type: ignore[assignment]

    def create_function(self, *args: Any, **kw: Any) -> None:
        self.raw.create_function(*args, **kw)

    def commit(self) -> None:
        try:
            await_(_retrying_busy(self.raw.commit))
        except Exception as error:
            self._handle_exception(error)

    def rollback(self) -> None:
        try:
            self.raw.rollback()
        except Exception as error:
            self._handle_exception(error)

    def close(self) -> None:
        self.raw.close()

    def terminate(self) -> None:
        self.raw.close()


def begin_immediate(dbapi_connection: Any) -> bool:
    """Open a write transaction straight on an inline connection (False if it is not one).

    Saves SQLAlchemy's statement machinery on every transaction's ``BEGIN IMMEDIATE``.
    """
    if not isinstance(dbapi_connection, _Connection):
        return False
    raw = dbapi_connection.raw
    try:
        await_(_retrying_busy(lambda: raw.execute(_BEGIN)))
    except sqlite3.Error as error:  # as SQLAlchemy would raise it from a statement
        raise DBAPIError.instance(_BEGIN, None, error, sqlite3.Error) from error
    return True


class _InlineDBAPI(AsyncAdapt_aiosqlite_dbapi):
    def connect(self, *arg: Any, **kw: Any) -> _Connection:
        kw.pop("async_creator_fn", None)
        kw["check_same_thread"] = False  # the pool may close it from a finaliser
        kw["timeout"] = INLINE_BUSY_MS / 1000  # sqlite3's own busy wait (5 s by default)
        connection = await_(_retrying_busy(lambda: sqlite3.connect(*arg, **kw)))
        return _Connection(self, connection)


def inline_dbapi() -> AsyncAdapt_aiosqlite_dbapi:
    """The DBAPI module to give ``create_async_engine(..., module=...)`` for SQLite."""
    # sqlite3 stands in for aiosqlite: same exceptions and version; no ``stop``, so
    # SQLAlchemy closes rather than terminates a connection it gives up on.
    driver = types.SimpleNamespace(
        **{name: getattr(sqlite3, name) for name in dir(sqlite3) if not name.startswith("_")}
    )
    return _InlineDBAPI(driver, sqlite3)  # type: ignore[arg-type]
