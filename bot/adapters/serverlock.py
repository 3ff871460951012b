"""Which database a running ``poundbot serve`` uses: a lock beside the embedded database.

Each server holds a shared ``flock`` on ``<database>.lock`` for as long as it runs (any
number of servers may share a database); ``poundbot restore`` asks for the lock
exclusively and is refused while any server holds it. The operating system lets go of a
lock when its process ends, however it ends: a server that crashed leaves no stale lock
(the file stays; it is the lock on it that counts).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["ServerRunning", "alone", "lock_path", "serving"]


class ServerRunning(Exception):
    """A server uses the database."""


def lock_path(database: Path) -> Path:
    """The lock file of the embedded database ``database``."""
    return database.with_name(f"{database.name}.lock")


def _open(database: Path) -> int:
    path = lock_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)


@contextmanager
def serving(database: Path | None) -> Iterator[None]:
    """Held by ``poundbot serve`` while it runs (nothing for PostgreSQL: None)."""
    if database is None:
        yield
        return
    fd = _open(database)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # waits while a restore runs
        yield
    finally:
        os.close(fd)  # lets go of the lock


@contextmanager
def alone(database: Path) -> Iterator[None]:
    """Hold ``database`` with no server on it (a server that starts meanwhile waits);
    raises ServerRunning when a server uses it."""
    fd = _open(database)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerRunning(f"a poundbot server is using {database}") from None
        yield
    finally:
        os.close(fd)
