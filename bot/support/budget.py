"""The wait budget of a request: how long it may wait for the database, queue included.

A webhook whose answer comes too late is as good as lost (Twilio gives up after 15 s
and drops the answer; the sender then sends again and would get a second case). So a
request sets a deadline (``within``) and every wait on its way respects it: its turn
on the Store's lock (SQLite) and SQLite's lock held by another process
(``bot.store.engine``). Past the deadline the wait ends with ``WaitBudgetExceeded`` (the
turn) or SQLite's own "database is locked" (the file lock), and the statement it was
waiting for has not run.

The deadline lives in a context variable: it follows the request into SQLAlchemy's
greenlets and into nothing else (background work has no deadline).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["DEFAULT_BUDGET", "WaitBudgetExceeded", "deadline", "remaining", "within"]

#: Seconds a request may wait for the database in all, unless configured otherwise.
DEFAULT_BUDGET = 8.0

_deadline: ContextVar[float | None] = ContextVar("poundbot_wait_deadline", default=None)


class WaitBudgetExceeded(TimeoutError):
    """A request waited for the database as long as its budget allows."""


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Waits for the database inside the block end ``seconds`` from now, at the latest."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def deadline() -> float | None:
    """The current request's deadline (``time.monotonic()`` scale), or None."""
    return _deadline.get()


def remaining() -> float | None:
    """Seconds left of the current request's budget (never below 0), or None."""
    end = _deadline.get()
    return None if end is None else max(end - time.monotonic(), 0.0)
