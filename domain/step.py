"""A step of the Act, as its section declares it.

Each step a case can take is declared once, in the module of its section
(``domain.s13_unclaimed`` declares the s.13(1) report, the s.13(2) notice and the s.13(3)
auction): its event, the provision it is taken under, the stages it may follow, its
guard, whether the day the Act sets for it has come, the stage it leads to, and whether
it moves money. ``domain.steps`` gathers the declarations; ``domain.case`` folds the
events by them, and everything that asks whether a step is lawful today (the desk's
buttons, the owner's answers) asks the declaration through ``Case.lawful_today``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, Protocol, Self, TypeVar

from domain.accounts import Postings
from domain.deadline import Deadline
from domain.dues_items import DuesItem
from domain.events import (
    AuctionScheduled,
    ClaimPreferred,
    Event,
    NoticePosted,
    SeizureCorrected,
)
from domain.money import Money
from domain.profiles import Profile
from domain.s07_seizure import Seizure
from domain.stages import Stage
from domain.tariff import Tariff

__all__ = ["AnyCase", "Case", "Step"]

E = TypeVar("E", bound=Event)


class Case(Protocol):
    """What the rules of the sections read of a case, and the steps they take on it
    (``domain.case.Case`` is the one): the sections' modules are below the fold that
    takes their steps, so they know a case by this."""

    @property
    def number(self) -> str: ...
    @property
    def seizure(self) -> Seizure: ...
    @property
    def stage(self) -> Stage: ...
    @property
    def profile(self) -> Profile: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def stage_since(self) -> date: ...
    @property
    def notice(self) -> NoticePosted | None: ...
    @property
    def reported_on(self) -> date | None: ...
    @property
    def superseding(self) -> SeizureCorrected | None: ...
    @property
    def superseded_notice(self) -> NoticePosted | None: ...
    @property
    def notice_offered_on(self) -> NoticePosted | None: ...
    @property
    def scheduled_auction(self) -> AuctionScheduled | None: ...
    @property
    def owner_appeared(self) -> bool: ...
    @property
    def deemed_unclaimed(self) -> bool: ...
    @property
    def sale_provision(self) -> str: ...
    @property
    def heads_remaining(self) -> int: ...
    @property
    def proceeds(self) -> Money: ...
    @property
    def expected_expenses(self) -> Money: ...
    @property
    def pays_rest_after_part_sale(self) -> bool: ...
    @property
    def complaint_by(self) -> date: ...
    @property
    def deposit_total(self) -> Money: ...
    @property
    def deposited_on(self) -> date | None: ...
    @property
    def pending_claims(self) -> tuple[ClaimPreferred, ...]: ...
    @property
    def pending_claim(self) -> ClaimPreferred | None: ...
    @property
    def money_step(self) -> Event | None: ...
    def first(self, kind: type[Event]) -> Event | None: ...
    def last(self, kind: type[Event]) -> Event | None: ...
    def remaining_heads(self, lot: int) -> int: ...
    def step_of(self, event: Event) -> Step[Any]: ...
    def apply(self, event: Event, today: date) -> Self: ...
    def then(self, event: Event) -> Self: ...
    def from_intake(self, seizure: Seizure) -> Self: ...
    def noted(self, event: Event, stage: Stage) -> Self: ...


#: A case a rule takes a step on, and gets back as it was given (``domain.case.Case``).
AnyCase = TypeVar("AnyCase", bound=Case)


def _no_guard(case: Case, event: Event) -> None:
    """A step with no rule of its own beyond the stages it may follow."""


def _any_day(case: Case, today: date) -> bool:
    """A step the Act sets no day for."""
    return True


def _sets_none(case: Case) -> tuple[Deadline, ...]:
    """A step whose coming sets no deadline."""
    return ()


def _moves_none(event: Event) -> bool:
    """A step that moves no money."""
    return False


@dataclass(frozen=True, slots=True, kw_only=True)
class Step(Generic[E]):
    """One step of the Act: what a section says of it, in one place."""

    #: The fact the step records.
    event: type[E]
    #: The provision the step is taken under (on the owner's route: ``owners_route``).
    provision: str
    #: The stages of a case the step may follow.
    follows: frozenset[Stage]
    #: The stage the case is in after the step: a stage, or one read from the case
    #: before the step and the step itself.
    leads_to: Stage | Callable[[Case, E], Stage]
    #: The rules the step's own facts and the case's dates must meet; raises the refusal
    #: (``domain.errors``). Run on every step, recorded or replayed.
    guard: Callable[[Case, E], None] = _no_guard
    #: A rule checked when the step is recorded, not when a stored one is replayed (a
    #: rule newer than some stored steps whose money was posted).
    guard_new: Callable[[Case, E], None] = _no_guard
    #: What the step becomes before the stage is checked (a correction of what a posted
    #: notice states supersedes it), or the refusal that says better than the stage why
    #: it cannot be taken.
    prepare: Callable[[Case, E], E] | None = None
    #: Whether, as far as the case alone tells, the day the Act sets for the step has
    #: come on ``today`` (its earliest lawful day, the time it must be taken within).
    lawful: Callable[[Case, date], bool] = _any_day
    #: The provision on the owner's route (s.15(1)), where it differs.
    owners_route: str | None = None
    #: A step that follows the s.13(1) report: in a round of cattle deemed unclaimed
    #: (s.15(5)) the report comes first.
    after_report: bool = False
    #: A step that follows the s.13(2) notice: a reported case posts the notice first.
    after_notice: bool = False
    #: The deadlines by which the step is due, or the periods it may be taken within,
    #: in the case's present stage (``domain.deadlines`` gathers them).
    deadlines: Callable[[Case], tuple[Deadline, ...]] = _sets_none
    #: Whether the step moves money (a payment, a deposit, a sale, a settlement): once
    #: one has, the case can no longer be voided nor its counts corrected.
    moves_money: Callable[[E], bool] = _moves_none
    #: The postings of the step, to the paisa (``domain.accounts``), from the case
    #: before it and after it, the tariff and the order in which proceeds meet the dues;
    #: None for a step that posts nothing.
    postings: Callable[[Case, Case, Tariff, tuple[DuesItem, ...]], Postings] | None = None

    def next_stage(self, case: Case, event: E) -> Stage:
        """The stage ``case`` is in after ``event``."""
        leads_to = self.leads_to
        return leads_to if isinstance(leads_to, Stage) else leads_to(case, event)

    def provision_on(self, owner_appeared: bool) -> str:
        """The provision of the step on the route the case is on."""
        return self.owners_route if owner_appeared and self.owners_route else self.provision
