"""What a database error was, for the channels (``bot.channels``) that must tell the
database's trouble (try the message again later) from a fault of the message."""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, OperationalError

__all__ = ["database_trouble", "sqlite_locked"]


def database_trouble(exc: BaseException) -> bool:
    """Whether ``exc`` is the database's operational trouble (a lock, a lost connection,
    a full disk), not a fault of what was asked of it."""
    return isinstance(exc, OperationalError)


def sqlite_locked(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's "database is locked" (raised or wrapped)."""
    original = exc.orig if isinstance(exc, DBAPIError) else exc
    return isinstance(original, sqlite3.OperationalError) and "locked" in str(original)
