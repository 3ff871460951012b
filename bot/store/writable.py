"""Can the database be written? Asked at start (``poundbot serve`` refuses to start on a
database it cannot write) and by ``/healthz`` (503 when it cannot).

A database that can be read but not written (a file at mode 444, a read-only mount, a
PostgreSQL standby) otherwise starts "healthy" and answers every message "try again
later". The check writes nothing:

- SQLite: a table is created in a transaction that is rolled back (what any write
  needs: the file, its folder for the journal, the write lock);
- PostgreSQL: the server is not a standby, the session is not read-only, and the
  inbox may be written (``has_table_privilege``); a missing inbox means the schema was
  never migrated.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.engine import make_engine, make_sessionmaker
from bot.store.tx import Store
from bot.support.clock import SystemClock

__all__ = ["database_fault", "shown", "write_fault"]

_SQLITE_PROBE = "CREATE TABLE poundbot_write_check (x INTEGER)"
_PG_PROBE = text(
    "SELECT pg_is_in_recovery(), current_setting('transaction_read_only') = 'on', "
    "has_table_privilege('inbox', 'INSERT')"
)


class _RolledBack(Exception):
    """Ends the probe's transaction without committing it."""


def _first_line(exc: BaseException) -> str:
    cause = getattr(exc, "orig", None) or exc
    return (str(cause).strip().splitlines() or [type(cause).__name__])[0]


async def _probe(conn: AsyncConnection) -> str | None:
    """Why the database of ``conn`` cannot be written (in the caller's transaction)."""
    if conn.dialect.name == "sqlite":
        try:
            await conn.exec_driver_sql(_SQLITE_PROBE)
        except DBAPIError as exc:
            return _first_line(exc)
        return None
    try:
        standby, read_only, may_insert = (await conn.execute(_PG_PROBE)).one()
    except DBAPIError as exc:
        return f"{_first_line(exc)} (run: poundbot migrate)"
    if standby:
        return "the server is a standby (read-only)"
    if read_only:
        return "the session is read-only (default_transaction_read_only)"
    if not may_insert:
        return "this user may not write the inbox table"
    return None


async def write_fault(store: Store) -> str | None:
    """Why ``store``'s database cannot be written, or None when it can. Takes its turn
    like any transaction; an unreachable database raises."""
    fault: str | None = None
    try:
        async with store.transaction() as tx:
            fault = await _probe(await tx.session.connection())
            raise _RolledBack
    except _RolledBack:
        pass
    return fault


async def database_fault(url: str) -> str | None:
    """Why ``poundbot serve`` cannot use the database at ``url`` (one line), or None."""
    try:
        engine = make_engine(url)
    except (FileExistsError, NotADirectoryError) as exc:  # a path through a file
        return f"{_file_on_the_way(Path(str(exc.filename)))} is a file, not a folder"
    except OSError as exc:  # its folder cannot be made
        return f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)
    threads = threading.active_count()
    try:
        return await write_fault(Store(make_sessionmaker(engine), SystemClock()))
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        await _threads_ended(threads)
        return _first_line(exc)
    finally:
        await engine.dispose()


async def _threads_ended(count: int, within: float = 1.0) -> None:
    """Wait (``within`` seconds at most) until no more than ``count`` threads run.

    aiosqlite stops the thread of a connection that failed to open without waiting for
    it; the thread then hands its result to the event loop, which ``poundbot serve``
    closes as soon as this check returns: so the check waits for that thread first."""
    for _ in range(int(within / 0.01)):
        if threading.active_count() <= count:
            return
        await asyncio.sleep(0.01)


def _file_on_the_way(path: Path) -> Path:
    """The first existing part of ``path``, going up (the file it runs through)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def shown(url: str) -> str:
    """The database as a line names it: the file of a SQLite URL, else the URL without
    its password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return parsed.database.removeprefix("file:")
    return parsed.render_as_string(hide_password=True)
