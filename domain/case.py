"""A case (an impounding) and its life under the Act, as an explicit state machine.

A case is the fold of its events. Each step is declared once, in the module of its
section (``domain.step.Step``, gathered in ``domain.steps``): the stages it may follow,
its guard, the day the Act sets for it, the stage it leads to. ``Case.apply`` takes a
step by its declaration and refuses one that the Act does not allow from the case's
stage, one dated in the future or before the step before it; ``Case.lawful_today``
asks the same declarations. Commands that need amounts (release, sale) are in
``domain.s04_s11_dues`` and ``domain.s15_sale`` and produce the events applied here.

The stages and the provision of each step::

    IMPOUNDED --s.12--> RELEASED                    (claimed and paid)
    IMPOUNDED/REPORTED/NOTICE_POSTED/OWNER_REFUSED/SELLING --s.14--> ON_DEPOSIT --s.19--> CLOSED
    IMPOUNDED --s.13(1)--> REPORTED --s.13(2)--> NOTICE_POSTED --s.13(3)--> SELLING
    IMPOUNDED/REPORTED/NOTICE_POSTED --s.15(1)--> OWNER_REFUSED --> SELLING
    SELLING --s.15(2)/s.16--> ACCOUNT_DUE (owner appeared) | IN_DEPOSIT | CLOSED
    ACCOUNT_DUE --s.15(4)--> CLOSED
    ACCOUNT_DUE --s.15(5)--> DEEMED_UNCLAIMED | IN_DEPOSIT | CLOSED
    DEEMED_UNCLAIMED --s.13(1)--> REPORTED --s.13(2)--> NOTICE_POSTED --s.13(3)--> SELLING
    IN_DEPOSIT --s.16(3)--> CLOSED (claim established) ; --s.17(1)--> CLOSED (credited)
    any stage before money moved --s.7--> VOIDED   (a case entered by mistake)

A sale "round" starts at the impounding and again at a refused account (s.15(5)): the
report, the notice and the auction a stage reads are those of the current round.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, TypeVar, cast

from domain.errors import (
    BackwardsDateError,
    FutureDateError,
    InvalidCaseError,
    TransitionRefusedError,
)
from domain.events import (
    AccountRefused,
    CaseVoided,
    DepositRefunded,
    DisposedOtherwise,
    Event,
    Impounded,
    LotOffered,
    LotsSeparated,
    OwnerRefusedToPay,
    SeizureCorrected,
)
from domain.kinds import Kinds
from domain.profiles import Profile, require_counterpart
from domain.provisions import cites
from domain.s07_owners import carried_events
from domain.s07_seizure import Lot, Seizure
from domain.s13_unclaimed import NoticeFacts, report_first, require_notice_standing
from domain.s14_deposit import complaint_last_day
from domain.s15_3_account import SaleFacts
from domain.s16_s17_proceeds import DepositFacts
from domain.stages import Stage
from domain.step import Step
from domain.steps import STEPS

__all__ = [
    "Case",
    "Lot",
    "Seizure",
    "provision_of",
]


def provision_of(event: Event, owner_appeared: bool = False) -> str:
    """The provision under which an event happens; ``owner_appeared``: on the owner's
    route (s.15(1)), where the auction and its lots are that section's, not s.13(3)'s."""
    return STEPS[type(event)].provision_on(owner_appeared)


T = TypeVar("T")

#: The most values a case keeps of what was made from it (``Case.kept``): a statement a
#: day, the replies rendered from it, its days.
KEPT_PER_CASE = 32


@dataclass(frozen=True, slots=True)
class Case(NoticeFacts, SaleFacts, DepositFacts):
    """An impounding and everything that has happened to it since."""

    number: str
    seizure: Seizure
    stage: Stage
    events: tuple[Event, ...]
    #: What has been made from this case (``Case.kept``), kept with it: the case never
    #: changes, so nothing made from it goes stale, and it goes when the case goes. Each
    #: new case (a step, ``replace``) starts with none.
    _kept: dict[Hashable, tuple[tuple[object, ...], object]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def kept(self, key: Hashable, made_from: tuple[object, ...], make: Callable[[], T]) -> T:
        """What ``make`` makes from this case, ``key`` and ``made_from``, made once: kept
        with the case, and made again when ``made_from`` is not equal to what it was
        made from (the objects that cannot be a key: a tariff, the kinds; the same
        objects compare equal at once). At most ``KEPT_PER_CASE`` values are kept."""
        found = self._kept.get(key)
        if found is not None and found[0] == made_from:
            return cast(T, found[1])
        value = make()
        if len(self._kept) >= KEPT_PER_CASE:
            self._kept.clear()
        self._kept[key] = (made_from, value)
        return value

    @classmethod
    def open(cls, number: str, seizure: Seizure, kinds: Kinds, today: date) -> Case:
        """Open a case on a seizure report (s.7)."""
        seizure.validate(kinds, today)
        first = Impounded(on=seizure.impounded_on, seizure=seizure)
        return cls(number=number, seizure=seizure, stage=Stage.IMPOUNDED, events=(first,))

    @classmethod
    def replay(cls, number: str, events: list[Event] | tuple[Event, ...]) -> Case:
        """Rebuild a case from its stored events (no date checks against today)."""
        first = events[0] if events else None
        if not isinstance(first, Impounded):
            raise InvalidCaseError("a case starts with its impounding", "s.7")
        case = cls(number=number, seizure=first.seizure, stage=Stage.IMPOUNDED, events=(first,))
        correction = STEPS[SeizureCorrected]
        for event in events[1:]:
            if isinstance(event, SeizureCorrected) and case.stage in correction.follows:
                # Checked when recorded against every step before it, which the replay
                # checks itself: checking it again would make a long history quadratic.
                case = replace(
                    case,
                    seizure=event.seizure,
                    stage=correction.next_stage(case, event),
                    events=(*case.events, event),
                )
                continue
            try:
                case = case.then(event)
            except TransitionRefusedError:
                if case.stage is not Stage.DEEMED_UNCLAIMED:
                    raise
                # Recorded before s.15(5) sent the cattle of a refused account the s.13
                # way: the case was then held in deposit, and its later steps read so.
                case = replace(case, stage=Stage.IN_DEPOSIT).then(event)
        return case

    @property
    def profile(self) -> Profile:
        """The Act the case is under, as it was in force on its impounding day: with the
        values the configuration set of its gaps and the powers transferred (s.31)."""
        return self.seizure.profile

    @property
    def last_event_on(self) -> date:
        return max(e.on for e in self.events)

    def first(self, kind: type[Event]) -> Event | None:
        return next((e for e in self.events if isinstance(e, kind)), None)

    def last(self, kind: type[Event]) -> Event | None:
        return next((e for e in reversed(self.events) if isinstance(e, kind)), None)

    @property
    def stage_since(self) -> date:
        """The day the case entered its present stage (the release, the deposit, the
        notice, the first head sold, the settlement, ...)."""
        since = self.events[0].on
        case = replace(self, stage=Stage.IMPOUNDED, events=self.events[:1])
        for event in self.events[1:]:
            stage = STEPS[type(event)].next_stage(case, event)
            if stage is not case.stage:
                since = event.on
            case = replace(case, stage=stage, events=(*case.events, event))
        return since

    @property
    def provisions(self) -> tuple[str, ...]:
        """The provision of each event, by the route the case was on when it was taken:
        the auction and its lots under s.15(1) once the owner refused or omitted to pay,
        under s.13(3) for unclaimed cattle, and again after a refused account (s.15(5))."""
        out: list[str] = []
        owners_route = False
        for event in self.events:
            if isinstance(event, OwnerRefusedToPay):
                owners_route = True
            elif isinstance(event, AccountRefused):
                owners_route = False
            out.append(provision_of(event, owners_route))
        return tuple(out)

    @property
    def sale_provision(self) -> str:
        """The provision the auction and its lots are taken under on the case's route now:
        s.15(1) when the owner appeared and refused or omitted to pay, else s.13(3)."""
        return STEPS[LotOffered].provision_on(self.owner_appeared)

    @property
    def deemed_unclaimed(self) -> bool:
        """True once the owner refused the account: cattle and proceeds are unclaimed (s.15(5))."""
        return self.first(AccountRefused) is not None

    @property
    def owner_appeared(self) -> bool:
        """True on the s.15 route: the owner appeared and refused or omitted to pay, and
        has not since refused the account (after which the s.13 route applies, s.15(5))."""
        return self.first(OwnerRefusedToPay) is not None and not self.deemed_unclaimed

    # -- transitions --
    @property
    def refunded_on(self) -> date | None:
        """The day the deposit ordered refunded was paid back to the owner, if recorded."""
        done = self.last(DepositRefunded)
        return done.on if done is not None else None

    @property
    @cites("s.19", "GCA s.8")
    def complaint_by(self) -> date:
        """The last day to complain of the seizure: ten days (the case's Act's
        ``complaint_days``) from the day of seizure, that day excluded (s.19)."""
        return complaint_last_day(self.seizure.seizure_day, self.profile.complaint_days)

    @cites("s.15(5)", "s.13(3)", "s.12")
    def _guard_payment_after_refused_account(self) -> None:
        """s.15(5): the cattle of a refused account are "deemed to be unclaimed and
        disposed of according to the provisions of this Act", the s.13 way; s.13(3) sells
        cattle "not claimed", so until a head of that round is sold (or disposed of) the
        owner may still claim them and pay (s.12). Once one is, the sale goes on."""
        for event in reversed(self.events):
            if isinstance(event, AccountRefused):
                return
            if (isinstance(event, LotOffered) and event.sold) or isinstance(
                event, DisposedOtherwise
            ):
                raise TransitionRefusedError(
                    f"a head was sold on {event.on.isoformat()}: the sale goes on and is settled",
                    "s.13(3)",
                    reason="unclaimed_head_sold",
                    facts={"date": event.on},
                )

    @cites("s.12", "s.15(1)")
    def _guard_payment_before_sale(self) -> None:
        """s.12 releases the cattle on payment; s.15(1) sells them when the owner refuses
        or omits to pay. The Act is silent on an owner who refused and then pays: until a
        head is sold (or disposed of) the payment is taken and the auction fixed is
        cancelled (a declared policy, docs/the-act.md); once one is, the sale goes on."""
        sold = next(
            (
                e
                for e in self.events
                if (isinstance(e, LotOffered) and e.sold) or isinstance(e, DisposedOtherwise)
            ),
            None,
        )
        if sold is not None:
            raise TransitionRefusedError(
                f"a head was sold on {sold.on.isoformat()}: the sale goes on and is settled",
                "s.15(1)" if self.owner_appeared else "s.13(3)",
                reason="head_sold" if self.owner_appeared else "unclaimed_head_sold",
                facts={"date": sold.on},
            )

    @property
    @cites("s.12", "s.15(1)", "s.15(2)")
    def pays_rest_after_part_sale(self) -> bool:
        """Whether a payment now is of what remains owed after the proceeds of a sale under
        way on the owner's route (s.15(1)): a head sold, heads still in the pound. Whether
        anything remains owed needs the dues (``domain.s12_release``)."""
        return (
            self.stage is Stage.SELLING
            and self.owner_appeared
            and self.heads_remaining > 0
            and any(isinstance(e, LotOffered) and e.sold for e in self.events)
        )

    # -- steps --

    @staticmethod
    def step_of(event: Event) -> Step[Any]:
        """The declaration of ``event``'s step (``domain.steps``)."""
        return STEPS[type(event)]

    @property
    def money_step(self) -> Event | None:
        """The first step that moved money (a payment, deposit, sale or settlement)."""
        return next((e for e in self.events if STEPS[type(e)].moves_money(e)), None)

    def apply(self, event: Event, today: date) -> Case:
        """The case after ``event``, if the Act allows it on that date; else an error."""
        provision = provision_of(event, self.owner_appeared)
        if event.on > today:
            raise FutureDateError(f"{event.on.isoformat()} is in the future", provision)
        if event.on < self.last_event_on:
            raise BackwardsDateError(
                f"{event.on.isoformat()} is before the last recorded step "
                f"({self.last_event_on.isoformat()})",
                provision,
                reason="before_last_step",
                facts={"date": self.last_event_on},
            )
        after = self.then(event)
        STEPS[type(event)].guard_new(self, event)
        return after

    @cites("s.7", "s.12", "s.13(1)", "s.13(3)", "s.15(1)", "s.16(3)")
    def lawful_today(self, step: type[Event], today: date) -> bool:
        """Whether a step of kind ``step`` may be recorded today, as far as the case alone
        tells (a step's own facts are checked when it is taken): its stage accepts it,
        the notice it follows stands, and the day its declaration sets has come (the
        s.13(1) report, the s.13(3) sale, the s.16(3) fund, a payment or a deposit while
        no head is sold, voiding while no money has moved)."""
        declared = STEPS.get(step)
        if declared is None or self.stage not in declared.follows:
            return False
        if not self.profile.has(declared.provision_on(self.owner_appeared)):
            return False  # the case's Act has no such step
        if self.stage is Stage.REPORTED and declared.after_notice:
            return False  # the notice comes first (s.13(2))
        return declared.lawful(self, today)

    def then(self, event: Event) -> Case:
        """The case after ``event``, checked against the Act as its declaration says, but
        not against today (as the replay of stored steps)."""
        declared = STEPS[type(event)]
        if self.stage is Stage.DEEMED_UNCLAIMED and declared.after_report:
            report_first(self)
        if self.stage is Stage.REPORTED and declared.after_notice:
            require_notice_standing(self)
        if declared.prepare is not None:
            event = declared.prepare(self, event)
        if self.stage not in declared.follows:
            raise TransitionRefusedError(
                f"{type(event).__name__} is not allowed when the case is {self.stage.value}",
                declared.provision_on(self.owner_appeared),
                reason="stage",
                facts={
                    "stage": self.stage.value,
                    "date": self.stage_since,
                    "sale": self.sale_provision,
                },
            )
        require_counterpart(self.profile, declared.provision_on(self.owner_appeared))
        declared.guard(self, event)
        stage = declared.next_stage(self, event)
        seizure = self.seizure
        if isinstance(event, SeizureCorrected):  # corrected, still under the case's Act
            seizure = replace(
                event.seizure, act=self.seizure.act, act_settings=self.seizure.act_settings
            )
        elif isinstance(event, LotsSeparated):  # the case goes on for the rest
            seizure = seizure.without(event.lots)
        return replace(self, seizure=seizure, stage=stage, events=(*self.events, event))

    def from_intake(self, seizure: Seizure) -> Case:
        """The case back at its intake, on the record ``seizure`` (its later steps to be
        taken again: a correction checks them so)."""
        return replace(self, seizure=seizure, stage=Stage.IMPOUNDED, events=self.events[:1])

    def noted(self, event: Event, stage: Stage) -> Case:
        """The case with ``event`` added as it was recorded, at ``stage``, unchecked."""
        return replace(self, stage=stage, events=(*self.events, event))

    @cites("s.7", "s.12", "s.14", "s.15(1)")
    def separate(
        self, lots: tuple[int, ...], into: str, on: date, today: date
    ) -> tuple[Case, Case]:
        """The lots at ``lots``, one owner's, separated on ``on`` into a case of their own
        numbered ``into`` (``domain.s07_owners``): this case going on for the rest, and
        the new one, carrying the steps so far. Refused, nothing changed, as the Act
        would refuse it."""
        rest = self.apply(LotsSeparated(on=on, lots=lots, into=into), today)
        return rest, self.part(lots, into)

    @cites("s.7", "s.12", "s.14")
    def part(self, lots: tuple[int, ...], into: str) -> Case:
        """The case the lots at ``lots`` would make on their own, numbered ``into``: what
        their owner owes and may do (an owner asking of their own cattle)."""
        return Case.replay(into, carried_events(self, lots))

    @cites("s.7")
    def void(self, reason: str, on: date, today: date) -> Case:
        """The case voided as entered by mistake (a wrong s.7 record), while no money has
        moved; once it has, the step that moved it is named in the refusal."""
        return self.apply(CaseVoided(on=on, reason=reason), today)
