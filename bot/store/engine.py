"""Engines: embedded SQLite (WAL, foreign keys, serialised writers) or PostgreSQL.

SQLite runs on SQLAlchemy's stock aiosqlite dialect (each connection's statements on a
thread of its own), set up through public means only: pragmas on ``connect``, and
``BEGIN IMMEDIATE`` on ``begin`` (SQLAlchemy's documented recipe for SQLite's
transactions). SQLite's own busy handler is off (``busy_timeout=0``) but for a BEGIN
that found the file held by another process (the admin CLI, a second instance): that
one is tried again with the handler on, waiting on the driver's thread (the event loop
serves others meanwhile) at most ``BUSY_DEADLINE``, never past the request's wait
budget (``bot.support.budget``); the wait is measured (``poundbot_db_wait_seconds``,
wait=lock) and so is a refusal. A transaction that holds the write lock never waits
again: its statements do not pay for the check.
"""

from __future__ import annotations

import importlib.util
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.observe.metrics import DB_WAIT, DB_WAIT_REFUSED
from bot.support import budget

__all__ = [
    "BUSY_DEADLINE",
    "DATABASE_FILE",
    "BadDatabaseUrl",
    "DatabaseError",
    "DatabaseUrl",
    "Engine",
    "data_dir",
    "database_file",
    "database_url",
    "make_engine",
    "make_sessionmaker",
    "parse_url",
]

#: The names the layers above the store use for SQLAlchemy's types, so that none of them
#: imports SQLAlchemy: the engine, a database URL parsed, and what the database or its
#: driver raise (an administrative command reports it as one line).
Engine = AsyncEngine
DatabaseUrl = URL
DatabaseError = SQLAlchemyError


class BadDatabaseUrl(ArgumentError):
    """Not a database URL (a ``DatabaseError``)."""


def parse_url(url: str) -> DatabaseUrl:
    """The database URL ``url``, parsed; raises ``BadDatabaseUrl``."""
    try:
        return make_url(url)
    except ArgumentError as exc:
        raise BadDatabaseUrl(*exc.args) from exc


#: How long a transaction waits for the SQLite file held by another process, in
#: seconds (a request's wait budget shortens it).
BUSY_DEADLINE = 5.0

_BEGIN = "BEGIN IMMEDIATE"
_SQLITE_BUSY = 5
_LOCK_WAIT = DB_WAIT.labels("lock")
#: Where a SQLite connection's record keeps the cursor its BEGINs run on.
_CURSOR = "poundbot_begin_cursor"

#: The embedded database's file name, in the data folder.
DATABASE_FILE = "poundbot.sqlite3"


def data_dir() -> Path:
    """Where the embedded database, its backups and kept files live: ``POUNDBOT_DATA_DIR``,
    else ``var`` in the folder poundbot was started from; always made absolute, so a
    command started from another folder names the same files (or says which it used)."""
    return Path(os.environ.get("POUNDBOT_DATA_DIR") or "var").expanduser().absolute()


def database_url() -> str:
    """``POUNDBOT_DATABASE_URL``, else the embedded SQLite file in the data folder; the
    file of a SQLite URL is made absolute."""
    url = os.environ.get("POUNDBOT_DATABASE_URL")
    if not url:
        return f"sqlite+aiosqlite:///{data_dir() / DATABASE_FILE}"
    try:
        parsed = make_url(url)
    except ArgumentError:  # refused in one line by the command line (cli_admin.check_url)
        return url
    path = database_file(url)
    if path is None or path.is_absolute():
        return url
    return parsed.set(database=str(path.absolute())).render_as_string(hide_password=False)


def database_file(url: str) -> Path | None:
    """The file of an embedded SQLite URL; None for PostgreSQL, memory and file URIs."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.query.get("uri"):
        return None
    if not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser()


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url``; SQLite gets its pragmas and serialised writers.

    ``hide_parameters``: the parameters of a statement (a sender's number, a message)
    appear neither in the SQL log nor in the text of a database error that is logged.
    """
    url = url or database_url()
    kwargs.setdefault("hide_parameters", True)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        # A file URI (``file:...?mode=ro&uri=true``) names a file that is there already.
        if parsed.database and parsed.database != ":memory:" and not parsed.query.get("uri"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, **kwargs)
        _sqlite_setup(engine)
        return engine
    if parsed.drivername == "postgresql":
        raise ValueError("say postgresql+asyncpg:// or postgresql+psycopg:// explicitly")
    if parsed.drivername == "postgresql+psycopg" and importlib.util.find_spec("psycopg") is None:
        raise ValueError(
            "postgresql+psycopg:// needs the psycopg driver, not installed here: "
            "install psycopg[binary] into poundbot's environment (docs/operator/install.md), "
            "or say postgresql+asyncpg://"
        )
    return create_async_engine(url, pool_pre_ping=True, **kwargs)


def _busy(error: BaseException | None) -> bool:
    """Whether SQLite refused a statement because another connection holds the file."""
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) == _SQLITE_BUSY


def _lock_wait_ms() -> int:
    """How long SQLite may wait for the file now: ``BUSY_DEADLINE``, or what is left of
    the request's wait budget if that is less (0: no wait at all)."""
    left = budget.remaining()
    wait = BUSY_DEADLINE if left is None else min(BUSY_DEADLINE, left)
    return int(wait * 1000)


def _sqlite_setup(engine: AsyncEngine) -> None:
    """SQLAlchemy's documented recipe for SQLite transactions (the driver opens none; the
    ``begin`` event does), with WAL, foreign keys and the wait for a file held elsewhere."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        # Let SQLAlchemy, not the driver, open transactions (see "begin" below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            f"busy_timeout={_lock_wait_ms()}",  # the switch to WAL may wait for the file
            "journal_mode=WAL",
            "foreign_keys=ON",
            "synchronous=NORMAL",
            "busy_timeout=0",  # from now on, only a BEGIN that found the file held waits
        ):
            cursor.execute(f"PRAGMA {pragma}")
        # Kept for the BEGIN of every transaction: one statement through the driver.
        record.info[_CURSOR] = cursor

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # IMMEDIATE takes the write lock up front: two writers never deadlock on
        # upgrading a read lock, and case numbers cannot race. The statements of the
        # transaction then never wait for the file: only its BEGIN can.
        cursor = conn.connection.info[_CURSOR]
        try:
            cursor.execute(_BEGIN)
        except sqlite3.Error as error:
            if _busy(error):
                _wait_for_the_file(conn, cursor)
            else:  # once more through SQLAlchemy, which raises a failure as its own
                conn.exec_driver_sql(_BEGIN)


def _wait_for_the_file(conn: Any, cursor: Any) -> None:
    """BEGIN IMMEDIATE, SQLite's busy handler waiting for the file held by another process
    (the admin CLI, a second instance) on the driver's thread, the event loop serving
    others meanwhile: at most ``BUSY_DEADLINE``, never past the request's wait budget."""
    held_since = time.monotonic()
    try:
        conn.exec_driver_sql(f"PRAGMA busy_timeout={_lock_wait_ms()}")
        try:
            conn.exec_driver_sql(_BEGIN)
        finally:  # straight on the driver: what is asked of SQLite is the wait above
            cursor.execute("PRAGMA busy_timeout=0")
    except DBAPIError as error:
        if _busy(error.orig):
            _LOCK_WAIT.observe(time.monotonic() - held_since)
            DB_WAIT_REFUSED.labels("lock").inc()
        raise
    _LOCK_WAIT.observe(time.monotonic() - held_since)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
