"""The desk's correction form and what a posted notice stated (s.13(2)): once the cattle
were sold on the notice, the form refuses the place seized with the reason, in the
officer's language, and still corrects the seizer (a fact the notice does not state);
before any offer, it answers that the notice no longer stands and the auction fixed on
it is cancelled."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.i18n import fmt, translator
from bot.i18n.common import cite
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, rig
from tests.web.test_desk import _step

SEIZE = "SEIZE 1 buffalo (black, cut left ear) AT Kunnamangalam market OWNER Ravi 9847012345"
NOTICE = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        yield r


async def test_the_desk_refuses_the_place_after_the_sale_and_corrects_the_seizer(
    desk: Rig,
) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020", lang="ml")
    await r.say(keeper, SEIZE)
    r.clock.advance(days=8)  # 9 March
    await r.say(keeper, "REPORT KNM-1")
    r.clock.advance(days=1)  # 10 March
    await r.say(officer, NOTICE)
    await r.say(officer, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    r.clock.advance(days=8)  # 18 March
    await r.say(officer, "SOLD KNM-1 1 1 20000 TO Joseph Mathew, Chowwannur DECLARED")
    await r.say(officer, "SETTLE KNM-1 500")  # the surplus in deposit (s.16(3))
    await r.sign_in(officer)
    refused = html.unescape(
        await _step(
            r, "KNM-1", "correct", status=409, field="place", value="Pathimangalam", reason="x"
        )
    )
    assert fmt.date(date(2026, 3, 10), "ml") in refused, refused  # the notice's day
    assert cite("s.13(2)", translator("ml")) in refused
    async with r.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.seizure.place_seized == "Kunnamangalam market"
    done = await _step(r, "KNM-1", "correct", field="seizer", value="Rajan K", reason="name")
    assert "KNM-1" in done
    async with r.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.seizure.seizer is not None
    assert case.seizure.seizer.name == "Rajan K"


async def test_the_desk_says_the_notice_no_longer_stands_and_the_auction_is_cancelled(
    desk: Rig,
) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020")
    await r.say(keeper, SEIZE)
    r.clock.advance(days=8)
    await r.say(keeper, "REPORT KNM-1")
    r.clock.advance(days=1)
    await r.say(officer, NOTICE)
    await r.say(officer, "AUCTION KNM-1 ON 20-03-2026 AT Kunnamangalam market")
    r.clock.advance(days=2)  # 12 March
    await r.sign_in(officer)
    done = html.unescape(
        await _step(
            r, "KNM-1", "correct", field="place", value="Pathimangalam junction", reason="typo"
        )
    )
    assert (
        "The notice of 10 Mar 2026 no longer stands: post a new notice (the form “Notice "
        "posted and proclaimed (s.13(2))” below); the auction fixed for 20 Mar 2026 is "
        "cancelled (s.13(2), s.13(3))."
    ) in done, done
    assert "The owner will be told by SMS." in done
    page = await r.client.get("/web/cases/KNM-1")
    assert 'action="/web/cases/KNM-1/notice"' in page.text  # the notice is to post again
    assert 'action="/web/cases/KNM-1/auction"' not in page.text
