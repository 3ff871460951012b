"""s.16(3), s.19 by signed SMS into the running app, on SQLite and PostgreSQL.

``CLAIM <case> BY <name> REF <ref> [PREFERRED <date>] [ON <date>]``: PREFERRED is the day
the claim was preferred (within the three months; by default the pending claim's), ON
the day it was established (by default today), so an officer who types the day the claim
was established is not told it came too late. STATUS after it says the claim was
established, to whom the balance is due and since when (no name: STATUS answers
anyone). DEADLINES does not call the owner's last day to complain (s.19) "overdue": it is
the owner's limit, not a duty missed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.conftest import ENGINES, PG_URL
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig
from tests.e2e.test_sms_stages import text

OWNER = "+919847099997"


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: a new SQLite file; else a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    assert PG_URL
    from tests.integration.test_migrations import fresh_pg_database

    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def rig(tmp_path: Path, database: str | None) -> AsyncIterator[SmsRig]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with sms_rig(tmp_path, database) as found:
        yield found


async def on(rig: SmsRig, day: int, month: int = 3) -> None:
    await rig.set_clock(datetime(2026, month, day, 10, 0, tzinfo=LOCAL_TZ))


async def stage_of(rig: SmsRig, number: str) -> Stage:
    async with rig.app.store.transaction() as tx:
        return (await tx.load_case(number)).case.stage


async def sold_into_deposit(rig: SmsRig) -> None:
    """KNM-1: one cow, unclaimed, sold on 18 March for more than its dues; the balance is
    in deposit from that day, claims until 18 June (s.16(3))."""
    await on(rig, 1)
    await text(rig, KEEPER_PHONE, "SEIZE 1 cow AT Kunnamangalam market; brown", "SM-seize")
    await on(rig, 9)
    await text(rig, KEEPER_PHONE, "REPORT KNM-1", "SM-report")
    await on(rig, 10)
    await text(rig, OFFICER_PHONE, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", "SM-n")
    await text(rig, OFFICER_PHONE, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market", "SM-a")
    await on(rig, 18)
    sold = "SOLD KNM-1 1 1 20000 TO Ravi, Chathamangalam DECLARED"
    await text(rig, OFFICER_PHONE, sold, "SM-sold")
    await text(rig, OFFICER_PHONE, "SETTLE KNM-1 0", "SM-settle")
    assert await stage_of(rig, "KNM-1") is Stage.IN_DEPOSIT


async def test_claim_on_is_the_day_established_and_preferred_the_day_preferred_s16_3(
    rig: SmsRig,
) -> None:
    await sold_into_deposit(rig)
    await on(rig, 1, 6)
    await text(rig, OFFICER_PHONE, "CLAIMED KNM-1 BY Kunhammed", "SM-claimed")
    await on(rig, 30, 6)
    # PREFERRED is read: a claim preferred after the three months is refused.
    late = await text(
        rig, OFFICER_PHONE, "CLAIM KNM-1 BY Kunhammed REF 12/2026 PREFERRED 20-06-2026", "SM-c1"
    )
    assert late == "The 3 months to claim the deposit ended on 18 Jun 2026. (s.16(3))"
    before = await text(
        rig,
        OFFICER_PHONE,
        "CLAIM KNM-1 BY Kunhammed REF 12/2026 PREFERRED 01-06-2026 ON 31-05-2026",
        "SM-c2",
    )
    assert before == (
        "That date is before the last step recorded in this case, on 1 Jun 2026. "
        "Check the date. (s.16(3))"
    ), before
    assert await stage_of(rig, "KNM-1") is Stage.IN_DEPOSIT
    # ON is the day established: after the three months, of a claim preferred within them.
    done = await text(
        rig, OFFICER_PHONE, "CLAIM KNM-1 BY Kunhammed REF 12/2026 ON 25-06-2026", "SM-c3"
    )
    assert "preferred on 1 Jun 2026" in done, done
    assert "established on 25 Jun 2026" in done, done
    assert await stage_of(rig, "KNM-1") is Stage.CLOSED
    status = await text(rig, OWNER, "STATUS KNM-1", "SM-status")
    assert status.startswith(
        "Case KNM-1. The balance is due to the claimant since 25 Jun 2026, when the claim "
        "to it was established (ref. 12/2026) (s.16(3))."
    ), status
    assert "Kunhammed" not in status


async def test_claim_with_no_claim_pending_takes_the_day_preferred_given(rig: SmsRig) -> None:
    await sold_into_deposit(rig)
    await on(rig, 30, 6)
    done = await text(
        rig,
        OFFICER_PHONE,
        "CLAIM KNM-1 BY Ayesha REF 13/2026 PREFERRED 10-06-2026 ON 29-06-2026",
        "SM-c1",
    )
    assert "preferred on 10 Jun 2026" in done, done
    assert "established on 29 Jun 2026" in done, done
    async with rig.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.stage is Stage.CLOSED
    assert case.stage_since == datetime(2026, 6, 29).date()


async def test_deadlines_call_the_owners_last_day_to_complain_ended_not_overdue_s19(
    rig: SmsRig,
) -> None:
    await on(rig, 1)
    await text(rig, KEEPER_PHONE, "SEIZE 1 cow AT Kunnamangalam market; brown", "SM-s")
    await on(rig, 2)
    await text(rig, KEEPER_PHONE, "DEPOSITED KNM-1", "SM-d")
    await on(rig, 15)
    listed = await text(rig, OFFICER_PHONE, "DEADLINES", "SM-dl")
    assert "overdue" not in listed.lower(), listed
    assert (
        "KNM-1: the owner's time to complain ended 4 days ago, on 11 Mar 2026 (s.19)" in listed
    ), listed
