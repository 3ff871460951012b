"""A savepoint inside a transaction, for the channels (``bot.channels``): what the block
writes is undone alone when it raises, and the transaction goes on."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.store.tx import Tx

__all__ = ["savepoint"]


def savepoint(tx: Tx) -> AbstractAsyncContextManager[Any]:
    """``async with savepoint(tx):`` the block's writes, rolled back alone if it raises."""
    return tx.session.begin_nested()
