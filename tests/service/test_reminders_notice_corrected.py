"""The reminders after a correction superseded the notice (s.13(2), s.13(3)): the auction
fixed on the old notice is reminded of no more, the new notice is due from the day of the
correction ("thereupon"), and the s.13(3) days run from the new notice. The reminder
engine runs as the clock moves (``tests.service.test_reminders``)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select

from bot.services import keeper as k
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.models import DeadlineRow
from bot.store.tx import Store
from bot.support.caller import Caller
from tests.service.helpers import seizure
from tests.service.test_reminders import (
    AUCTION,
    KEEPER,
    LAWFUL,
    NOTICE,
    OFFICERS,
    REPORT,
    Engine,
    _jobs,
    d,
    engine_,  # noqa: F401  (a fixture)
    local,
    people,  # noqa: F401  (a fixture)
    same,
    told,
)

PLACES = ("Kunnamangalam", "Kunnamangalam market")


async def test_after_the_notice_is_superseded_the_auction_is_not_reminded_and_the_notice_is(
    store: Store,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    engine_: Engine,  # noqa: F811
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # impounded 1 March
    await engine_.until(local(d(9), 11))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")  # s.13(1), 9 March
        await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=PLACES)
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=d(20), place="Kunnamangalam market"
        )
    await engine_.until(local(d(12), 11))
    planned = await _jobs(store, "pending", "waiting")
    assert planned  # the auction day's reminder, waiting for 20 March
    async with store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
        corrected = replace(case.seizure, place_seized="Pathimangalam junction")
        await k.correct_seizure(tx, deps, keeper, "KNM-1", corrected, "written wrongly")
    await engine_.run()
    await engine_.until(local(d(14), 12))
    async with store.transaction() as tx:  # the new notice, on 14 March
        await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=PLACES)
    await engine_.until(local(d(23), 13))

    same(
        engine_.queued,
        told(local(d(9)), [KEEPER], REPORT, d(9))
        # s.13(2): due again from the correction of 12 March, each morning until posted
        + told(local(d(13)), OFFICERS, NOTICE, d(12))
        + told(local(d(14)), OFFICERS, NOTICE, d(12))
        # s.13(3): the seven days run from the new notice of 14 March
        + told(local(d(21)), OFFICERS, LAWFUL, d(22))
        + told(local(d(22)), OFFICERS, LAWFUL, d(22)),
    )
    assert not any(
        body == text
        for _, _, body in engine_.queued
        for _, _, text in told(local(d(20)), OFFICERS, AUCTION, d(20))
    )
    # The auction day's reminder, planned before the correction, was cancelled by it.
    by_correction = [
        job.deadline_id
        for job in await _jobs(store, "cancelled")
        if "SeizureCorrected s.7" in (job.last_error or "") and job.deadline_id is not None
    ]
    async with store.transaction() as tx:
        kinds = {
            row.id: row.kind for row in (await tx.session.execute(select(DeadlineRow))).scalars()
        }
    assert [kinds[i] for i in by_correction] == [AUCTION.value]
    assert {kinds[j.deadline_id] for j in planned if j.deadline_id} == {AUCTION.value}
