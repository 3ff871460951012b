"""Clocks: the system clock for production, a settable one for tests and the demo."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from domain.calendar import LOCAL_TZ

__all__ = ["Clock", "FixedClock", "SystemClock", "local_today"]


class Clock(Protocol):
    """Where "now" comes from; the domain never reads a clock."""

    def now(self) -> datetime:
        """The current time, timezone-aware."""
        ...


def local_today(clock: Clock) -> date:
    """Today in Asia/Kolkata."""
    return clock.now().astimezone(LOCAL_TZ).date()


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that moves only when told to."""

    def __init__(self, at: datetime) -> None:
        if at.tzinfo is None:
            raise ValueError("FixedClock needs an aware datetime")
        self._at = at

    def now(self) -> datetime:
        return self._at

    def set(self, at: datetime) -> None:
        self._at = at

    def advance(self, **kwargs: float) -> None:
        self._at += timedelta(**kwargs)
