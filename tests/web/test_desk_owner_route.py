"""The desk and the board on the owner's way back after refusing:

- s.14 after a refusal: the deposit form is offered while the ten days of s.19 run and
  no head is sold, and records the deposit (the auction fixed cancelled); once the ten
  days ended it is not offered;
- after a refused account (s.15(5)): the printable notice and the public board state
  the cattle still in the pound, say the owner may still claim them paying what the
  earlier sale left unmet, and the keeper's payment form is offered and takes it.
"""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, rig
from tests.web.test_desk import _step

SEIZE_TWO = "SEIZE 2 cow (brown, white patch) AT Kunnamangalam market OWNER Ravi 9847012345"
SEIZE_THREE = "SEIZE 3 cow (brown, white patch) AT Kunnamangalam market OWNER Ravi 9847012345"
MARKET = "Kunnamangalam market"


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


def _forms(page: str) -> set[str]:
    return set(re.findall(r'action="/web/cases/KNM-1/(\w+)"', page))


async def test_the_deposit_form_is_offered_after_a_refusal_within_the_ten_days_s14(
    desk: Rig,
) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020")
    await r.say(keeper, SEIZE_TWO)  # 1 March: the ten days of s.19 end on 11 March
    r.clock.advance(days=2)
    await r.say(keeper, "REFUSED KNM-1")
    await r.say(officer, f"AUCTION KNM-1 ON 10-03-2026 AT {MARKET}")
    r.clock.advance(days=2)  # 5 March
    await r.sign_in(keeper)
    page = await r.client.get("/web/cases/KNM-1")
    assert {"deposited", "paid"} <= _forms(page.text), _forms(page.text)
    done = html.unescape(await _step(r, "KNM-1", "deposited"))
    assert "delivered (s.14)" in done, done
    assert "The auction fixed for 10 Mar 2026 is cancelled." in done
    async with r.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage.value == "on_deposit"


async def test_the_deposit_form_is_not_offered_once_the_ten_days_ended_s19(desk: Rig) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    await r.say(keeper, SEIZE_TWO)
    r.clock.advance(days=2)
    await r.say(keeper, "REFUSED KNM-1")
    r.clock.advance(days=8)  # 11 March: the last day
    await r.sign_in(keeper)
    assert "deposited" in _forms((await r.client.get("/web/cases/KNM-1")).text)
    r.clock.advance(days=1)  # 12 March
    await r.sign_in(keeper)
    forms = _forms((await r.client.get("/web/cases/KNM-1")).text)
    assert "deposited" not in forms, forms
    assert "paid" in forms  # s.12: the owner may still pay until a head is sold


async def _second_round_noticed(r: Rig) -> None:
    """3 cows in on 1 March; refused on 3 March; one sold on 6 March, settled; the
    account refused (s.15(5)); the 2 left reported on 9 March, noticed on 10 March."""
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020")
    await r.say(keeper, SEIZE_THREE)
    r.clock.advance(days=2)
    await r.say(keeper, "REFUSED KNM-1")
    await r.say(officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500")
    r.clock.advance(days=3)
    await r.say(officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED")
    await r.say(officer, "SETTLE KNM-1 500")
    await r.say(officer, "NORECEIPT KNM-1")
    r.clock.advance(days=3)
    await r.say(keeper, "REPORT KNM-1")
    r.clock.advance(days=1)
    await r.say(officer, f"NOTICE KNM-1 AT Kunnamangalam, {MARKET}")
    async with r.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage.value == "notice_posted"


async def test_after_a_refused_account_notice_and_board_state_the_cattle_left_s15_5(
    desk: Rig,
) -> None:
    r = desk
    await _second_round_noticed(r)
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000030")
    await r.sign_in(officer)
    sent = await r.client.get("/web/cases/KNM-1/notice")
    assert sent.status_code == 303
    notice = html.unescape((await r.client.get(sent.headers["location"])).text)
    (item_a,) = re.findall(
        r"<dt>\(a\) Number and description of the cattle:</dt>\s*<dd>(.*?)</dd>", notice
    )
    assert item_a.startswith("2 cows"), item_a
    assert "3 cows" not in notice
    assert "less what the earlier sale met (s.12, s.15(2))" in notice
    assert "held in deposit (s.16(3))" in notice
    board = html.unescape((await r.client.get("/notices/KNM-GP?lang=en")).text)
    assert "KNM-1 — 2 cows" in board, board
    assert "3 cows" not in board
    assert "less what the earlier sale met (s.12, s.15(2))" in board


async def test_after_a_refused_account_the_keeper_takes_the_payment_on_the_desk_s12(
    desk: Rig,
) -> None:
    r = desk
    await _second_round_noticed(r)
    keeper = await r.user("keeper", pound="KNM", phone="+919847000040")
    await r.sign_in(keeper)
    assert "paid" in _forms((await r.client.get("/web/cases/KNM-1")).text)
    done = html.unescape(await _step(r, "KNM-1", "paid"))
    assert "2 cows released (s.12)" in done, done
    async with r.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage.value == "in_deposit"
    board = html.unescape((await r.client.get("/notices/KNM-GP?lang=en")).text)
    assert "KNM-1" not in board
