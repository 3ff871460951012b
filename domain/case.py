"""A case (an impounding) and its life under the Act, as an explicit state machine.

A case is the fold of its events. ``Case.apply`` refuses an event that the Act does
not allow from the case's stage, one dated in the future or before the event before
it; commands that need amounts (release, sale) are in ``domain.s04_s11_dues`` and
``domain.s15_sale`` and produce the events applied here.

Stages and the provision of each transition::

    IMPOUNDED --s.12--> RELEASED                    (claimed and paid)
    IMPOUNDED/REPORTED/NOTICE_POSTED/OWNER_REFUSED/SELLING --s.14--> ON_DEPOSIT --s.19--> CLOSED
        (deposit under protest while the ten days of s.19 run and no head is sold;
        outcome recorded)
    IMPOUNDED --s.13(1)--> REPORTED --s.13(2)--> NOTICE_POSTED
    NOTICE_POSTED --s.13(3)--> SELLING              (from the 8th day after the notice)
    IMPOUNDED/REPORTED/NOTICE_POSTED --s.15(1)--> OWNER_REFUSED --> SELLING
    SELLING --s.15(2)/s.16--> ACCOUNT_DUE (owner appeared) | IN_DEPOSIT | CLOSED
    ACCOUNT_DUE --s.15(4)--> CLOSED ; ACCOUNT_DUE --s.15(5)--> IN_DEPOSIT | CLOSED
    ACCOUNT_DUE --s.15(5)--> DEEMED_UNCLAIMED       (cattle remain: they go the s.13 way)
    DEEMED_UNCLAIMED --s.13(1)--> REPORTED --s.13(2)--> NOTICE_POSTED --s.13(3)--> SELLING
    IN_DEPOSIT --s.16(3)--> IN_DEPOSIT (claim preferred; then established or rejected)
    IN_DEPOSIT --s.16(3)--> CLOSED (claim established) ; --s.17(1)--> CLOSED (credited)
    REPORTED/NOTICE_POSTED --s.12--> RELEASED       (the owner may claim until the sale)
    DEEMED_UNCLAIMED and the s.13 steps after it --s.12--> IN_DEPOSIT | RELEASED
        (until a head of that round is sold; the first sale's balance stays in deposit)
    any stage before money moved --> VOIDED         (a case entered by mistake; s.7 record)

A sale "round" starts at the impounding and again at a refused account (s.15(5)): the
report, the notice and the auction a stage reads are those of the current round.

Why it is long: one state machine: the stages each event may come from, the fold, and
the guard of every step, which read each other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TypeVar, cast

from domain.calendar import period_end
from domain.errors import (
    BackwardsDateError,
    BarredBuyerError,
    CorrectionRefusedError,
    DomainError,
    FutureDateError,
    InvalidCaseError,
    TooEarlyError,
    TransitionRefusedError,
    VoidRefusedError,
)
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    DepositRefunded,
    DisposedOtherwise,
    Event,
    Impounded,
    LotOffered,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SaleExpensesStated,
    SeizureCorrected,
)
from domain.kinds import Kinds
from domain.money import Money
from domain.provisions import cites
from domain.s07_seizure import Lot, Seizure
from domain.s13_unclaimed import auction_allowed_from, notice_facts, report_due, report_due_on
from domain.s16_s17_proceeds import deposit_window_end, fund_credit_from, same_claimant
from domain.stages import OPEN_STAGES, Stage

__all__ = [
    "Case",
    "provision_of",
]


# --- events -----------------------------------------------------------------------


# --- rules that count from the case's dates ----------------------------------------


def _claim_of(pending: list[ClaimPreferred], claimant: str) -> ClaimPreferred | None:
    """The pending claim of ``claimant``; with no name, the only claim pending."""
    if not claimant.strip():
        return pending[0] if len(pending) == 1 else None
    return next((c for c in pending if same_claimant(c.claimant, claimant)), None)


# --- the case ----------------------------------------------------------------------

# Which events each stage accepts (corrections are allowed in every open stage).
_ALLOWED: dict[type[Event], frozenset[Stage]] = {
    # Until a head is sold the owner may still pay and take the cattle, also after refusing
    # (s.12, s.15(1)); the guard looks at the sales. On the owner's route, while the
    # proceeds leave the dues unmet, the payment of the rest follows the settlement of
    # the proceeds, in the same step (ACCOUNT_DUE: ``_guard_payment_after_part_sale``).
    # After a refused account (s.15(5)) the rest go the s.13 way, and s.13(3) sells only
    # cattle "not claimed": the owner may pay until a head of that round is sold.
    ClaimedAndPaid: frozenset(
        {
            Stage.IMPOUNDED,
            Stage.REPORTED,
            Stage.NOTICE_POSTED,
            Stage.OWNER_REFUSED,
            Stage.SELLING,
            Stage.ACCOUNT_DUE,
            Stage.DEEMED_UNCLAIMED,
        }
    ),
    # s.14 while the ten days of s.19 run, also after a refusal (s.15(1) sells only when
    # the owner refuses "to deposit" too); the guard looks at the days and the sales.
    DeliveredOnDeposit: frozenset(
        {
            Stage.IMPOUNDED,
            Stage.REPORTED,
            Stage.NOTICE_POSTED,
            Stage.OWNER_REFUSED,
            Stage.SELLING,
        }
    ),
    DepositOutcome: frozenset({Stage.ON_DEPOSIT}),
    DepositRefunded: frozenset({Stage.CLOSED}),
    ReportedUnclaimed: frozenset({Stage.IMPOUNDED, Stage.DEEMED_UNCLAIMED}),
    NoticePosted: frozenset({Stage.REPORTED}),
    OwnerRefusedToPay: frozenset({Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED}),
    AuctionScheduled: frozenset({Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}),
    LotOffered: frozenset({Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}),
    DisposedOtherwise: frozenset({Stage.NOTICE_POSTED, Stage.SELLING}),
    SaleClosed: frozenset({Stage.SELLING}),
    SaleExpensesStated: frozenset({Stage.SELLING}),
    AccountDelivered: frozenset({Stage.ACCOUNT_DUE}),
    AccountRefused: frozenset({Stage.ACCOUNT_DUE}),
    DepositClaimed: frozenset({Stage.IN_DEPOSIT}),
    ClaimPreferred: frozenset({Stage.IN_DEPOSIT}),
    ClaimRejected: frozenset({Stage.IN_DEPOSIT}),
    CreditedToFund: frozenset({Stage.IN_DEPOSIT}),
    SeizureCorrected: OPEN_STAGES - {Stage.CLOSED},
    # Stages in which no money need have moved; the guard looks at the sales. (A case
    # deemed unclaimed has had its sale settled: money has moved, it cannot be voided.)
    CaseVoided: frozenset(
        {Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}
    ),
}

#: Steps that follow the s.13(2) notice (the auction, the sale, other disposal).
_AFTER_NOTICE = (AuctionScheduled, LotOffered, DisposedOtherwise)

#: Steps that follow the s.13(1) report of unclaimed cattle (the notice, the sale).
_AFTER_REPORT = (
    NoticePosted,
    AuctionScheduled,
    LotOffered,
    DisposedOtherwise,
    SaleExpensesStated,
    SaleClosed,
)

_PROVISION: dict[type[Event], str] = {
    Impounded: "s.7",
    SeizureCorrected: "s.7",
    CaseVoided: "s.7",
    ClaimedAndPaid: "s.12",
    DeliveredOnDeposit: "s.14",
    DepositOutcome: "s.19",
    DepositRefunded: "s.19",
    ReportedUnclaimed: "s.13(1)",
    NoticePosted: "s.13(2)",
    OwnerRefusedToPay: "s.15(1)",
    AuctionScheduled: "s.13(3)",
    LotOffered: "s.13(3)",
    DisposedOtherwise: "s.13(3) proviso",
    SaleClosed: "s.15(2)",
    SaleExpensesStated: "s.15(2)",
    AccountDelivered: "s.15(4)",
    AccountRefused: "s.15(5)",
    DepositClaimed: "s.16(3)",
    ClaimPreferred: "s.16(3)",
    ClaimRejected: "s.16(3)",
    CreditedToFund: "s.17(1)",
}


#: The steps of the sale taken under s.15(1) on the owner's route (the owner appeared and
#: refused or omitted to pay), under s.13(3) on the route of unclaimed cattle.
_ON_OWNERS_ROUTE: dict[type[Event], str] = {
    AuctionScheduled: "s.15(1)",
    LotOffered: "s.15(1)",
}


def provision_of(event: Event, owner_appeared: bool = False) -> str:
    """The provision under which an event happens; ``owner_appeared``: on the owner's
    route (s.15(1)), where the auction and its lots are that section's, not s.13(3)'s."""
    if owner_appeared and type(event) in _ON_OWNERS_ROUTE:
        return _ON_OWNERS_ROUTE[type(event)]
    return _PROVISION[type(event)]


T = TypeVar("T")

#: The most values a case keeps of what was made from it (``Case.kept``): a statement a
#: day, the replies rendered from it, its days.
KEPT_PER_CASE = 32


@dataclass(frozen=True, slots=True)
class Case:
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
        for event in events[1:]:
            if isinstance(event, SeizureCorrected) and case.stage in _ALLOWED[SeizureCorrected]:
                # Checked when recorded against every step before it, which the replay
                # checks itself: checking it again would make a long history quadratic.
                stage = Stage.REPORTED if event.supersedes_notice else case.stage  # s.13(2)
                case = replace(
                    case, seizure=event.seizure, stage=stage, events=(*case.events, event)
                )
                continue
            try:
                case = case._transition(event)
            except TransitionRefusedError:
                if case.stage is not Stage.DEEMED_UNCLAIMED:
                    raise
                # Recorded before s.15(5) sent the cattle of a refused account the s.13
                # way: the case was then held in deposit, and its later steps read so.
                case = replace(case, stage=Stage.IN_DEPOSIT)._transition(event)
        return case

    # -- facts derived from events --

    @property
    def last_event_on(self) -> date:
        return max(e.on for e in self.events)

    def first(self, kind: type[Event]) -> Event | None:
        return next((e for e in self.events if isinstance(e, kind)), None)

    def last(self, kind: type[Event]) -> Event | None:
        return next((e for e in reversed(self.events) if isinstance(e, kind)), None)

    def _in_round(self, kind: type[Event]) -> Event | None:
        """The last event of ``kind`` since the current round began (see the module doc)."""
        for event in reversed(self.events):
            if isinstance(event, kind):
                return event
            if isinstance(event, AccountRefused):
                return None
        return None

    @property
    def stage_since(self) -> date:
        """The day the case entered its present stage (the release, the deposit, the
        notice, the first head sold, the settlement, ...)."""
        since = self.events[0].on
        case = replace(self, stage=Stage.IMPOUNDED, events=self.events[:1])
        for event in self.events[1:]:
            stage = case._next_stage(event)
            if stage is not case.stage:
                since = event.on
            case = replace(case, stage=stage, events=(*case.events, event))
        return since

    @property
    def reported_on(self) -> date | None:
        event = self._in_round(ReportedUnclaimed)
        return event.on if event else None

    @property
    def notice(self) -> NoticePosted | None:
        """The s.13(2) notice of the current round, unless a correction of what it
        states has superseded it (a new one is then due)."""
        return self._standing(NoticePosted)  # type: ignore[return-value]

    def _standing(self, kind: type[Event]) -> Event | None:
        """The last event of ``kind`` in the round, unless a correction superseded the
        notice after it (the notice and the auction fixed on it no longer stand)."""
        for event in reversed(self.events):
            if isinstance(event, kind):
                return event
            if isinstance(event, AccountRefused) or (
                isinstance(event, SeizureCorrected) and event.supersedes_notice
            ):
                return None
        return None

    def _superseding_index(self) -> int | None:
        """Where in the events the correction that superseded the round's notice is,
        while no new notice has been posted."""
        if self.notice is not None:
            return None
        for index in range(len(self.events) - 1, -1, -1):
            event = self.events[index]
            if isinstance(event, AccountRefused):
                return None
            if isinstance(event, SeizureCorrected) and event.supersedes_notice:
                return index
        return None

    @property
    def superseding(self) -> SeizureCorrected | None:
        """The correction that superseded the round's notice, while no new one has been
        posted: the new notice is due from its day (s.13(2))."""
        index = self._superseding_index()
        event = self.events[index] if index is not None else None
        return event if isinstance(event, SeizureCorrected) else None

    @property
    def superseded_notice(self) -> NoticePosted | None:
        """The notice a correction superseded, while no new one has been posted."""
        index = self._superseding_index()
        if index is None:
            return None
        before = replace(self, events=self.events[:index])
        return before._in_round(NoticePosted)  # type: ignore[return-value]

    @property
    def cancelled_auction(self) -> AuctionScheduled | None:
        """The auction fixed on the notice a correction superseded: cancelled with it
        (s.13(3): the seven days run from the new notice); None when none was fixed."""
        index = self._superseding_index()
        if index is None:
            return None
        return replace(self, events=self.events[:index]).scheduled_auction

    @property
    def notice_offered_on(self) -> NoticePosted | None:
        """The notice that stood when cattle of the case were first offered (a lot
        offered, sold or not, or disposed of otherwise): the cattle went to the public
        as it described them (s.13(2), s.13(3)); None while none was."""
        for index, event in enumerate(self.events):
            if isinstance(event, LotOffered | DisposedOtherwise):
                standing = replace(self, events=self.events[:index]).notice
                if standing is not None:
                    return standing
        return None

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
        return _ON_OWNERS_ROUTE[LotOffered] if self.owner_appeared else _PROVISION[LotOffered]

    @property
    def deemed_unclaimed(self) -> bool:
        """True once the owner refused the account: cattle and proceeds are unclaimed (s.15(5))."""
        return self.first(AccountRefused) is not None

    @property
    def owner_appeared(self) -> bool:
        """True on the s.15 route: the owner appeared and refused or omitted to pay, and
        has not since refused the account (after which the s.13 route applies, s.15(5))."""
        return self.first(OwnerRefusedToPay) is not None and not self.deemed_unclaimed

    @property
    def scheduled_auction(self) -> AuctionScheduled | None:
        """The auction fixed in the round; one fixed on a notice since superseded by a
        correction is cancelled (s.13(3): the seven days run from the new notice)."""
        event = self._standing(AuctionScheduled)
        return event if isinstance(event, AuctionScheduled) else None

    def _deposits(self) -> list[tuple[date, Money]]:
        """(day, amount) of each balance that went into deposit under s.16(3): a balance
        of unclaimed cattle when the sale closed, an owner's balance when refused."""
        out: list[tuple[date, Money]] = []
        for index, event in enumerate(self.events):
            if not isinstance(event, SaleClosed) or event.to_owner_or_deposit.paise <= 0:
                continue
            if not event.owner_appeared:
                out.append((event.on, event.to_owner_or_deposit))
                continue
            refused = next(
                (e for e in self.events[index + 1 :] if isinstance(e, AccountRefused)), None
            )
            if refused is not None:
                out.append((refused.on, event.to_owner_or_deposit))
        return out

    @property
    def deposit_total(self) -> Money:
        """All the surplus of the case that went into deposit (s.16(3), s.15(5))."""
        return Money(sum(amount.paise for _, amount in self._deposits()))

    @property
    def expected_expenses(self) -> Money:
        """The expenses of sale last stated: when the auction was fixed, or at a
        settlement that found them higher (s.15(2)); nothing if none was stated."""
        for event in reversed(self.events):
            if isinstance(event, SaleExpensesStated):
                return event.expenses
            if isinstance(event, AuctionScheduled) and event.expected_expenses is not None:
                return event.expected_expenses
        return Money.zero()

    @property
    def deposited_on(self) -> date | None:
        """Day the (last part of the) surplus went into deposit under s.16(3), if any.

        When a refused account leaves cattle to be sold as unclaimed (s.15(5)), the
        three months run from the second settlement: a declared policy that never
        shortens the time to claim any part of the deposit.
        """
        deposits = self._deposits()
        if not deposits or self.stage not in (Stage.IN_DEPOSIT, Stage.CLOSED):
            return None  # none yet, or the rest of the cattle still to be sold (s.15(5))
        return max(on for on, _ in deposits)

    @property
    def pending_claims(self) -> tuple[ClaimPreferred, ...]:
        """The claims to the deposit preferred and neither established nor rejected,
        in the order entered (s.16(3): each is decided on its own)."""
        pending: list[ClaimPreferred] = []
        for event in self.events:
            if isinstance(event, ClaimPreferred):
                pending.append(event)
            elif isinstance(event, ClaimRejected | DepositClaimed):
                decided = _claim_of(pending, event.claimant)
                if decided is not None:
                    pending.remove(decided)
                elif isinstance(event, ClaimRejected) and len(pending) == 1:
                    pending.clear()  # recorded before a rejection named its claimant
        return tuple(pending)

    @property
    def pending_claim(self) -> ClaimPreferred | None:
        """The first claim to the deposit still pending, if any."""
        pending = self.pending_claims
        return pending[0] if pending else None

    def disposed_heads(self, lot: int) -> int:
        """Heads of lot ``lot`` sold or otherwise disposed of so far."""
        return sum(
            e.count
            for e in self.events
            if ((isinstance(e, LotOffered) and e.sold) or isinstance(e, DisposedOtherwise))
            and e.lot == lot
        )

    def remaining_heads(self, lot: int) -> int:
        return self.seizure.lots[lot].count - self.disposed_heads(lot)

    @property
    def heads_remaining(self) -> int:
        return sum(self.remaining_heads(i) for i in range(len(self.seizure.lots)))

    @property
    def lots_remaining(self) -> tuple[Lot, ...]:
        """The lots of the seizure cut to the heads not sold or disposed of, a lot with
        none left out: the cattle a notice of the round states (s.13(2)(a)) and a
        payment takes back (s.12)."""
        return tuple(
            replace(lot, count=self.remaining_heads(index))
            for index, lot in enumerate(self.seizure.lots)
            if self.remaining_heads(index)
        )

    @property
    def sale_outcome(self) -> str | None:
        """``sold``, ``partly_sold``, ``disposed_otherwise`` or, when every head has gone
        and some were sold (s.13(3), s.15(1)) and some disposed of by the Director's order
        (s.13(3) proviso), ``sold_and_disposed`` once lots have gone."""
        sold = any(isinstance(e, LotOffered) and e.sold for e in self.events)
        other = any(isinstance(e, DisposedOtherwise) for e in self.events)
        if not sold and not other:
            return None
        if self.heads_remaining:
            return "partly_sold"
        if sold and other:
            return "sold_and_disposed"
        return "sold" if sold else "disposed_otherwise"

    @property
    def proceeds(self) -> Money:
        """Proceeds of sale and of other disposal so far (s.15(3)(e))."""
        paise = 0
        for e in self.events:
            if isinstance(e, LotOffered) and e.price is not None:
                paise += e.price.paise
            elif isinstance(e, DisposedOtherwise):
                paise += e.proceeds.paise
        return Money(paise)

    # -- transitions --

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
        after = self._transition(event)
        if isinstance(event, SaleClosed):
            # Checked on a new step only: a settlement recorded before this rule still
            # replays (its money was posted).
            self._guard_something_sold()
        return after

    @cites("s.7", "s.12", "s.13(1)", "s.13(3)", "s.15(1)", "s.16(3)")
    def lawful_today(self, step: type[Event], today: date) -> bool:
        """Whether a step of kind ``step`` may be recorded today, as far as the case alone
        tells (a step's own facts are checked when it is taken): its stage accepts it and
        no day the Act sets for it is still ahead. The s.13(1) report from the day after
        the seven days (s.13(1)); a sale, or the record of a lot left unsold, on or after
        the day fixed for the auction (s.13(3), s.15(1)); other disposal by order after
        the seven days from the notice (s.13(3) proviso); the fund after the three months
        of the deposit (s.16(3)); payment while no head is sold, after a refused account
        while no head of its round is sold (s.12, s.15(5)); deposit while no head is sold,
        the ten days of s.19 run and the account was not refused (s.14, s.19); voiding
        while no money has moved (s.7)."""
        if self.stage not in _ALLOWED.get(step, frozenset()):
            return False
        if self.stage is Stage.REPORTED and step in _AFTER_NOTICE:
            return False  # the notice comes first (s.13(2))
        if step is ReportedUnclaimed:
            return today >= report_due_on(self.seizure.impounded_on)
        if step is LotOffered:
            fixed = self.scheduled_auction
            return fixed is not None and today >= fixed.auction_on
        if step is DisposedOtherwise:
            notice = self.notice
            return (
                self._on_s13_route()
                and notice is not None
                and today >= auction_allowed_from(notice.on)
            )
        if step is CreditedToFund:
            deposited = self.deposited_on
            return deposited is not None and today >= fund_credit_from(deposited)
        if step in (ClaimedAndPaid, DeliveredOnDeposit, OwnerRefusedToPay):
            if step is ClaimedAndPaid and self.stage is Stage.ACCOUNT_DUE:
                return False  # only in the step that settles the proceeds (s.12, s.15(2))
            if step is ClaimedAndPaid and self.pays_rest_after_part_sale:
                return True  # what remains owed after the proceeds (s.12, s.15(1))
            try:
                self._guard_owner_takes_back(step, today)
            except TransitionRefusedError:
                return False
        if step is CaseVoided:
            return self._money_step() is None
        return True

    def _transition(self, event: Event) -> Case:
        provision = provision_of(event, self.owner_appeared)
        allowed = _ALLOWED.get(type(event), frozenset())
        if self.stage is Stage.DEEMED_UNCLAIMED and isinstance(event, _AFTER_REPORT):
            self._report_first()
        if self.stage is Stage.REPORTED and isinstance(event, _AFTER_NOTICE):
            self.require_notice_standing()
        if isinstance(event, SeizureCorrected) and self.stage in (Stage.CLOSED, Stage.RELEASED):
            self._guard_notice_kept(event)  # a case past correcting says why, if this is why
        if (
            isinstance(event, SeizureCorrected)
            and self.stage is Stage.NOTICE_POSTED
            and not event.supersedes_notice
            and notice_facts(event.seizure) != notice_facts(self.seizure)
        ):
            event = replace(event, supersedes_notice=True)
        if self.stage not in allowed:
            raise TransitionRefusedError(
                f"{type(event).__name__} is not allowed when the case is {self.stage.value}",
                provision,
                reason="stage",
                facts={
                    "stage": self.stage.value,
                    "date": self.stage_since,
                    "sale": self.sale_provision,
                },
            )
        self._guard(event)
        stage = self._next_stage(event)
        seizure = event.seizure if isinstance(event, SeizureCorrected) else self.seizure
        return replace(self, seizure=seizure, stage=stage, events=(*self.events, event))

    def _guard(self, event: Event) -> None:
        """Date and quantity rules a transition must meet."""
        if isinstance(event, ClaimedAndPaid) and self.stage is Stage.ACCOUNT_DUE:
            self._guard_payment_after_part_sale()
        elif isinstance(event, ClaimedAndPaid | DeliveredOnDeposit | OwnerRefusedToPay):
            self._guard_owner_takes_back(type(event), event.on)
        elif isinstance(event, ClaimPreferred | ClaimRejected | CreditedToFund):
            self._guard_deposit_claim(event)
        elif isinstance(event, NoticePosted):
            self._guard_proclamation(event)
        elif isinstance(event, DepositOutcome) and not event.reference.strip():
            raise InvalidCaseError("the outcome needs the reference of the order", "s.19")
        elif isinstance(event, DepositRefunded):
            self._guard_refund()
        if isinstance(event, ReportedUnclaimed):
            self._guard_report(event)
        elif isinstance(event, LotOffered | DisposedOtherwise):
            self._guard_sale(event)
        elif isinstance(event, AuctionScheduled):
            if self.stage is Stage.NOTICE_POSTED or self._on_s13_route():
                self._guard_s13_3_date(event.auction_on)
            if event.auction_on < event.on:
                raise BackwardsDateError(
                    "an auction cannot be fixed for a day before the day it is fixed",
                    "s.15(1)" if self.owner_appeared else "s.13(3)",
                    reason="auction_before_fixing",
                    facts={"date": event.on},
                )
            if event.expected_expenses is not None and event.expected_expenses.is_negative:
                raise InvalidCaseError("expenses cannot be negative", "s.15(2)")
        elif isinstance(event, SaleExpensesStated):
            if event.expenses.is_negative:
                raise InvalidCaseError("expenses cannot be negative", "s.15(2)")
        elif isinstance(event, SeizureCorrected):
            self._guard_correction(event)
        elif isinstance(event, CaseVoided):
            if not event.reason.strip():
                raise InvalidCaseError("voiding a case needs a reason", "s.7")
            moved = self._money_step()
            if moved is not None:
                raise VoidRefusedError(
                    "money has moved on this case; it cannot be voided", provision_of(moved)
                )
        elif isinstance(event, SaleClosed):
            if self._on_s13_route() and self.heads_remaining:
                raise TransitionRefusedError(
                    f"{self.heads_remaining} head still unsold: unclaimed cattle are all "
                    "sold or disposed of",
                    "s.13(3)",
                    reason="heads_unsold",
                    facts={"count": self.heads_remaining},
                )
        elif isinstance(event, CreditedToFund):
            deposited = self.deposited_on
            assert deposited is not None
            if event.on < fund_credit_from(deposited):
                raise TooEarlyError(
                    "the deposit may be credited to the fund only after three months "
                    f"(after {deposit_window_end(deposited).isoformat()})",
                    "s.16(3)",
                    lawful_from=fund_credit_from(deposited),
                )
        elif isinstance(event, DepositClaimed):
            deposited = self.deposited_on
            assert deposited is not None
            others = [
                c for c in self.pending_claims if not same_claimant(c.claimant, event.claimant)
            ]
            if others:
                names = ", ".join(c.claimant for c in others)
                raise TransitionRefusedError(
                    f"the claims of {names} are pending too: reject them before the "
                    f"deposit is paid to {event.claimant}",
                    "s.16(3)",
                    reason="other_claims_pending",
                    facts={"names": names[:120]},
                )
            if event.preferred_on < deposited:
                raise TooEarlyError(
                    "a claim must be preferred within three months of the deposit",
                    "s.16(3)",
                    reason="before_deposit",
                    facts={"date": deposited},
                )
            if event.preferred_on > deposit_window_end(deposited):
                raise TransitionRefusedError(
                    "a claim must be preferred within three months of the deposit; they "
                    f"ended on {deposit_window_end(deposited).isoformat()}",
                    "s.16(3)",
                    reason="claim_time_over",
                    facts={"date": deposit_window_end(deposited)},
                )
            if event.preferred_on > event.on:
                raise InvalidCaseError(
                    "a claim is established after it is preferred",
                    "s.16(3)",
                    reason="established_before_preferred",
                    facts={"date": event.preferred_on},
                )

    @cites("s.7")
    def void(self, reason: str, on: date, today: date) -> Case:
        """The case voided as entered by mistake (a wrong s.7 record), while no money has
        moved; once it has, the step that moved it is named in the refusal."""
        moved = self._money_step()
        if moved is not None:
            raise VoidRefusedError(
                "money has moved on this case; it cannot be voided", provision_of(moved)
            )
        return self.apply(CaseVoided(on=on, reason=reason), today)

    def _money_step(self) -> Event | None:
        """The first step that moved money (a payment, deposit, sale or settlement)."""
        return next(
            (
                e
                for e in self.events
                if isinstance(e, ClaimedAndPaid | DeliveredOnDeposit | SaleClosed)
                or (isinstance(e, LotOffered) and e.sold)
                or isinstance(e, DisposedOtherwise)
            ),
            None,
        )

    @cites("s.7")
    def _guard_correction(self, event: SeizureCorrected) -> None:
        """A correction of the s.7 record is refused when it would make a step already
        recorded unlawful: every later step is checked again against the corrected facts
        (the s.13(1) report day, the lots sold), none may fall before the corrected day
        brought, and the amounts paid stand on the kinds, counts and day they were
        counted on."""
        if not event.reason.strip():
            raise InvalidCaseError("a correction needs a reason", "s.7")
        corrected = event.seizure
        if corrected.impounded_on > event.on:
            raise FutureDateError("the cattle cannot be brought in after today", "s.7")
        moved = self._money_step()
        counted = [(lot.kind, lot.count) for lot in self.seizure.lots]
        if moved is not None and (
            corrected.impounded_on != self.seizure.impounded_on
            or [(lot.kind, lot.count) for lot in corrected.lots] != counted
        ):
            raise CorrectionRefusedError(
                "the money was counted on the kinds, counts and day recorded; they can no "
                "longer be corrected",
                provision_of(moved),
            )
        self._guard_notice_kept(event)
        deposit = self.first(DeliveredOnDeposit)
        if deposit is not None and deposit.on > period_end(corrected.seizure_day, 10):
            raise CorrectionRefusedError(
                f"the deposit of {deposit.on.isoformat()} would fall after the ten days from "
                "the seizure",
                "s.19",
            )
        check = replace(self, seizure=corrected, stage=Stage.IMPOUNDED, events=self.events[:1])
        for later in self.events[1:]:
            if isinstance(later, SeizureCorrected):
                if later.supersedes_notice:  # the notice it superseded is posted again
                    check = replace(check, stage=Stage.REPORTED, events=(*check.events, later))
                continue
            if later.on < corrected.impounded_on:
                raise CorrectionRefusedError(
                    f"the step of {later.on.isoformat()} would come before the cattle were "
                    "brought in",
                    provision_of(later),
                )
            try:
                check = check._transition(later)
            except DomainError as exc:
                raise CorrectionRefusedError(
                    f"the step of {later.on.isoformat()} would become unlawful: {exc}",
                    exc.provision or provision_of(later),
                ) from exc

    @cites("s.13(2)", "s.13(3)")
    def _guard_notice_kept(self, event: SeizureCorrected) -> None:
        """What a posted notice stated (s.13(2): the number and description of the
        cattle, the place seized, the place impounded) is what the cattle were offered to
        the public on: once a lot was offered on it, sold or not, or disposed of
        otherwise, it is refused at every later stage (selling, settled, in deposit,
        closed). Before that, a correction of it supersedes the notice (``_transition``).
        The other facts of the s.7 record stay correctable as ``_guard_correction`` says."""
        if notice_facts(event.seizure) == notice_facts(self.seizure):
            return
        offered = self.notice_offered_on
        if offered is not None:
            raise CorrectionRefusedError(
                f"the cattle were offered on the notice of {offered.on.isoformat()}: what it "
                "states can no longer be corrected",
                "s.13(2)",
                reason="notice_offered",
                facts={"date": offered.on},
            )

    @cites("s.15(1)", "s.15(2)", "s.13(3)")
    def _guard_something_sold(self) -> None:
        """A sale is settled from its proceeds (s.15(2)): with no head of the round sold
        or otherwise disposed of there is nothing to settle. On the owner's route the
        cattle stay in the pound until enough are sold or the dues are paid (s.15(1),
        s.12); a settlement of nothing would hand them back unpaid."""
        for event in reversed(self.events):
            if isinstance(event, SaleClosed | AccountRefused):
                break
            if (isinstance(event, LotOffered) and event.sold) or isinstance(
                event, DisposedOtherwise
            ):
                return
        raise TransitionRefusedError(
            "no head has been sold or disposed of: there is no sale to settle",
            "s.15(1)" if self.owner_appeared else "s.13(3)",
            reason="nothing_sold",
        )

    @cites("s.19", "s.14")
    def _guard_refund(self) -> None:
        """A refund is recorded once, and only of a deposit ordered refunded (the seizure
        found illegal, s.19)."""
        outcome = self.last(DepositOutcome)
        if not isinstance(outcome, DepositOutcome) or not outcome.returned:
            raise TransitionRefusedError(
                "no refund of a deposit was ordered in this case", "s.19", reason="no_refund"
            )
        done = self.last(DepositRefunded)
        if done is not None:
            raise TransitionRefusedError(
                f"the deposit was refunded on {done.on.isoformat()}",
                "s.19",
                reason="already_refunded",
                facts={"date": done.on},
            )

    @property
    def refunded_on(self) -> date | None:
        """The day the deposit ordered refunded was paid back to the owner, if recorded."""
        done = self.last(DepositRefunded)
        return done.on if done is not None else None

    @cites("s.13(2)", "s.13(3)")
    def require_notice_standing(self) -> None:
        """After a correction of what the notice stated, the old notice no longer stands:
        no auction, sale or disposal until the new notice is posted (s.13(2)), and the
        s.13(3) seven days run from it."""
        old = self.superseded_notice
        if old is None:
            return  # reported, no notice yet: the stage refusal says so
        corrected = next(e for e in reversed(self.events) if isinstance(e, SeizureCorrected))
        raise TransitionRefusedError(
            "the notice no longer states the corrected facts: post a new notice first",
            "s.13(2)",
            reason="notice_superseded",
            facts={"date": old.on, "corrected": corrected.on},
        )

    @cites("s.15(5)", "s.13(1)")
    def _report_first(self) -> None:
        """s.15(5): cattle of a refused account are "deemed to be unclaimed and disposed of
        according to the provisions of this Act": the s.13(1) report comes first, then
        the notice and the sale."""
        raise TransitionRefusedError(
            "the cattle are deemed unclaimed: the keeper's report comes first",
            "s.13(1)",
            reason="report_first",
            facts={"date": report_due(self)},
        )

    def _guard_owner_takes_back(self, step: type[Event], day: date) -> None:
        """Whether the owner may still pay (s.12), deposit (s.14) or refuse (s.15(1)) on
        ``day``: the rule by route and round (docs/the-act.md)."""
        if self.deemed_unclaimed:
            if step is ClaimedAndPaid:
                self._guard_payment_after_refused_account()
                return
            raise TransitionRefusedError(
                "the owner refused the account: the cattle are deemed unclaimed", "s.15(5)"
            )
        if step is DeliveredOnDeposit:
            self._guard_deposit_window(day)
        self._guard_payment_before_sale()

    @cites("s.14", "s.19")
    def _guard_deposit_window(self, day: date) -> None:
        """s.14 delivers the cattle on deposit to an owner who "is about to make a
        complaint under section 19": while the ten days of s.19 run (and, as a payment,
        until a head is sold), also after a refusal to pay; after them it is refused."""
        last = self.complaint_by
        if day > last:
            raise TransitionRefusedError(
                f"the time to complain ended on {last.isoformat()}",
                "s.19",
                reason="complaint_time_over",
                facts={"date": last},
            )

    @property
    @cites("s.19", "GCA s.8")
    def complaint_by(self) -> date:
        """The last day to complain of the seizure: ten days from the day of seizure,
        that day excluded (s.19; as ``domain.s14_deposit.complaint_last_day``)."""
        return period_end(self.seizure.seizure_day, 10)

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

    @cites("s.12", "s.15(1)", "s.15(2)", "s.15(3)")
    def _guard_payment_after_part_sale(self) -> None:
        """s.15(1) sells only "as many as may be necessary"; until the proceeds meet the
        dues the owner may take the rest by paying what remains (s.12). That payment comes
        in the step that settles the proceeds (s.15(2)): right after the owner's
        settlement that left nothing to the owner, while heads remain. Any other payment
        after a settlement is refused: the account is due (s.15(3))."""
        last = self.events[-1]
        if (
            isinstance(last, SaleClosed)
            and last.owner_appeared
            and not last.to_owner_or_deposit
            and self.heads_remaining > 0
        ):
            return
        raise TransitionRefusedError(
            f"ClaimedAndPaid is not allowed when the case is {self.stage.value}",
            "s.12",
            reason="stage",
            facts={
                "stage": self.stage.value,
                "date": self.stage_since,
                "sale": self.sale_provision,
            },
        )

    @cites("s.13(2)")
    def _guard_proclamation(self, event: NoticePosted) -> None:
        """s.13(2): proclamation "by beat of drum in the village and in the market place
        nearest to the place of seizure": both places, one is not enough."""
        places = [p for p in event.proclaimed_at if p.strip()]
        if len(places) < 2:
            raise InvalidCaseError(
                "the proclamation is made in the village and in the market place nearest "
                "to the place of seizure: name both",
                "s.13(2)",
            )

    def _guard_deposit_claim(self, event: ClaimPreferred | ClaimRejected | CreditedToFund) -> None:
        """s.16(3): any claim preferred within three months holds the deposit until it is
        established or rejected, each on its own; nothing goes to the fund while one is
        pending."""
        pending = self.pending_claims
        names = ", ".join(c.claimant for c in pending)
        deposited = self.deposited_on
        if isinstance(event, ClaimPreferred):
            if not event.claimant.strip():
                raise InvalidCaseError("a claim needs the claimant's name", "s.16(3)")
            same = _claim_of(list(pending), event.claimant)
            if same is not None:
                raise TransitionRefusedError(
                    f"the claim of {same.claimant} preferred on {same.preferred.isoformat()} "
                    "is already pending",
                    "s.16(3)",
                    reason="claim_already_pending",
                    facts={"name": same.claimant[:60], "date": same.preferred},
                )
            if deposited is not None and event.preferred > deposit_window_end(deposited):
                raise TransitionRefusedError(
                    "a claim must be preferred within three months of the deposit; they "
                    f"ended on {deposit_window_end(deposited).isoformat()}",
                    "s.16(3)",
                    reason="claim_time_over",
                    facts={"date": deposit_window_end(deposited)},
                )
            if deposited is not None and event.preferred < deposited:
                raise TooEarlyError(
                    "a claim is preferred to a deposit once it is made",
                    "s.16(3)",
                    reason="before_deposit",
                    facts={"date": deposited},
                )
            if event.preferred > event.on:
                raise FutureDateError("a claim is entered after it is preferred", "s.16(3)")
        elif isinstance(event, ClaimRejected):
            if not pending:
                raise TransitionRefusedError(
                    "no claim to the deposit is pending", "s.16(3)", reason="no_claim_pending"
                )
            if not event.reference.strip():
                raise InvalidCaseError("a rejection needs its reference", "s.16(3)")
            if _claim_of(list(pending), event.claimant) is None:
                raise TransitionRefusedError(
                    f"say whose claim is rejected: pending are those of {names}",
                    "s.16(3)",
                    reason="which_claim",
                    facts={"names": names[:120]},
                )
        elif pending:
            raise TransitionRefusedError(
                f"the claims of {names} are pending: the deposit goes to the fund only once "
                "each is decided",
                "s.16(3)",
                reason="claims_pending",
                facts={"names": names[:120]},
            )

    def _guard_report(self, event: ReportedUnclaimed) -> None:
        due = report_due_on(self.seizure.impounded_on)
        if event.on < due:
            raise TooEarlyError(
                f"cattle are unclaimed only after seven days; report from {due.isoformat()}",
                "s.13(1)",
                lawful_from=due,
            )

    def _on_s13_route(self) -> bool:
        return self.notice is not None and not self.owner_appeared

    def _guard_s13_3_date(self, day: date) -> None:
        notice = self.notice
        if notice is None:
            raise TransitionRefusedError("no notice has been posted", "s.13(2)", reason="no_notice")
        first_day = auction_allowed_from(notice.on)
        if day < first_day:
            raise TooEarlyError(
                f"the auction is lawful from {first_day.isoformat()}, seven days after the notice",
                "s.13(3)",
                lawful_from=first_day,
            )

    def _guard_sale(self, event: LotOffered | DisposedOtherwise) -> None:
        if self._on_s13_route():
            self._guard_s13_3_date(event.on)
        elif isinstance(event, DisposedOtherwise):
            raise TransitionRefusedError(
                "other disposal is for unclaimed cattle under the proviso", "s.13(3) proviso"
            )
        if not 0 <= event.lot < len(self.seizure.lots):
            raise InvalidCaseError(
                f"no lot {event.lot + 1} in this case",
                "s.13(3)",
                reason="no_lot",
                facts={"lot": event.lot + 1, "count": len(self.seizure.lots)},
            )
        if event.count < 1 or event.count > self.remaining_heads(event.lot):
            raise InvalidCaseError(
                f"lot {event.lot + 1} has {self.remaining_heads(event.lot)} head left",
                "s.13(3)",
                reason="heads_left",
                facts={"lot": event.lot + 1, "count": self.remaining_heads(event.lot)},
            )
        if isinstance(event, LotOffered) and event.sold:
            if event.price is None or event.price.paise <= 0:
                raise InvalidCaseError("a sale needs a price", "s.13(3)")
            if event.buyer is None or not event.buyer.name.strip():
                raise InvalidCaseError("a sale needs the buyer's name", "s.18")
            if not event.buyer_declared_not_barred:
                raise BarredBuyerError(
                    "the buyer must declare that they are not barred from buying", "s.18"
                )
        if isinstance(event, DisposedOtherwise) and not (
            event.ordered_by.strip() and event.order_reference.strip()
        ):
            raise InvalidCaseError(
                "other disposal needs who ordered it and the order's reference",
                "s.13(3) proviso",
            )
        if isinstance(event, DisposedOtherwise) and event.proceeds.is_negative:
            raise InvalidCaseError(
                "the proceeds of other disposal cannot be negative", "s.13(3) proviso"
            )

    def _next_stage(self, event: Event) -> Stage:
        match event:
            case ClaimedAndPaid():
                # After a refused account the first sale's balance stays in deposit until
                # claimed (s.16(3)); the cattle go back on payment (s.12).
                return Stage.IN_DEPOSIT if self.deposit_total.paise > 0 else Stage.RELEASED
            case DeliveredOnDeposit():
                return Stage.ON_DEPOSIT
            case DepositOutcome() | DepositRefunded():
                return Stage.CLOSED
            case ReportedUnclaimed():
                return Stage.REPORTED
            case NoticePosted():
                return Stage.NOTICE_POSTED
            case OwnerRefusedToPay():
                return Stage.OWNER_REFUSED
            case AuctionScheduled() | SaleExpensesStated():
                return self.stage
            case LotOffered() | DisposedOtherwise():
                return Stage.SELLING
            case SaleClosed(owner_appeared=True):
                return Stage.ACCOUNT_DUE
            case SaleClosed(to_owner_or_deposit=balance):
                held = self.deposit_total + balance  # with a deposit of an earlier round
                return Stage.IN_DEPOSIT if held.paise > 0 else Stage.CLOSED
            case AccountDelivered():
                return Stage.CLOSED
            case AccountRefused():
                if self.heads_remaining:
                    return Stage.DEEMED_UNCLAIMED
                balance = self._closing_balance()
                return Stage.IN_DEPOSIT if balance.paise > 0 else Stage.CLOSED
            case DepositClaimed() | CreditedToFund():
                return Stage.CLOSED
            case ClaimPreferred() | ClaimRejected():
                return self.stage
            case SeizureCorrected(supersedes_notice=True):
                return Stage.REPORTED  # s.13(2): the notice is to be posted again
            case SeizureCorrected():
                return self.stage
            case CaseVoided():
                return Stage.VOIDED
        raise TransitionRefusedError(f"unknown event {type(event).__name__}")

    def _closing_balance(self) -> Money:
        closed = self.last(SaleClosed)
        return closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()
