"""Who is told of what a step did: the handlers of each outcome type.

A step returns its outcome (``bot.conversation.steps``); after it, in the same
transaction (so that a refused or trial step queues nothing), the dispatcher
(``bot.conversation.bus``) runs the handlers registered for the outcome's type, each
``(tx, deps, outcome) -> Told | None``. The composition root (``bot.bootstrap``) registers
them; the handlers are in ``bot.notifications.handlers``. ``Subscribers()`` registers
none: nobody beside the caller is told of anything.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, NamedTuple

from bot.store.tx import Tx

__all__ = [
    "AUCTION_CANCELLED",
    "INTAKE",
    "Handler",
    "OwnerSms",
    "OwnerTold",
    "Subscribers",
    "Told",
]

#: What became of an SMS to the owner: queued, refused by the number (STOP), no number.
OwnerSms = Literal["queued", "opted_out", "no_number"]


#: What became of the SMS of one owner of some of a case's cattle: the numbers (from 1)
#: of their lots, and their SMS.
OwnerTold = tuple[tuple[int, ...], OwnerSms]

#: The owner's SMS an answer speaks of (``Told.what``): the intake SMS (s.7), the SMS
#: that the auction is called off (s.13(3)).
INTAKE = "intake"
AUCTION_CANCELLED = "auction_cancelled"


class Told(NamedTuple):
    """What a subscriber queued for the owner, that the caller's answer says: ``what``
    names the message (``intake``, ``auction_cancelled``), ``sms`` what became of it;
    ``owners``, when each owner of some of the cattle was told of their own lots apart,
    what became of each one's SMS, with the numbers (from 1) of their lots."""

    what: str
    sms: OwnerSms
    owners: tuple[OwnerTold, ...] = ()


#: A subscriber ``(tx, deps, outcome)``: what it queued that the caller's answer says, if
#: anything. ``deps`` is ``bot.services.base.Deps``, which holds the subscribers (so it
#: is not named here: the two modules would import each other).
Handler = Callable[[Tx, Any, Any], Awaitable[Told | None]]


class Subscribers:
    """The handlers of each outcome type, in the order they run (and queue)."""

    __slots__ = ("_by_type",)

    def __init__(self, by_type: Mapping[type, tuple[Handler, ...]] | None = None) -> None:
        self._by_type: dict[type, tuple[Handler, ...]] = dict(by_type or {})

    def of(self, outcome: object) -> tuple[Handler, ...]:
        """The handlers of ``outcome``'s type (none: nobody is told of it)."""
        return self._by_type.get(type(outcome), ())

    def types(self) -> frozenset[type]:
        """The outcome types someone is told of."""
        return frozenset(self._by_type)
