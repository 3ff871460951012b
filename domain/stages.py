"""Where a case stands under the Act: the stages the fold of its events
(``domain.case``) moves through, the sets of them the rules ask about, and what the rules
of a section read of a case (``CaseFacts``): the section modules know a case by this, so
that the fold may call their rules and no module imports its way back to itself."""

from __future__ import annotations

import enum
from datetime import date
from typing import Protocol, TypeVar

from domain.events import Event, NoticePosted
from domain.s07_seizure import Seizure

__all__ = [
    "IN_POUND_STAGES",
    "OPEN_STAGES",
    "CaseFacts",
    "CaseSteps",
    "Folded",
    "Stage",
]


class Stage(enum.Enum):
    """Where a case stands under the Act."""

    IMPOUNDED = "impounded"
    RELEASED = "released"  # s.12
    ON_DEPOSIT = "on_deposit"  # s.14
    REPORTED = "reported"  # s.13(1)
    NOTICE_POSTED = "notice_posted"  # s.13(2)
    OWNER_REFUSED = "owner_refused"  # s.15(1)
    SELLING = "selling"  # s.13(3) / s.15(1)
    ACCOUNT_DUE = "account_due"  # s.15(3)
    DEEMED_UNCLAIMED = "deemed_unclaimed"  # s.15(5): refused cattle, to be reported
    IN_DEPOSIT = "in_deposit"  # s.16(3)
    CLOSED = "closed"
    VOIDED = "voided"  # entered by mistake: on no list, takes no step


OPEN_STAGES = frozenset(Stage) - {Stage.RELEASED, Stage.CLOSED, Stage.VOIDED}


#: Stages in which (some of) the cattle are still in the pound and fed there (s.4).
IN_POUND_STAGES = frozenset(
    {
        Stage.IMPOUNDED,
        Stage.REPORTED,
        Stage.NOTICE_POSTED,
        Stage.OWNER_REFUSED,
        Stage.SELLING,
        Stage.DEEMED_UNCLAIMED,
    }
)


class Folded(Protocol):
    """A case as its fold holds it: the facts of a section read from its events
    (``domain.case.Case`` is one, and reads them so)."""

    @property
    def seizure(self) -> Seizure: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def events(self) -> tuple[Event, ...]: ...


class CaseFacts(Protocol):
    """What the rules of a section read of a case (``domain.case.Case`` is one)."""

    @property
    def seizure(self) -> Seizure: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def stage_since(self) -> date: ...

    @property
    def notice(self) -> NoticePosted | None: ...

    def last(self, kind: type[Event]) -> Event | None: ...


_Case = TypeVar("_Case", bound="CaseSteps")


class CaseSteps(CaseFacts, Protocol):
    """A case a rule takes a step on: the case after the step, or the refusal."""

    def apply(self: _Case, event: Event, today: date) -> _Case: ...
