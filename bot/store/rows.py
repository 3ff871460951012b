"""What a transaction does with the rows it holds, for the use cases above the store: add
one, write what changed (flush), read one again that a rollback expired, undo a part (a
savepoint), and which database it runs on. The SQL of each area is in its own module
(``bot.store.users``, ``bot.store.reminder_jobs``, ...); these are the operations every
area shares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

from sqlalchemy import inspect

from bot.store.tx import Tx

__all__ = ["Savepoint", "add", "dialect", "flush", "refresh_expired", "savepoint"]


class Savepoint(Protocol):
    """A part of a transaction begun by ``savepoint``."""

    async def rollback(self) -> None:
        """Undo what was written since the savepoint (the block goes on)."""


async def add(tx: Tx, row: Any) -> None:
    """Add ``row`` (a row of ``bot.store.models``) and write it, so it has its id."""
    tx.session.add(row)
    await tx.session.flush()


async def flush(tx: Tx) -> None:
    """Write what was changed in the rows the transaction holds."""
    await tx.session.flush()


async def refresh_expired(tx: Tx, row: Any) -> None:
    """Read ``row`` again if a rollback (of a savepoint) has expired some of its
    attributes, so that nothing reads them lazily later."""
    if inspect(row).expired_attributes:
        await tx.session.refresh(row)


@asynccontextmanager
async def savepoint(tx: Tx) -> AsyncIterator[Savepoint]:
    """A part of the transaction undone alone if the block raises, or when it is
    rolled back (a SAVEPOINT)."""
    async with tx.session.begin_nested() as step:
        yield step


def dialect(tx: Tx) -> str:
    """The database the transaction runs on: ``sqlite`` or ``postgresql``."""
    bind = tx.session.bind
    return bind.dialect.name if bind is not None else "sqlite"
