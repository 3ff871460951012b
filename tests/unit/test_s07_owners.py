"""s.7, ss.12-15: cattle of two owners in one case; each owner's lots follow the Act on
their own, separated into a case of their own by the owner's step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

import pytest

from domain.case import Case
from domain.errors import InvalidCaseError, TransitionRefusedError
from domain.events import (
    AuctionScheduled,
    Event,
    Impounded,
    LotsSeparated,
    NoticePosted,
    ReportedUnclaimed,
)
from domain.kinds import DEFAULT_KINDS
from domain.s04_s11_dues import dues_on
from domain.s07_owners import lots_of_owner_step
from domain.s07_seizure import Lot, Person
from domain.s12_release import release_on_payment
from domain.s13_unclaimed import notice_facts
from domain.stages import Stage
from tests.unit.case_helpers import Allowed, assert_allowed
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    MARCH_5,
    NOTICE_ON,
    notice,
    owner_refused,
    report,
    rs,
    sale,
    sample_tariff,
    seizure,
    step,
)

KUNHAMMED = Person("Kunhammed", "Mavoor")
AYISHA = Person("Ayisha", "Kuttikkattoor")


def two_owners() -> Case:
    """Two cows of Kunhammed's, a goat of Ayisha's, a calf of Kunhammed's."""
    record = replace(
        seizure(lots=(("cow", 2), ("goat", 1), ("calf", 1)), owner=None),
    )
    lots = (
        replace(record.lots[0], owner=KUNHAMMED),
        replace(record.lots[1], owner=AYISHA),
        replace(record.lots[2], owner=KUNHAMMED),
    )
    return Case.open("KNM-7", replace(record, lots=lots), DEFAULT_KINDS, today=IMPOUNDED_ON)


def test_the_lots_of_an_owner_are_found_from_any_of_them() -> None:
    case = two_owners()
    assert case.seizure.owned_apart
    assert case.seizure.owners == (KUNHAMMED, AYISHA)
    assert lots_of_owner_step(case, 1) == (0, 2)
    assert lots_of_owner_step(case, 3) == (0, 2)
    assert lots_of_owner_step(case, 2) == (1,)
    with pytest.raises(InvalidCaseError) as refused:
        lots_of_owner_step(case, 4)
    assert refused.value.reason == "no_lot"


def test_one_owner_of_all_the_lots_is_the_case_owner_as_before() -> None:
    case = Case.open("KNM-8", seizure(lots=(("cow", 1), ("goat", 1))), DEFAULT_KINDS, IMPOUNDED_ON)
    assert not case.seizure.owned_apart
    assert lots_of_owner_step(case, 2) == (0, 1)


def test_an_owner_pays_for_their_own_lot_on_its_own_fines_and_charges() -> None:
    tariff = sample_tariff()
    case = two_owners()
    rest, part = case.separate((1,), "KNM-9", MARCH_5, today=MARCH_5)
    first = part.events[0]
    assert isinstance(first, Impounded)
    assert first.separated_from == "KNM-7"
    assert part.seizure.owner == AYISHA
    assert [lot.kind for lot in part.seizure.lots] == ["goat"]
    paid = release_on_payment(part, tariff, MARCH_5, today=MARCH_5)
    assert paid.stage is Stage.RELEASED
    # The goat's fine (Rs 100) and five days of feeding at Rs 25.50: no cow in it.
    assert dues_on(paid, tariff, MARCH_5).total == rs(100) + rs("25.50") * 5
    # The first case goes on for Kunhammed's cattle alone, his the case now.
    assert rest.stage is Stage.IMPOUNDED
    assert [lot.kind for lot in rest.seizure.lots] == ["cow", "calf"]
    assert rest.seizure.owner == KUNHAMMED
    assert not rest.seizure.owned_apart
    whole = dues_on(case, tariff, MARCH_5).total
    assert dues_on(rest, tariff, MARCH_5).total + dues_on(paid, tariff, MARCH_5).total == whole


def test_the_s13_days_run_on_for_the_rest_and_the_notice_lists_only_them() -> None:
    case = step(two_owners(), report(), notice())
    rest, part = case.separate((0, 2), "KNM-9", NOTICE_ON, today=NOTICE_ON)
    assert rest.stage is Stage.NOTICE_POSTED
    assert rest.notice is not None
    fixed = AuctionScheduled(on=AUCTION_FROM, auction_on=AUCTION_FROM, place="Mavoor market")
    sold = step(rest, fixed, sale(0, 1, rs(300), AUCTION_FROM))  # s.13(3): from the notice
    assert sold.heads_remaining == 0
    assert [kind for kind, _, _ in notice_facts(rest.seizure)[0]] == ["goat"]  # type: ignore[index]
    # The separated case carries the report and the notice that stands.
    assert [type(e) for e in part.events] == [Impounded, ReportedUnclaimed, NoticePosted]
    assert part.stage is Stage.NOTICE_POSTED


def test_a_separation_replays_and_a_correction_after_it_is_of_the_lots_left() -> None:
    case = step(two_owners(), report())
    rest, _ = case.separate((1,), "KNM-9", date(2026, 3, 9), date(2026, 3, 9))
    again = Case.replay(rest.number, rest.events)
    assert again.seizure == rest.seizure
    assert again.stage is rest.stage
    assert isinstance(again.events[-1], LotsSeparated)


def test_all_the_lots_or_none_is_no_separation() -> None:
    case = two_owners()
    with pytest.raises(InvalidCaseError) as refused:
        case.separate((0, 1, 2), "KNM-9", MARCH_5, today=MARCH_5)
    assert refused.value.reason == "all_lots"


def test_no_separation_once_a_head_was_offered() -> None:
    case = step(two_owners(), report(), notice())
    offered = case.apply(sale(0, 1, rs(900), AUCTION_FROM), today=AUCTION_FROM)
    with pytest.raises(TransitionRefusedError) as refused:
        offered.separate((1,), "KNM-9", AUCTION_FROM, today=AUCTION_FROM)
    assert refused.value.reason == "stage"  # the cattle are being sold together


def test_a_lot_of_an_owner_not_known_is_separated_alone() -> None:
    record = seizure(lots=(("cow", 1), ("goat", 1)), owner=None)
    record = replace(record, lots=(replace(record.lots[0], owner=KUNHAMMED), record.lots[1]))
    case = Case.open("KNM-7", record, DEFAULT_KINDS, IMPOUNDED_ON)
    assert case.seizure.owners == (KUNHAMMED, None)
    assert lots_of_owner_step(case, 2) == (1,)
    rest, part = case.separate((1,), "KNM-9", MARCH_5, MARCH_5)
    assert part.seizure.owner is None
    assert rest.seizure.owner == KUNHAMMED
    assert Lot("cow", 1, rest.seizure.lots[0].description) == rest.seizure.lots[0]


def _two_owners_in(stage: Stage) -> Callable[[], Case]:
    """The case of two owners in ``stage``, before any head is offered."""
    steps: dict[Stage, tuple[Event, ...]] = {
        Stage.IMPOUNDED: (),
        Stage.REPORTED: (report(),),
        Stage.NOTICE_POSTED: (report(), notice()),
        Stage.OWNER_REFUSED: (owner_refused(date(2026, 3, 4)),),
    }
    return lambda: step(two_owners(), *steps[stage])


#: The separation of one owner's lots, from each stage it may follow: the case goes on
#: where it was (test_case_lifecycle.py gathers these rows).
ALLOWED = [
    Allowed(
        f"s.7: one owner's lots are separated when {stage.value}",
        _two_owners_in(stage),
        LotsSeparated(on=date(2026, 3, 12), lots=(1,), into="KNM-9"),
        stage,
    )
    for stage in (Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED, Stage.OWNER_REFUSED)
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_a_separation_leaves_the_case_where_it_was(row: Allowed) -> None:
    assert_allowed(row)
