"""The outcomes of the steps that someone beside the caller is told of.

A step returns its outcome (``bot.conversation.steps``); the subscribers of the outcome's
type (``bot.services.subscribers``) queue what the owner and the officers are sent.
``Settled`` is the use case's own (``bot.services.officer``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.services.keeper import Recorded
from bot.services.officer import Settled
from bot.store.tx import LoadedCase
from domain.case import Case
from domain.money import Money
from domain.s04_s11_dues import Dues
from domain.statement import Statement

__all__ = [
    "AuctionScheduled",
    "Corrected",
    "PaidAfterPartSale",
    "Reported",
    "Seized",
    "Settled",
]


@dataclass(frozen=True, slots=True)
class Seized:
    """A seizure recorded (s.7): the case it opened, its fines (s.11), what one more day
    costs at the rate of the day brought (s.4), the pound's name, the owner's number, and
    the number of each lot's own owner, by its place (None: none of its own)."""

    loaded: LoadedCase
    dues: Dues
    daily: Money
    pound_name: str
    owner_phone: str | None
    lot_phones: tuple[str | None, ...] = ()

    @property
    def case(self) -> Case:
        return self.loaded.case


@dataclass(frozen=True, slots=True)
class Corrected:
    """A seizure report corrected (s.7), and the owner's number it gave, if it gave one:
    of the lot at index ``lot`` when it corrected that lot's owner (the correction may
    also have superseded the notice and cancelled the auction)."""

    recorded: Recorded
    owner_phone: str | None
    lot: int | None = None


@dataclass(frozen=True, slots=True)
class Reported:
    """The keeper's report of cattle unclaimed (s.13(1)), made on ``on``."""

    recorded: Recorded
    pound_name: str
    on: date


@dataclass(frozen=True, slots=True)
class AuctionScheduled:
    """An auction fixed (s.13(3)) for ``on``."""

    recorded: Recorded
    on: date


@dataclass(frozen=True, slots=True)
class PaidAfterPartSale:
    """The rest of the dues paid after a part sale (s.12, s.15(1)): the statement of the
    day of payment, with the account of the sale (s.15(3))."""

    recorded: Recorded
    statement: Statement
