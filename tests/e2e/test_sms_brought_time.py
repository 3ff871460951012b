"""s.7: a seizure report records cattle already brought in. An hour later than now is
refused as a later day is, by SMS (SEIZE ... ON <day> <hh:mm>, CORRECT ... BROUGHT), in
each language, and nothing is recorded; the same minute, an earlier hour or a day alone
stands. Signed SMS into the running app, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.bootstrap import open_app
from bot.store.models import CaseRow
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES, PG_URL
from tests.e2e.sms_harness import KEEPER_PHONE, SmsRig, sms_rig
from tests.e2e.test_sms_stages import text

SEIZE = "SEIZE 1 cow AT Kunnamangalam market ON {on}; brown"


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
        # 1 March 2026, 06:43 in Kerala.
        await found.set_clock(datetime(2026, 3, 1, 6, 43, 20, tzinfo=LOCAL_TZ))
        yield found


async def cases(rig: SmsRig) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(CaseRow)) or 0)


async def test_a_seizure_brought_in_later_today_than_now_is_refused_like_a_later_day(
    rig: SmsRig,
) -> None:
    for n, later in enumerate(("01-03-2026 23:59", "01-03-2026 6:44", "1.3 07:00")):
        refused = await text(rig, KEEPER_PHONE, SEIZE.format(on=later), f"SM-late-{n}")
        assert refused == (
            "That time is later than now (06:43): give the hour the cattle were actually "
            "brought in. (s.7)"
        ), refused
    tomorrow = await text(rig, KEEPER_PHONE, SEIZE.format(on="02-03-2026 05:00"), "SM-tmrw")
    assert tomorrow == "That date is after today. Give the day it actually happened. (s.7)"
    assert await cases(rig) == 0
    # In the keeper's own language, the same refusal.
    await text(rig, KEEPER_PHONE, "LANG ml", "SM-lang-ml")
    ml = await text(rig, KEEPER_PHONE, "പിടിച്ചു 1 പശു സ്ഥലം കുന്ദമംഗലം തീയതി 01-03-2026 23:59", "SM-ml")
    assert "06:43" in ml, ml
    assert "(വകുപ്പ് 7)" in ml, ml
    assert "later than now" not in ml, ml
    await text(rig, KEEPER_PHONE, "LANG en", "SM-lang-en")
    assert await cases(rig) == 0
    # The same minute, an earlier hour, a day alone: recorded.
    for n, on in enumerate(("01-03-2026 06:43", "01-03-2026 00:10", "01-03-2026")):
        done = await text(rig, KEEPER_PHONE, SEIZE.format(on=on), f"SM-now-{n}")
        assert done.startswith(f"Case KNM-{n + 1}: "), done
    assert await cases(rig) == 3


async def test_a_correction_to_an_hour_later_than_now_is_refused_and_changes_nothing(
    rig: SmsRig,
) -> None:
    done = await text(rig, KEEPER_PHONE, SEIZE.format(on="01-03-2026 05:30"), "SM-s")
    assert done.startswith("Case KNM-1: "), done
    refused = await text(
        rig, KEEPER_PHONE, "CORRECT KNM-1 BROUGHT 01-03-2026 23:59 BECAUSE typed wrong", "SM-c1"
    )
    assert refused == (
        "That time is later than now (06:43): give the hour the cattle were actually "
        "brought in. (s.7)"
    ), refused
    async with rig.app.store.transaction() as tx:
        brought = (await tx.load_case("KNM-1")).case.seizure.brought_at
    assert (brought.hour, brought.minute) == (5, 30)
    fixed = await text(
        rig, KEEPER_PHONE, "CORRECT KNM-1 BROUGHT 01-03-2026 06:40 BECAUSE typed wrong", "SM-c2"
    )
    assert "corrected" in fixed.lower(), fixed
