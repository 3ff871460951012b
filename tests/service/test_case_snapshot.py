"""The snapshot of a case on its row is the replay of its events: after corrections,
and ignored (the case replayed, the snapshot rewritten) when stale or of another version."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update

from bot.caller import Caller
from bot.services import keeper as keeper_service
from bot.services.base import Deps
from bot.store.codec import load_event
from bot.store.models import CaseEvent, CaseRow
from bot.store.tx import Store
from domain.case import Case, Lot, Seizure


async def _replayed(store: Store, number: str) -> Case:
    async with store.transaction() as tx:
        row = (
            await tx.session.execute(select(CaseRow).where(CaseRow.number == number))
        ).scalar_one()
        events = (
            await tx.session.execute(
                select(CaseEvent.type, CaseEvent.payload)
                .where(CaseEvent.case_id == row.id)
                .order_by(CaseEvent.seq)
            )
        ).all()
    return Case.replay(number, [load_event(t, p) for t, p in events])


async def test_snapshot_is_the_replay_after_corrections_and_when_stale(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    lots = (Lot("cow", 2, "brown"), Lot("buffalo", 1, ""))
    seizure = Seizure("KNM", lots, "Kunnamangalam market", datetime(2026, 1, 2, 9))
    async with store.transaction() as tx:
        recorded = await keeper_service.record_seizure(tx, deps, keeper, seizure)
    number = recorded.case.number
    for n in range(3):
        async with store.transaction() as tx:
            await keeper_service.correct_seizure(tx, deps, keeper, number, seizure, f"check {n}")
    async with store.transaction() as tx:
        loaded = await tx.load_case(number)
        assert loaded.row.snapshot is not None
    assert loaded.case == await _replayed(store, number)
    # Another version's snapshot is ignored, the case replayed and the snapshot rewritten.
    async with store.transaction() as tx:
        await tx.session.execute(
            update(CaseRow).where(CaseRow.number == number).values(snapshot={"v": -1})
        )
    async with store.transaction() as tx:
        again = (await tx.load_case(number)).case
    assert again == await _replayed(store, number)
    async with store.transaction() as tx:
        assert (await tx.load_case(number)).row.snapshot["v"] != -1
