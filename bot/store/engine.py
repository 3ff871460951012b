"""Engines: embedded SQLite (WAL, busy timeout, foreign keys) or PostgreSQL."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.store.inline_check import inline_off_reason
from bot.support import budget

__all__ = [
    "DATABASE_FILE",
    "BadDatabaseUrl",
    "DatabaseError",
    "DatabaseUrl",
    "Engine",
    "data_dir",
    "database_file",
    "database_url",
    "is_inline",
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


#: SQLite's own busy timeout on the stock aiosqlite dialect, in milliseconds (a
#: request's wait budget shortens it: ``_on_begin``).
STOCK_BUSY_MS = 5000

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
        inline = (
            parsed.drivername == "sqlite+aiosqlite"
            and "module" not in kwargs
            and inline_off_reason() is None  # the SQLAlchemy internals it needs are there
        )
        if inline:  # run the statements on the loop itself: see bot/store/sqlite_inline.py
            from bot.store.sqlite_inline import INLINE_BUSY_MS, inline_dbapi

            kwargs["module"] = inline_dbapi()
        engine = create_async_engine(url, **kwargs)
        _sqlite_setup(engine, inline=inline, busy_ms=INLINE_BUSY_MS if inline else STOCK_BUSY_MS)
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


def is_inline(engine: AsyncEngine) -> bool:
    """Whether ``engine`` runs its SQLite statements through ``sqlite_inline``."""
    return type(engine.dialect.dbapi).__module__ == "bot.store.sqlite_inline"


def _sqlite_setup(engine: AsyncEngine, *, inline: bool, busy_ms: int) -> None:
    begin_immediate: Callable[[Any], bool] | None = None
    if inline:
        from bot.store import sqlite_inline

        begin_immediate = sqlite_inline.begin_immediate

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, open transactions (see "begin" below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            "journal_mode=WAL",
            f"busy_timeout={busy_ms}",
            "foreign_keys=ON",
            "synchronous=NORMAL",
        ):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # IMMEDIATE takes the write lock up front: two writers never deadlock on
        # upgrading a read lock, and case numbers cannot race.
        if begin_immediate is not None and begin_immediate(conn.connection.dbapi_connection):
            return
        # The stock dialect waits in SQLite's busy handler (on aiosqlite's thread): as
        # long as the request's wait budget allows, at most STOCK_BUSY_MS.
        left = budget.remaining()
        wait = busy_ms if left is None else min(busy_ms, int(left * 1000))
        conn.exec_driver_sql(f"PRAGMA busy_timeout={wait}")
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
