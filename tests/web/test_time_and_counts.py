"""Every view of a case tells one story: the time impounded (s.15(3)(b)), the heads sold
(s.15(3)(d)) and those disposed of otherwise (s.13(3) proviso), and the provision of each
step of the sale by its route (s.13(3) or s.15(1)), as the printable account, the monthly
register, the charts and the desk's timeline show them, on SQLite and PostgreSQL.

Three cases of Kunnamangalam brought in on 6 November 2026:

- KNM-1, a buffalo, unclaimed: sold on 23 November, the sale settled on 27 November;
- KNM-2, three cows, the owner refused to pay (s.15(1)): one sold on 16 November, one
  offered and not sold, sold at a second auction on 20 November; the third delivered to
  the owner with the account on 22 November;
- KNM-3, two goats, unclaimed: one sold on 23 November, the other not sold and given
  free to a goshala on the Director's order on 24 November; settled on 27 November.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.conversation.reply import handle_text
from bot.services.charts import STAY_BINS, year_figures
from bot.store.models import User
from bot.support.caller import Caller
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES, PG_URL
from tests.web.rig import Rig, rig

KEEPER_PHONE = "+919847000010"
OFFICER_PHONE = "+919847000020"
MARKET = "Kunnamangalam market"


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


def on(desk: Rig, day: int) -> None:
    desk.clock.set(datetime(2026, 11, day, 10, 0, tzinfo=LOCAL_TZ))


async def said(desk: Rig, who: User, line: str) -> str:
    """A line of a keeper or an officer, through the dispatcher; it must be taken."""
    async with desk.app.store.transaction() as tx:
        fresh = await tx.session.get(User, who.id)
        assert fresh is not None
        reply = await handle_text(tx, desk.app.deps, caller_of(fresh, "sms"), line, sms=False)
    assert not reply.refused, (line, reply.text)
    return reply.text


class People:
    def __init__(self, keeper: User, officer: User) -> None:
        self.keeper, self.officer = keeper, officer


async def _people(desk: Rig) -> People:
    keeper = await desk.user("keeper", pound="KNM", phone=KEEPER_PHONE, name="Velayudhan")
    officer = await desk.user("officer", authority="KNM-GP", phone=OFFICER_PHONE, name="Secretary")
    return People(keeper, officer)


async def _november(desk: Rig, p: People) -> None:
    """The three cases of the module's docstring, walked through the dispatcher."""
    on(desk, 6)
    assert "KNM-1" in await said(desk, p.keeper, f"SEIZE 1 buffalo AT {MARKET}")
    assert "KNM-2" in await said(
        desk, p.keeper, f"SEIZE 3 cow AT {MARKET} OWNER Kunhammed 9847099999"
    )
    assert "KNM-3" in await said(desk, p.keeper, f"SEIZE 2 goat AT {MARKET}")
    on(desk, 7)
    await said(desk, p.keeper, "REFUSED KNM-2")
    await said(desk, p.officer, f"AUCTION KNM-2 ON 16-11-2026 AT {MARKET}")
    on(desk, 14)
    for number in ("KNM-1", "KNM-3"):
        await said(desk, p.keeper, f"REPORT {number}")
        await said(desk, p.officer, f"NOTICE {number} AT Kunnamangalam, {MARKET}")
        await said(desk, p.officer, f"AUCTION {number} ON 23-11-2026 AT {MARKET}")
    on(desk, 16)
    await said(desk, p.officer, "SOLD KNM-2 1 1 500 TO Mammu, Kunnamangalam DECLARED")
    await said(desk, p.officer, "UNSOLD KNM-2 1 1")
    await said(desk, p.officer, f"AUCTION KNM-2 ON 20-11-2026 AT {MARKET}")
    on(desk, 20)
    await said(desk, p.officer, "SOLD KNM-2 1 1 50000 TO Joseph, Chathamangalam DECLARED")
    on(desk, 22)
    assert "sale settled" in await said(desk, p.officer, "SETTLE KNM-2 0")
    on(desk, 23)
    await said(desk, p.officer, "SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED")
    await said(desk, p.officer, "SOLD KNM-3 1 1 3000 TO Mammu, Kunnamangalam DECLARED")
    await said(desk, p.officer, "UNSOLD KNM-3 1 1")
    on(desk, 24)
    await said(
        desk,
        p.officer,
        "DISPOSE KNM-3 1 1 BY DIRECTOR REF DO-4/2026 HOW given free to the goshala",
    )
    on(desk, 27)
    for number in ("KNM-1", "KNM-3"):
        assert "sale settled" in await said(desk, p.officer, f"SETTLE {number} 0")
    on(desk, 28)


@pytest.fixture
async def desk(tmp_path: Path, database: str | None) -> AsyncIterator[tuple[Rig, People]]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with rig(tmp_path, url=database) as r:
        people = await _people(r)
        yield r, people


async def status(desk: Rig, number: str) -> str:
    """STATUS of a case, asked by anyone (the owner), through the dispatcher."""
    owner = Caller.public("test", phone="+919847099999", lang="en")
    async with desk.app.store.transaction() as tx:
        reply = await handle_text(tx, desk.app.deps, owner, f"STATUS {number}", sms=False)
    return reply.text


async def case_page(desk: Rig, who: User, number: str) -> str:
    """The desk's page of a case, signed in afresh (days pass between the steps)."""
    await desk.sign_in(who)
    return await _page(desk.client, f"/web/cases/{number}")


async def _page(client: httpx.AsyncClient, path: str) -> str:
    response = await client.get(path)
    assert response.status_code == 200, (path, response.text)
    return html.unescape(response.text)


async def _csv(client: httpx.AsyncClient, path: str) -> list[dict[str, str]]:
    response = await client.get(path)
    assert response.status_code == 200, (path, response.text)
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.text)))


def _account_items(rows: list[dict[str, str]]) -> dict[str, str]:
    return {row["item"]: row["value"] for row in rows}


async def test_the_time_impounded_runs_to_the_day_each_lot_left_and_every_view_agrees_s15_3_b(
    desk: tuple[Rig, People],
) -> None:
    r, p = desk
    await _november(r, p)
    await r.sign_in(p.officer)
    # The register: to the day the last head left, not the day the sale was settled.
    rows = await _csv(r.client, "/web/documents/cases.csv?month=2026-11")
    days = {row["number"]: row["days_in_pound"] for row in rows}
    assert days == {
        "KNM-1": "18",  # 6 to 23 November, the day sold (settled on 27 November)
        "KNM-2": "17",  # the last cow delivered with the account on 22 November
        "KNM-3": "19",  # the goat given to the goshala on 24 November
    }
    # The account of the buffalo: one head, one day it left, one figure.
    one = await _page(r.client, "/web/documents/account/KNM-1")
    assert "(b) Time impounded: 6 Nov 2026 to 23 Nov 2026, 18 days" in one
    assert (
        _account_items(await _csv(r.client, "/web/documents/account/KNM-1.csv"))["days_impounded"]
        == "18"
    )
    # The account of the cows: each lot's days, counted to the day it left the pound.
    cows = await _page(r.client, "/web/documents/account/KNM-2")
    assert "(b) Time impounded, from 6 Nov 2026:" in cows
    assert "1 head of cattle sold on 16 Nov 2026: 11 days" in cows
    assert "1 head of cattle sold on 20 Nov 2026: 15 days" in cows
    assert "1 head of cattle delivered to the owner on 22 Nov 2026: 17 days" in cows
    items = _account_items(await _csv(r.client, "/web/documents/account/KNM-2.csv"))
    assert (items["days_sold:2026-11-16"], items["days_sold:2026-11-20"]) == ("11", "15")
    assert (items["heads_delivered:2026-11-22"], items["days_delivered:2026-11-22"]) == ("1", "17")
    assert items["days_impounded"] == days["KNM-2"]
    # The charts count each case's days as the register does: all three 15 to 21 days.
    async with r.app.store.transaction() as tx:
        officer = await tx.session.get(User, p.officer.id)
        assert officer is not None
        figures = await year_figures(tx, r.app.deps, caller_of(officer, "web"), 2026)
    left = list({series.key: series.values for series in figures.stays}["left"])
    assert left == [3 if low == 15 else 0 for low, _ in STAY_BINS]
    # STATUS gives the account's days.
    assert "Time impounded: 18 days (s.15(3)(b))." in await status(r, "KNM-1")
    goats = await status(r, "KNM-3")
    assert "Time impounded: 18 to 19 days (s.15(3)(b))." in goats


async def test_heads_sold_and_heads_disposed_of_otherwise_are_counted_apart_s15_3_d(
    desk: tuple[Rig, People],
) -> None:
    r, p = desk
    await _november(r, p)
    await r.sign_in(p.officer)
    goats = await _page(r.client, "/web/documents/account/KNM-3")
    assert "(d) Number of cattle sold: 1" in goats
    assert "Disposed of otherwise by order, not sold (s.13(3) proviso): 1" in goats
    assert "1 head of cattle disposed of otherwise on 24 Nov 2026: 19 days" in goats
    items = _account_items(await _csv(r.client, "/web/documents/account/KNM-3.csv"))
    assert (items["cattle_sold"], items["cattle_disposed_otherwise"]) == ("1", "1")
    assert (items["heads_sold:2026-11-23"], items["heads_disposed:2026-11-24"]) == ("1", "1")
    rows = await _csv(r.client, "/web/documents/cases.csv?month=2026-11")
    counted = {row["number"]: (row["heads_sold"], row["heads_disposed"]) for row in rows}
    assert counted == {"KNM-1": ("1", "0"), "KNM-2": ("2", "0"), "KNM-3": ("1", "1")}
    register = await _page(r.client, "/web/documents/cases?month=2026-11")
    assert "Heads disposed of otherwise (s.13(3) proviso)" in register
    assert 'id="total-sold">4<' in register
    assert 'id="total-disposed">1<' in register
    # The account the officer is given on settling, and STATUS, say the same.
    told = await status(r, "KNM-3")
    assert "of 2 head, 1 sold and 1 disposed of otherwise (s.13(3) proviso)" in told
    assert "2 of 2 head sold" not in told


async def test_each_step_of_the_sale_cites_the_provision_of_its_route_s13_3_s15_1(
    desk: tuple[Rig, People],
) -> None:
    r, p = desk
    on(r, 6)
    await said(r, p.keeper, f"SEIZE 3 cow AT {MARKET} OWNER Kunhammed 9847099999")
    on(r, 7)
    await said(r, p.keeper, "REFUSED KNM-1")
    refused = await case_page(r, p.officer, "KNM-1")
    assert "Fix the auction (s.15(1))" in refused
    assert "Fix the auction (s.13(3))" not in refused
    await said(r, p.officer, f"AUCTION KNM-1 ON 16-11-2026 AT {MARKET}")
    on(r, 16)
    selling = await case_page(r, p.officer, "KNM-1")
    assert "Heads of a lot sold (s.15(1))" in selling
    await said(r, p.officer, "SOLD KNM-1 1 1 500 TO Mammu, Kunnamangalam DECLARED")
    await said(r, p.officer, "SOLD KNM-1 1 2 50000 TO Joseph, Chathamangalam DECLARED")
    page = await case_page(r, p.officer, "KNM-1")
    assert "The sale began on 16 Nov 2026 (s.15(1))." in page
    assert "Auction fixed (s.15(1))" in page
    assert "Lot offered at auction (s.15(1))" in page
    assert "(s.13(3))" not in page
    assert "The sale began on 16 Nov 2026 (s.15(1))." in await status(r, "KNM-1")
    on(r, 17)
    await said(r, p.officer, "SETTLE KNM-1 0")
    assert "The cattle were sold by public auction (s.15(1))." in await status(r, "KNM-1")
    # The unclaimed buffalo's steps cite s.13(3), and only that.
    assert "KNM-2" in await said(r, p.keeper, f"SEIZE 1 buffalo AT {MARKET}")
    on(r, 25)
    await said(r, p.keeper, "REPORT KNM-2")
    await said(r, p.officer, f"NOTICE KNM-2 AT Kunnamangalam, {MARKET}")
    on(r, 30)
    auction = await case_page(r, p.officer, "KNM-2")
    assert "Fix the auction (s.13(3))" in auction
    await said(r, p.officer, f"AUCTION KNM-2 ON 03-12-2026 AT {MARKET}")
    r.clock.set(datetime(2026, 12, 3, 10, 0, tzinfo=LOCAL_TZ))
    await said(r, p.officer, "SOLD KNM-2 1 1 20000 TO Mammu, Kunnamangalam DECLARED")
    await said(r, p.officer, "SETTLE KNM-2 0")
    unclaimed = await case_page(r, p.officer, "KNM-2")
    assert "Auction fixed (s.13(3))" in unclaimed
    assert "Lot offered at auction (s.13(3))" in unclaimed
    assert "s.15(1)" not in unclaimed
    told = await status(r, "KNM-2")
    assert "The cattle were sold by public auction (s.13(3))." in told
    assert "s.15(1)" not in told
