"""s.13: cattle not claimed. The keeper's report (s.13(1)), the notice and its
proclamation (s.13(2)), and the public auction (s.13(3)); the other disposal the
Director may order is in ``domain.s13_3_proviso``.

s.13(1): cattle "not claimed within seven days from the date of their being impounded"
are reported to the local authority; s.13(2): the local authority then affixes the
notice and has it proclaimed. A notice says the cattle "have not been claimed within
seven days": before the eighth day that is false, and once the cattle have left the
pound (released, delivered on deposit, sold, settled) there is nothing to give notice
of. A notice already posted may be printed again while its sale is under way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

from domain.calendar import day_after_period
from domain.errors import TooEarlyError, TransitionRefusedError
from domain.events import AccountRefused
from domain.provisions import cites
from domain.s07_seizure import Seizure
from domain.stages import CaseFacts, Stage

__all__ = [
    "auction_allowed_from",
    "check_notice_printable",
    "notice_facts",
    "proclamation_places",
    "report_due",
    "report_due_on",
    "village_and_market",
]

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
