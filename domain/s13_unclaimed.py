"""s.13: cattle not claimed. The keeper's report (s.13(1)), the notice and its
proclamation (s.13(2)), and the public auction (s.13(3)); the other disposal the
Director may order is in ``domain.s13_3_proviso``.

s.13(1): cattle "not claimed within seven days from the date of their being impounded"
are reported to the local authority; s.13(2): the local authority then affixes the
notice and has it proclaimed. A notice says the cattle "have not been claimed within
seven days": before the eighth day that is false, and once the cattle have left the
pound (released, delivered on deposit, sold, settled) there is nothing to give notice
of. A notice already posted may be printed again while its sale is under way.

Why it is long: the whole of s.13 in one place: the days of s.13(1) and s.13(3), what a
notice states and where it is proclaimed, what a case's events say of the round's
report, notice and auction, and the four steps of the section with their guards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import TypeVar

from domain.calendar import day_after_period
from domain.deadline import Deadline, DeadlineKind, Role
from domain.errors import (
    BackwardsDateError,
    BarredBuyerError,
    InvalidCaseError,
    TooEarlyError,
    TransitionRefusedError,
)
from domain.events import (
    AccountRefused,
    AuctionScheduled,
    DisposedOtherwise,
    Event,
    LotOffered,
    NoticePosted,
    ReportedUnclaimed,
    SeizureCorrected,
)
from domain.provisions import cites
from domain.s07_seizure import Seizure
from domain.stages import CaseFacts, Folded, Stage
from domain.step import Case, Step

__all__ = [
    "AUCTION",
    "LOT",
    "NOTICE",
    "REPORT",
    "NoticeFacts",
    "auction_allowed_from",
    "check_notice_printable",
    "check_s13_3_day",
    "check_sale",
    "head_gone",
    "notice_facts",
    "on_unclaimed_route",
    "proclamation_places",
    "report_due",
    "report_due_on",
    "report_first",
    "require_notice_standing",
    "village_and_market",
]

_E = TypeVar("_E", bound=Event)

#: Unclaimed cattle in the pound, before or after the report and the notice.
_NOTICE_STAGES = frozenset({Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED})


@cites("s.13(1)", "s.13(2)")
def check_notice_printable(case: CaseFacts, today: date) -> None:
    """Refuse the s.13(2) notice of cattle not yet unclaimed seven days (giving the
    first day it may be given), or of a case whose cattle left the pound or are
    being sold on the owner's refusal (giving where the case stands, since when)."""
    notice_reprint = case.stage is Stage.SELLING and case.notice is not None
    if case.stage not in _NOTICE_STAGES and not notice_reprint:
        raise TransitionRefusedError(
            f"no notice for a case that is {case.stage.value}",
            "s.13(2)",
            reason="stage",
            facts={"stage": case.stage.value, "date": case.stage_since},
        )
    due = report_due_on(case.seizure.impounded_on)
    if today < due:
        raise TooEarlyError(
            f"cattle are unclaimed only after seven days; notice from {due.isoformat()}",
            "s.13(1)",
            lawful_from=due,
        )


@cites("s.13(2)")
def notice_facts(seizure: Seizure) -> tuple[object, ...]:
    """What a s.13(2) notice states of a seizure: (a) the number and description of the
    cattle, (b) the place where they were seized, (c) the place impounded (the pound)."""
    lots = tuple((lot.kind, lot.count, lot.description.strip()) for lot in seizure.lots)
    return (lots, seizure.place_seized.strip(), seizure.pound)


@cites("s.13(1)", "GCA s.8")
def report_due_on(impounded_on: date) -> date:
    """Day on which an unclaimed impounding must be reported.

    s.13(1): "If the cattle be not claimed within seven days from the date of their
    being impounded, the pound-keeper shall report the fact ..." A period "from" a
    date excludes it, so the seven days end on impounded_on + 7 and the report is
    due the day after (impounded 1 March -> due 9 March).
    """
    return day_after_period(impounded_on, 7)


@cites("s.13(1)", "s.15(5)")
def report_due(case: CaseFacts) -> date:
    """The day the keeper's report of the case's unclaimed cattle is due: seven days from
    impounding (s.13(1)); for the cattle deemed unclaimed when the owner refused the
    account (s.15(5)), not before the day of the refusal."""
    due = report_due_on(case.seizure.impounded_on)
    refused = case.last(AccountRefused)
    return due if refused is None else max(due, refused.on)


@cites("s.13(3)", "GCA s.8")
def auction_allowed_from(notice_on: date) -> date:
    """First day the cattle may be sold by public auction after the notice.

    s.13(3): "If the cattle be not claimed within seven days from the date of the
    notice, they shall be sold by public auction ..." (notice 10 March -> 18 March).
    """
    return day_after_period(notice_on, 7)


def _words(place: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", place.casefold()) if w]


def _same_place(a: str, b: str) -> bool:
    """Two spellings of a place, ignoring case and punctuation."""
    return " ".join(_words(a)) == " ".join(_words(b))


@cites("s.13(2)")
def village_and_market(
    place_seized: str, markets: Sequence[Mapping[str, str]], default: tuple[str, str]
) -> tuple[str, str]:
    """s.13(2): the village and "the market place nearest to the place of seizure": of
    the village the place of seizure names, when a list of ``markets`` (village -> its
    market place; the pound's list first, then the authority's) has it (the longest name
    that matches, the first list that has one); else ``default`` (the authority's
    village and market place)."""
    seized = _words(place_seized)
    for listed in markets:
        best: tuple[int, str, str] | None = None
        for village, market in listed.items():
            words = _words(village)
            n = len(words)
            found = n > 0 and any(seized[i : i + n] == words for i in range(len(seized) - n + 1))
            if found and (best is None or n > best[0]):
                best = (n, village, market)
        if best is not None:
            return best[1], best[2]
    return default


@cites("s.13(2)")
def proclamation_places(given: tuple[str, ...], village: str, market_place: str) -> tuple[str, ...]:
    """s.13(2): the beat of drum is "in the village and in the market place nearest to
    the place of seizure": both, whatever the officer named; the ``village`` and
    ``market_place`` of the place of seizure (``village_and_market``) stand for the one
    not named. One place named is the village, unless it is that market place."""
    named = tuple(p for p in (g.strip() for g in given) if p)
    if named and _same_place(", ".join(named), market_place):
        named = (market_place,)  # the configured name may itself hold a comma
    if len(named) >= 2:
        return named
    if not named:
        return tuple(p for p in (village, market_place) if p.strip())
    if _same_place(named[0], market_place):
        return tuple(p for p in (village, named[0]) if p.strip())
    return tuple(p for p in (named[0], market_place) if p.strip())


@cites("s.13(3)", "s.15(1)", "s.13(3) proviso")
def head_gone(event: Event) -> bool:
    """Whether ``event`` parted with a head: a lot sold (s.13(3), s.15(1)) or disposed of
    by order (s.13(3) proviso)."""
    return (isinstance(event, LotOffered) and event.sold) or isinstance(event, DisposedOtherwise)


# --- what a case's events say of the round's report, notice and auction ------------


def _in_round(events: tuple[Event, ...], kind: type[_E]) -> _E | None:
    """The last event of ``kind`` since the current round began: a round starts at the
    impounding and again at a refused account (s.15(5))."""
    for event in reversed(events):
        if isinstance(event, kind):
            return event
        if isinstance(event, AccountRefused):
            return None
    return None


def _standing(events: tuple[Event, ...], kind: type[_E]) -> _E | None:
    """The last event of ``kind`` in the round, unless a correction superseded the
    notice after it (the notice and the auction fixed on it no longer stand)."""
    for event in reversed(events):
        if isinstance(event, kind):
            return event
        if isinstance(event, AccountRefused) or (
            isinstance(event, SeizureCorrected) and event.supersedes_notice
        ):
            return None
    return None


def _superseding_index(events: tuple[Event, ...]) -> int | None:
    """Where in the events the correction that superseded the round's notice is, while
    no new notice has been posted."""
    if _standing(events, NoticePosted) is not None:
        return None
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if isinstance(event, AccountRefused):
            return None
        if isinstance(event, SeizureCorrected) and event.supersedes_notice:
            return index
    return None


class NoticeFacts:
    """What a case's events say of the round's s.13(1) report, s.13(2) notice and
    s.13(3) auction (``domain.case.Case`` reads them so)."""

    __slots__ = ()

    @property
    def reported_on(self: Folded) -> date | None:
        event = _in_round(self.events, ReportedUnclaimed)
        return event.on if event else None

    @property
    def notice(self: Folded) -> NoticePosted | None:
        """The s.13(2) notice of the current round, unless a correction of what it
        states has superseded it (a new one is then due)."""
        return _standing(self.events, NoticePosted)

    @property
    def superseding(self: Folded) -> SeizureCorrected | None:
        """The correction that superseded the round's notice, while no new one has been
        posted: the new notice is due from its day (s.13(2))."""
        index = _superseding_index(self.events)
        event = self.events[index] if index is not None else None
        return event if isinstance(event, SeizureCorrected) else None

    @property
    def superseded_notice(self: Folded) -> NoticePosted | None:
        """The notice a correction superseded, while no new one has been posted."""
        index = _superseding_index(self.events)
        return None if index is None else _in_round(self.events[:index], NoticePosted)

    @property
    def cancelled_auction(self: Folded) -> AuctionScheduled | None:
        """The auction fixed on the notice a correction superseded: cancelled with it
        (s.13(3): the seven days run from the new notice); None when none was fixed."""
        index = _superseding_index(self.events)
        return None if index is None else _standing(self.events[:index], AuctionScheduled)

    @property
    def notice_offered_on(self: Folded) -> NoticePosted | None:
        """The notice that stood when cattle of the case were first offered (a lot
        offered, sold or not, or disposed of otherwise): the cattle went to the public
        as it described them (s.13(2), s.13(3)); None while none was."""
        for index, event in enumerate(self.events):
            if isinstance(event, LotOffered | DisposedOtherwise):
                standing = _standing(self.events[:index], NoticePosted)
                if standing is not None:
                    return standing
        return None

    @property
    def scheduled_auction(self: Folded) -> AuctionScheduled | None:
        """The auction fixed in the round; one fixed on a notice since superseded by a
        correction is cancelled (s.13(3): the seven days run from the new notice)."""
        return _standing(self.events, AuctionScheduled)


# --- the steps of s.13, each declared once ----------------------------------------

#: The stages a sale may be taken from: after the notice (s.13(3)), after the owner's
#: refusal (s.15(1)), and while it goes on.
_SALE_STAGES = frozenset({Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING})


@cites("s.13(3)", "s.15(1)")
def on_unclaimed_route(case: Case) -> bool:
    """Whether the case is on the route of unclaimed cattle: a notice stands and the
    owner has not appeared (s.13(3)); else on the owner's route (s.15(1))."""
    return case.notice is not None and not case.owner_appeared


@cites("s.15(5)", "s.13(1)")
def report_first(case: Case) -> None:
    """s.15(5): cattle of a refused account are "deemed to be unclaimed and disposed of
    according to the provisions of this Act": the s.13(1) report comes first, then the
    notice and the sale."""
    raise TransitionRefusedError(
        "the cattle are deemed unclaimed: the keeper's report comes first",
        "s.13(1)",
        reason="report_first",
        facts={"date": report_due(case)},
    )


@cites("s.13(2)", "s.13(3)")
def require_notice_standing(case: Case) -> None:
    """After a correction of what the notice stated, the old notice no longer stands:
    no auction, sale or disposal until the new notice is posted (s.13(2)), and the
    s.13(3) seven days run from it."""
    old = case.superseded_notice
    if old is None:
        return  # reported, no notice yet: the stage refusal says so
    corrected = next(e for e in reversed(case.events) if isinstance(e, SeizureCorrected))
    raise TransitionRefusedError(
        "the notice no longer states the corrected facts: post a new notice first",
        "s.13(2)",
        reason="notice_superseded",
        facts={"date": old.on, "corrected": corrected.on},
    )


@cites("s.13(1)")
def _guard_report(case: Case, event: ReportedUnclaimed) -> None:
    """s.13(1): cattle are unclaimed only after seven days from impounding."""
    due = report_due_on(case.seizure.impounded_on)
    if event.on < due:
        raise TooEarlyError(
            f"cattle are unclaimed only after seven days; report from {due.isoformat()}",
            "s.13(1)",
            lawful_from=due,
        )


@cites("s.13(1)")
def _report_lawful(case: Case, today: date) -> bool:
    """The report from the day after the seven days (s.13(1))."""
    return today >= report_due_on(case.seizure.impounded_on)


@cites("s.13(1)", "s.15(5)")
def _report_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.13(1): while impounded and unclaimed, the report is due on the 8th day; s.15(5):
    cattle of a refused account are unclaimed, the report due at once (never before the
    eighth day after impounding)."""
    if case.stage is Stage.IMPOUNDED:
        due, counts_from = report_due(case), case.seizure.impounded_on
        return (Deadline(DeadlineKind.REPORT_DUE, due, "s.13(1)", Role.KEEPER, counts_from),)
    refused = case.last(AccountRefused)
    if case.stage is Stage.DEEMED_UNCLAIMED and refused is not None:
        due = report_due(case)
        return (Deadline(DeadlineKind.REPORT_DUE, due, "s.15(5)", Role.KEEPER, refused.on),)
    return ()


REPORT: Step[ReportedUnclaimed] = Step(
    event=ReportedUnclaimed,
    provision="s.13(1)",
    # Also of the cattle deemed unclaimed when the owner refused the account (s.15(5)).
    follows=frozenset({Stage.IMPOUNDED, Stage.DEEMED_UNCLAIMED}),
    guard=_guard_report,
    lawful=_report_lawful,
    deadlines=_report_deadlines,
    leads_to=Stage.REPORTED,
)


@cites("s.13(2)")
def _guard_proclamation(case: Case, event: NoticePosted) -> None:
    """s.13(2): proclamation "by beat of drum in the village and in the market place
    nearest to the place of seizure": both places, one is not enough."""
    places = [p for p in event.proclaimed_at if p.strip()]
    if len(places) < 2:
        raise InvalidCaseError(
            "the proclamation is made in the village and in the market place nearest "
            "to the place of seizure: name both",
            "s.13(2)",
        )


@cites("s.13(2)")
def _notice_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.13(2): once reported, the notice is due "thereupon", the same day; after a
    correction superseded the notice, the new one is due the day of the correction."""
    reported = case.reported_on
    if case.stage is not Stage.REPORTED or reported is None:
        return ()
    superseding = case.superseding
    since = superseding.on if superseding is not None else reported
    return (Deadline(DeadlineKind.NOTICE_DUE, since, "s.13(2)", Role.OFFICER, since),)


NOTICE: Step[NoticePosted] = Step(
    event=NoticePosted,
    provision="s.13(2)",
    follows=frozenset({Stage.REPORTED}),
    guard=_guard_proclamation,
    deadlines=_notice_deadlines,
    leads_to=Stage.NOTICE_POSTED,
    after_report=True,
)


@cites("s.13(3)", "GCA s.8")
def check_s13_3_day(case: Case, day: date) -> None:
    """s.13(3): the auction of unclaimed cattle from the eighth day after the notice."""
    notice = case.notice
    if notice is None:
        raise TransitionRefusedError("no notice has been posted", "s.13(2)", reason="no_notice")
    first_day = auction_allowed_from(notice.on)
    if day < first_day:
        raise TooEarlyError(
            f"the auction is lawful from {first_day.isoformat()}, seven days after the notice",
            "s.13(3)",
            lawful_from=first_day,
        )


@cites("s.13(3)", "s.15(1)", "s.15(2)")
def _guard_auction(case: Case, event: AuctionScheduled) -> None:
    """The auction of unclaimed cattle is fixed for a day from the eighth after the
    notice (s.13(3)); any auction for a day on or after the day it is fixed, its expected
    expenses not negative (s.15(2)); never once every head is sold or disposed of: there is
    nothing left to sell (``_auction_lawful``)."""
    if not _auction_lawful(case, event.on):
        raise TransitionRefusedError(
            "every head is sold or disposed of: there is nothing left to auction",
            "s.15(1)" if case.owner_appeared else "s.13(3)",
        )
    if case.stage is Stage.NOTICE_POSTED or on_unclaimed_route(case):
        check_s13_3_day(case, event.auction_on)
    if event.auction_on < event.on:
        raise BackwardsDateError(
            "an auction cannot be fixed for a day before the day it is fixed",
            "s.15(1)" if case.owner_appeared else "s.13(3)",
            reason="auction_before_fixing",
            facts={"date": event.on},
        )
    if event.expected_expenses is not None and event.expected_expenses.is_negative:
        raise InvalidCaseError("expenses cannot be negative", "s.15(2)")


@cites("s.13(3)")
def _auction_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.13(3): once the notice is posted, the auction is lawful from the 8th day after
    it, until an auction is fixed (its day is then the deadline)."""
    notice = case.notice
    if case.stage is not Stage.NOTICE_POSTED or notice is None or case.scheduled_auction:
        return ()
    lawful = auction_allowed_from(notice.on)
    return (Deadline(DeadlineKind.AUCTION_LAWFUL, lawful, "s.13(3)", Role.OFFICER, notice.on),)


@cites("s.13(3)", "s.15(1)")
def _auction_lawful(case: Case, today: date) -> bool:
    """An auction is fixed of cattle still in the pound: once every head is sold or
    disposed of, there is nothing left to sell (s.13(3), s.15(1))."""
    return case.heads_remaining > 0


AUCTION: Step[AuctionScheduled] = Step(
    event=AuctionScheduled,
    provision="s.13(3)",
    owners_route="s.15(1)",
    follows=_SALE_STAGES,
    guard=_guard_auction,
    lawful=_auction_lawful,
    deadlines=_auction_deadlines,
    leads_to=lambda case, event: case.stage,
    after_report=True,
    after_notice=True,
)


@cites("s.13(3)", "s.13(3) proviso", "s.15(1)", "s.18")
def check_sale(case: Case, event: LotOffered | DisposedOtherwise) -> None:
    """A lot offered or disposed of: unclaimed cattle from the eighth day after the
    notice (s.13(3)), other disposal only of unclaimed cattle (the proviso); the lot and
    its heads left; a sale with its price, its buyer and the buyer's declaration that
    they are not barred (s.18); an order of other disposal with who made it and its
    reference, its proceeds not negative."""
    if on_unclaimed_route(case):
        check_s13_3_day(case, event.on)
    elif isinstance(event, DisposedOtherwise):
        raise TransitionRefusedError(
            "other disposal is for unclaimed cattle under the proviso", "s.13(3) proviso"
        )
    if not 0 <= event.lot < len(case.seizure.lots):
        raise InvalidCaseError(
            f"no lot {event.lot + 1} in this case",
            "s.13(3)",
            reason="no_lot",
            facts={"lot": event.lot + 1, "count": len(case.seizure.lots)},
        )
    if event.count < 1 or event.count > case.remaining_heads(event.lot):
        raise InvalidCaseError(
            f"lot {event.lot + 1} has {case.remaining_heads(event.lot)} head left",
            "s.13(3)",
            reason="heads_left",
            facts={"lot": event.lot + 1, "count": case.remaining_heads(event.lot)},
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


@cites("s.13(3)", "s.15(1)")
def _lot_lawful(case: Case, today: date) -> bool:
    """A sale, or the record of a lot left unsold, on or after the day fixed for the
    auction, while a head is left to offer (s.13(3), s.15(1))."""
    fixed = case.scheduled_auction
    return fixed is not None and today >= fixed.auction_on and case.heads_remaining > 0


@cites("s.13(3)", "s.15(1)")
def _lot_deadlines(case: Case) -> tuple[Deadline, ...]:
    """The day fixed for the auction (s.13(3); s.15(1) on the owner's route)."""
    fixed = case.scheduled_auction
    if case.stage not in _SALE_STAGES or fixed is None:
        return ()
    provision = "s.15(1)" if case.owner_appeared else "s.13(3)"
    return (
        Deadline(DeadlineKind.AUCTION_DAY, fixed.auction_on, provision, Role.OFFICER, fixed.on),
    )


LOT: Step[LotOffered] = Step(
    event=LotOffered,
    provision="s.13(3)",
    owners_route="s.15(1)",
    follows=_SALE_STAGES,
    guard=check_sale,
    lawful=_lot_lawful,
    deadlines=_lot_deadlines,
    leads_to=Stage.SELLING,
    after_report=True,
    after_notice=True,
    moves_money=lambda event: event.sold,
)
