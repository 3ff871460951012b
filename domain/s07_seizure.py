"""s.7: the record of cattle brought to the pound: the cattle (kind, count,
description), the day and hour they were brought in, the place and day of seizure, the
seizer and the owner where known. A report that is not a lawful record is refused here."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from datetime import date, datetime

from domain.errors import FutureDateError, InvalidCaseError, SeizedAfterBroughtError
from domain.kinds import Kinds
from domain.profiles import DEFAULT_ACT, Destination, Power, Profile, profile
from domain.provisions import cites

__all__ = [
    "ActSettings",
    "Lot",
    "Person",
    "Seizure",
    "require_brought_by",
]


@dataclass(frozen=True, slots=True)
class Person:
    """A person named in a seizure report: name and residence (s.7)."""

    name: str
    residence: str = ""


@dataclass(frozen=True, slots=True)
class Lot:
    """Cattle of one kind in a case: how many and what they look like (s.7, s.13(2)(a))."""

    kind: str
    count: int
    description: str = ""
    #: The owner of these cattle, where the lots of a case are of more than one owner
    #: (cattle of two owners brought in together); None: the case's owner
    #: (``Seizure.owner``), or not known.
    owner: Person | None = None


@dataclass(frozen=True, slots=True)
class ActSettings:
    """What the configuration gave the case's Act on the impounding day: the values of
    its gaps it set (``[[authorities.acts]]``: ``complaint_days = 15``; None: the
    profile's own) and the powers a State's s.31 notification had transferred to the
    local authority (by their values). Kept with the case as its Act is: a later change
    of the configuration never alters an open case."""

    complaint_days: int | None = None
    surplus_months: int | None = None
    fines_to: str | None = None
    surplus_to: str | None = None
    transferred: tuple[str, ...] = ()

    @classmethod
    def of(cls, act: Profile) -> ActSettings:
        """The settings of ``act`` as in force (``Profile.in_force``)."""
        set_ = set(act.configured)
        return cls(
            complaint_days=act.complaint_days if "complaint_days" in set_ else None,
            surplus_months=act.surplus_months if "surplus_months" in set_ else None,
            fines_to=act.fines_to.value if "fines_to" in set_ else None,
            surplus_to=act.surplus_to.value if "surplus_to" in set_ else None,
            transferred=tuple(sorted(p.value for p in act.transferred)),
        )


@functools.lru_cache(maxsize=64)
def _in_force(key: str, settings: ActSettings) -> Profile:
    """The profile ``key`` as in force with ``settings``: one value for each (a case's Act
    is read at every step)."""
    return profile(key).in_force(
        transferred=frozenset(Power(p) for p in settings.transferred),
        complaint_days=settings.complaint_days,
        surplus_months=settings.surplus_months,
        fines_to=Destination(settings.fines_to) if settings.fines_to else None,
        surplus_to=Destination(settings.surplus_to) if settings.surplus_to else None,
    )


@dataclass(frozen=True, slots=True)
class Seizure:
    """The facts the pound-keeper records on intake (s.7).

    ``brought_at`` is the local day and hour the cattle were brought to the pound
    (``hour_known`` False: only the day was given, the hour is not shown);
    ``seized_on`` the day of seizure (s.19 counts from it), by default the same day;
    ``act`` the key of the Act's profile the case is under.
    """

    pound: str
    lots: tuple[Lot, ...]
    place_seized: str
    brought_at: datetime
    seizer: Person | None = None
    owner: Person | None = None
    seized_on: date | None = None
    hour_known: bool = True
    #: The Act the case is under: the profile in force for the pound's authority on the
    #: impounding day (``domain.profiles``); a case recorded before profiles: Kerala 1961.
    act: str = DEFAULT_ACT
    #: What the configuration gave that Act that day (``ActSettings``); a case recorded
    #: before it could: nothing, the profile as it is.
    act_settings: ActSettings = ActSettings()

    @property
    def profile(self) -> Profile:
        """The Act the case is under, as in force on its impounding day."""
        return _in_force(self.act, self.act_settings)

    @property
    def impounded_on(self) -> date:
        return self.brought_at.date()

    @property
    def seizure_day(self) -> date:
        return self.seized_on or self.brought_at.date()

    @property
    def head_count(self) -> int:
        return sum(lot.count for lot in self.lots)

    @cites("s.7")
    def index_of_lot(self, lot: int) -> int:
        """The place of lot number ``lot`` (from 1, as the keeper writes ``LOT 2``) in the
        record; a number the record has not is refused, naming how many lots it has."""
        if not 1 <= lot <= len(self.lots):
            raise InvalidCaseError(
                f"the case has no lot {lot}",
                "s.7",
                reason="no_lot",
                facts={"lot": lot, "lots": len(self.lots)},
            )
        return lot - 1

    @cites("s.7")
    def owner_of(self, lot: int) -> Person | None:
        """The owner of the lot at index ``lot``: its own, else the case's (s.7)."""
        return self.lots[lot].owner or self.owner

    @property
    @cites("s.7")
    def owners(self) -> tuple[Person | None, ...]:
        """The owners of the lots, each once, in the order of the lots (None: a lot
        whose owner is not known)."""
        return tuple(dict.fromkeys(self.owner_of(i) for i in range(len(self.lots))))

    @property
    @cites("s.7")
    def owned_apart(self) -> bool:
        """Whether the lots are of more than one owner (or some of an owner not known):
        each owner's cattle then follow the Act on their own (``domain.s07_owners``)."""
        return len(self.owners) > 1

    @cites("s.7")
    def lots_of_owner(self, lot: int) -> tuple[int, ...]:
        """The indexes of the lots of the owner of the lot at ``lot``: that lot alone
        when its owner is not known."""
        owner = self.owner_of(lot)
        if owner is None:
            return (lot,)
        return tuple(i for i in range(len(self.lots)) if self.owner_of(i) == owner)

    @cites("s.7")
    def part(self, lots: tuple[int, ...]) -> Seizure:
        """The record of the lots at ``lots`` alone, one owner's: that owner is the
        owner of the case they make."""
        return replace(
            self,
            lots=tuple(replace(self.lots[i], owner=None) for i in lots),
            owner=self.owner_of(lots[0]),
        )

    @cites("s.7")
    def without(self, lots: tuple[int, ...]) -> Seizure:
        """The record of the lots not at ``lots``: when those left are one owner's, that
        owner is the owner of the case."""
        left = replace(self, lots=tuple(lot for i, lot in enumerate(self.lots) if i not in lots))
        return left if left.owned_apart else left.part(tuple(range(len(left.lots))))

    @cites("s.7", "s.2(1)")
    def validate(self, kinds: Kinds, today: date) -> None:
        """Refuse a report that cannot stand: no cattle, a bad count, an unknown kind,
        a place left blank, a date in the future, seizure after impounding."""
        if not self.lots:
            raise InvalidCaseError("a seizure needs at least one animal", "s.7", reason="no_cattle")
        for lot in self.lots:
            kinds[lot.kind]  # raises UnknownKindError (s.2(1))
            if lot.count < 1 or lot.count > 10_000:
                raise InvalidCaseError(
                    f"not a count of cattle: {lot.count}",
                    "s.7",
                    reason="bad_count",
                    facts={"count": lot.count},
                )
        if not self.place_seized.strip():
            raise InvalidCaseError("the place of seizure is required", "s.7", reason="no_place")
        if self.impounded_on > today:
            raise FutureDateError("the cattle cannot be brought in after today", "s.7")
        if self.seized_on is not None and self.seized_on > self.impounded_on:
            raise SeizedAfterBroughtError(
                "the seizure cannot be after the impounding",
                "s.7",
                reason="seized_after_brought",
                facts={"seized": self.seized_on, "date": self.impounded_on},
            )


@cites("s.7")
def require_brought_by(seizure: Seizure, now: datetime) -> None:
    """Refuse a report of cattle brought in later than ``now`` (the local wall-clock time,
    as ``brought_at``), as a day after today is refused: the record is of cattle already
    brought to the pound. An hour not given (``hour_known`` False) is not compared; its
    day is."""
    if seizure.impounded_on > now.date():
        raise FutureDateError("the cattle cannot be brought in after today", "s.7")
    if seizure.hour_known and seizure.brought_at > now:
        raise FutureDateError(
            f"the cattle cannot be brought in at {seizure.brought_at:%H:%M}, later than "
            f"now ({now:%H:%M})",
            "s.7",
            reason="future_time",
            facts={"time": f"{seizure.brought_at:%H:%M}", "now": f"{now:%H:%M}"},
        )
