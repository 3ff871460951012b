"""The desk's CLAIM form (s.16(3)) takes the day the claim was preferred and the day it
was established apart, as the CLAIM word does: the day preferred starts as the pending
claim's, the day established as today. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.store.models import User
from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.conftest import ENGINES, PG_URL
from tests.web.rig import Rig, rig, step_form


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
async def desk(tmp_path: Path, database: str | None) -> AsyncIterator[Rig]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with rig(tmp_path, url=database) as r:
        yield r


def on(r: Rig, day: int, month: int = 3) -> None:
    r.clock.set(datetime(2026, month, day, 10, 0, tzinfo=LOCAL_TZ))


async def in_deposit(r: Rig) -> tuple[User, User]:
    """KNM-1: a cow sold as unclaimed on 18 March; its balance in deposit, claims until
    18 June (s.16(3)). The keeper and the officer."""
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020", name="Latha")
    await r.say(keeper, "SEIZE 1 cow AT Kunnamangalam market; brown")
    on(r, 9)
    await r.say(keeper, "REPORT KNM-1")
    on(r, 10)
    await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await r.say(officer, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    on(r, 18)
    await r.say(officer, "SOLD KNM-1 1 1 20000 TO Ravi, Chathamangalam DECLARED")
    await r.say(officer, "SETTLE KNM-1 0")
    return keeper, officer


def reply_of(html: str) -> str:
    found = re.search(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', html, re.S)
    assert found, "no reply shown"
    return found.group(1)


async def post_claim(r: Rig, status: int, **fields: str) -> str:
    page = await r.client.get("/web/cases/KNM-1")
    assert 'action="/web/cases/KNM-1/claim"' in page.text
    done = await r.client.post("/web/cases/KNM-1/claim", data={**step_form(page.text), **fields})
    if status == 303:
        assert done.status_code == 303, done.text[-2000:]
        done = await r.client.get(done.headers["location"])
    else:
        assert done.status_code == status, done.text[-2000:]
    return reply_of(done.text)


async def test_the_claim_form_takes_the_day_preferred_and_the_day_established_apart(
    desk: Rig,
) -> None:
    _, officer = await in_deposit(desk)
    on(desk, 1, 6)
    await desk.say(officer, "CLAIMED KNM-1 BY Kunhammed")
    on(desk, 30, 6)
    await desk.sign_in(officer)
    page = await desk.client.get("/web/cases/KNM-1")
    # The day preferred starts as the pending claim's; both fields are labelled.
    assert re.search(r'name="preferred" value="01-06-2026"', page.text), page.text[-4000:]
    assert "Day the claim was preferred" in page.text
    assert "Day it was established (empty: today)" in page.text
    late = await post_claim(
        desk, 409, person="Kunhammed", reference="12/2026", preferred="20-06-2026"
    )
    assert late == "The 3 months to claim the deposit ended on 18 Jun 2026. (s.16(3))"
    done = await post_claim(
        desk,
        303,
        person="Kunhammed",
        reference="12/2026",
        preferred="01-06-2026",
        on="25-06-2026",
    )
    assert "preferred on 1 Jun 2026" in done, done
    assert "established on 25 Jun 2026" in done, done
    async with desk.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.stage is Stage.CLOSED
    assert case.stage_since == datetime(2026, 6, 25).date()


async def test_the_claim_form_with_no_claim_pending_takes_the_day_preferred_typed(
    desk: Rig,
) -> None:
    _, officer = await in_deposit(desk)
    on(desk, 30, 6)
    await desk.sign_in(officer)
    done = await post_claim(desk, 303, person="Ayesha", reference="13/2026", preferred="2026-06-10")
    assert "preferred on 10 Jun 2026" in done, done
    assert "established on 30 Jun 2026" in done, done


async def test_today_shows_the_owners_last_day_to_complain_as_ended_not_overdue_s19(
    desk: Rig,
) -> None:
    keeper = await desk.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await desk.user("officer", authority="KNM-GP", phone="+919847000020", name="Latha")
    await desk.say(keeper, "SEIZE 1 cow AT Kunnamangalam market; brown")
    on(desk, 2)
    await desk.say(keeper, "DEPOSITED KNM-1")
    on(desk, 15)
    await desk.sign_in(officer)
    today = (await desk.client.get("/web/")).text
    row = re.search(
        r"<tr>\s*<td class=\"case\"[^>]*><a href=\"/web/cases/KNM-1\">.*?</tr>", today, re.S
    )
    assert row, today[-3000:]
    assert "11 Mar 2026 — period ended" in row.group(0), row.group(0)
    assert "overdue" not in row.group(0)
