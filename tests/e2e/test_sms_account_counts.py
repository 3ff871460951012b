"""The s.15(3) account by SMS, through signed Twilio requests into the running app: two
goats unclaimed, one sold at the auction and one given free to a goshala on the
Director's order. The officer's SETTLE and the owner's STATUS count the head sold and the
head disposed of otherwise apart (s.15(3)(d), s.13(3) proviso), give each its days in the
pound (s.15(3)(b)), and cite the route of the sale (s.13(3)); on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.store.models import OutboxRow
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES, PG_URL
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig
from tests.e2e.test_sms import message_of

OWNER = "+919847099998"
MARKET = "Kunnamangalam market"


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'counts.sqlite3'}"
        return
    assert PG_URL
    from tests.integration.test_migrations import fresh_pg_database

    with fresh_pg_database() as url:
        yield url


async def text(rig: SmsRig, sender: str, body: str, sid: str) -> str:
    response = await rig.sms(sender, body, sid)
    assert response.status_code == 200, response.text
    return message_of(response.text)


async def on(rig: SmsRig, day: int) -> None:
    await rig.set_clock(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))


async def test_a_goat_sold_and_a_goat_given_to_a_goshala_are_counted_apart_by_sms(
    database: str, tmp_path: Path
) -> None:
    async with open_app(url=database, migrate=True):
        pass
    async with sms_rig(tmp_path, url=database) as rig:
        await text(rig, OWNER, "LANG en", "SM-c0")  # the owner reads English
        seize = f"SEIZE 2 goat AT {MARKET} OWNER Kunhammed {OWNER[3:]}"
        seized = await text(rig, KEEPER_PHONE, seize, "SM-c1")
        assert "KNM-1" in seized
        await on(rig, 9)
        await text(rig, KEEPER_PHONE, "REPORT KNM-1", "SM-c2")
        await text(rig, OFFICER_PHONE, f"NOTICE KNM-1 AT Kunnamangalam, {MARKET}", "SM-c3")
        await text(rig, OFFICER_PHONE, f"AUCTION KNM-1 ON 17-03-2026 AT {MARKET}", "SM-c4")
        await on(rig, 17)
        sold = "SOLD KNM-1 1 1 3000 TO Mammu, Kunnamangalam DECLARED"
        assert "KNM-1" in await text(rig, OFFICER_PHONE, sold, "SM-c5")
        await text(rig, OFFICER_PHONE, "UNSOLD KNM-1 1 1", "SM-c6")
        await on(rig, 18)
        given = "DISPOSE KNM-1 1 1 BY DIRECTOR REF DO-4/2026 HOW given free to the goshala"
        assert "(s.13(3) proviso)" in await text(rig, OFFICER_PHONE, given, "SM-c7")
        await on(rig, 20)
        settled = await text(rig, OFFICER_PHONE, "SETTLE KNM-1 0", "SM-c8")
        assert "sale settled" in settled
        assert "of 2 head, 1 sold and 1 disposed of otherwise (s.13(3) proviso)" in settled
        assert "2 of 2 head sold" not in settled
        assert "Time impounded: 17 to 18 days (s.15(3)(b))." in settled
        # The owner's SMS of the account says the same.
        async with rig.app.store.transaction() as tx:
            told = await tx.session.scalar(
                select(OutboxRow.body).where(OutboxRow.idempotency_key == "account:KNM-1")
            )
        assert told is not None
        assert "of 2 head, 1 sold and 1 disposed of otherwise (s.13(3) proviso)" in told
        assert "2 of 2 head sold" not in told
        status = await text(rig, OWNER, "STATUS KNM-1", "SM-c9")
        assert (
            "Part sold by public auction (s.13(3)), the rest disposed of by order "
            "(s.13(3) proviso)."
        ) in status
        assert "s.15(1)" not in status
        assert "2 of 2 head sold" not in status


async def test_status_of_an_unclaimed_sale_by_sms_cites_s13_3_alone(
    database: str, tmp_path: Path
) -> None:
    async with open_app(url=database, migrate=True):
        pass
    async with sms_rig(tmp_path, url=database) as rig:
        await text(rig, KEEPER_PHONE, f"SEIZE 1 buffalo AT {MARKET}", "SM-u1")
        await on(rig, 9)
        await text(rig, KEEPER_PHONE, "REPORT KNM-1", "SM-u2")
        await text(rig, OFFICER_PHONE, f"NOTICE KNM-1 AT Kunnamangalam, {MARKET}", "SM-u3")
        await text(rig, OFFICER_PHONE, f"AUCTION KNM-1 ON 17-03-2026 AT {MARKET}", "SM-u4")
        await on(rig, 17)
        sold = "SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED"
        await text(rig, OFFICER_PHONE, sold, "SM-u5")
        selling = await text(rig, OWNER, "STATUS KNM-1", "SM-u6")
        assert "The sale began on 17 Mar 2026 (s.13(3))." in selling
        await on(rig, 21)
        settled = await text(rig, OFFICER_PHONE, "SETTLE KNM-1 0", "SM-u7")
        # Sold on 17 March, settled on 21 March: 17 days in the pound (s.15(3)(b)).
        assert "Time impounded: 17 days (s.15(3)(b))." in settled
        status = await text(rig, OWNER, "STATUS KNM-1", "SM-u8")
        assert "The cattle were sold by public auction (s.13(3))." in status
        assert "s.15(1)" not in status
