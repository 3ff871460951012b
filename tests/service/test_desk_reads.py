"""The web desk's statements read rows that agree with one another: Today's sections,
its count of cases due and its STOP list, and each shape of the list of cases with its
count, for one pound, two and none."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from bot.services import desk
from bot.services import keeper as keeper_steps
from bot.services.base import Deps
from bot.store import desk_reads as reads
from bot.store.tx import Store, Tx
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.s07_seizure import Lot
from tests.service.helpers import seizure


async def _same_rows(tx: Tx, statement: Any, params: dict[str, Any]) -> list[Any]:
    """The rows of ``statement``, read twice (the second time its SQL comes from
    SQLAlchemy's cache): the same both times."""
    rows = list((await tx.session.execute(statement, params)).all())
    again = (await tx.session.execute(statement, params)).all()
    assert [tuple(row) for row in rows] == [tuple(row) for row in again]
    return rows


async def test_the_desk_statements_read_rows_that_agree_with_one_another(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    clock.set(datetime(2026, 3, 20, 10, 0, tzinfo=LOCAL_TZ))
    for n in range(6):  # cases of both pounds of KNM-GP over March, of two kinds
        pound = ("KNM", "PTM")[n % 2]
        lots = (Lot("cow", 1, "brown"),) if n % 3 else (Lot("goat", 2, ""),)
        at = datetime(2026, 3, 1 + 3 * n, 9, 0)
        async with store.transaction() as tx:
            caller = Caller(role=keeper.role, channel="test", pound=pound, authority="KNM-GP")
            await keeper_steps.record_seizure(tx, deps, caller, seizure(pound, lots, at=at))
    clock.set(datetime(2026, 4, 5, 10, 0, tzinfo=LOCAL_TZ))
    day = deps.today()
    async with store.transaction() as tx:
        for pounds in (["KNM", "PTM"], ["PTM"], []):
            due = await _same_rows(
                tx,
                reads._today_of(desk.TODAY_ROWS, desk.DUE_CAP),
                {"pounds": pounds, "day": day, "until": day + timedelta(days=6)},
            )
            # The count of cases due rides on every row due (none due: nothing to count).
            counted = {row.due_cases for row in due if row.section == "due"} or {0}
            assert len(counted) == 1
            assert counted.pop() == len({row.case_number for row in due if row.section == "due"})
            await _same_rows(
                tx, reads._STOPPED, {"pounds": pounds, "authorities": ["KNM-GP"] if pounds else []}
            )
            for shape in range(32):  # every filter, on and off
                stage, kind, since, until, many = (bool(shape & 1 << n) for n in range(5))
                count, listing = reads._listing(
                    stage, kind, since, until, many, desk.PAGE, desk.COUNT_CAP
                )
                params: dict[str, Any] = {"pounds": pounds, "offset": 0}
                params |= {"stage": "impounded"} if stage else {}
                params |= {"kind": "cow"} if kind else {}
                params |= {"since": date(2026, 3, 4)} if since else {}
                params |= {"until": date(2026, 3, 13)} if until else {}
                listed = await _same_rows(tx, listing, params)
                del params["offset"]
                total = (await _same_rows(tx, count, params))[0][0]
                assert total == len({row.id for row in listed})
        today = await desk.today(tx, deps, officer)
        listing = await desk.list_cases(tx, deps, officer, desk.CaseFilter(kind="cow"))
    # Not a comparison of nothing: the cases are there, due and listed.
    assert [item.number for item in today.due] == [
        "KNM-1",
        "PTM-1",
        "KNM-2",
        "PTM-2",
        "KNM-3",
        "PTM-3",
    ]
    assert today.due_total == 6
    assert [item.number for item in listing.items] == ["PTM-3", "KNM-3", "KNM-2", "PTM-1"]
    assert listing.total == 4
