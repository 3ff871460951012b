"""The web desk shows each case in its own Act's citations: a case under the
Cattle-trespass Act, 1871 cites "s.14, para 1" where a Kerala case cites "s.13(1)", on
its page and on the public board; it does not offer the owner's refusal of the account
(Kerala's s.15(5), which that Act lacks), and a refusal sent anyway says why."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from bot.channels.identity import caller_of
from bot.store.models import User
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, DEFAULT_ACT
from domain.stages import Stage
from tests.service.helpers import open_as_given, seizure
from tests.unit.test_render_reasons import NO_S15_5
from tests.web.rig import Rig, rig, step_form

_EVENT = re.compile(r"<li><strong>[^<]*</strong> — ([^<]*?) \(([^)]*\)?)\);")


async def _seize(r: Rig, keeper: User, act: str) -> None:
    """The next case of KNM, brought in on the rig's day, under ``act``."""
    brought = r.clock.now().astimezone(LOCAL_TZ).replace(tzinfo=None)
    seized = dataclasses.replace(seizure(at=brought), act=act)
    async with r.app.store.transaction() as tx:
        await open_as_given(tx, r.app.deps, caller_of(keeper, "sms"), seized)


async def _two_reported(r: Rig) -> User:
    """KNM-1 under the 1871 Act and KNM-2 under the Kerala Act, reported unclaimed."""
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    await _seize(r, keeper, CATTLE_TRESPASS_1871.key)
    await _seize(r, keeper, DEFAULT_ACT)
    r.clock.advance(days=8)
    for number in ("KNM-1", "KNM-2"):
        assert "KNM" in await r.say(keeper, f"REPORT {number}")
    return keeper


async def test_a_case_page_cites_the_cases_own_act(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _two_reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        under_1871 = (await r.client.get("/web/cases/KNM-1")).text
        kerala = (await r.client.get("/web/cases/KNM-2")).text
    # The timeline: each event with the provision it was recorded under.
    assert _cited(under_1871) == ["s.8", "s.14, para 1"]
    assert _cited(kerala) == ["s.7", "s.13(1)"]
    # The next step: the notice, due the day of the report (s.13(2); 1871 s.14 para 2).
    assert "(s.14, para 2)" in under_1871.split('class="next')[1].split("</p>")[0]
    assert "(s.13(2))" in kerala.split('class="next')[1].split("</p>")[0]


def _cited(page: str) -> list[str]:
    """The provisions the timeline cites, in order."""
    timeline = page.split('id="timeline"')[1]
    return [provision for _, provision in _EVENT.findall(timeline)]


async def test_the_public_board_cites_each_notice_under_its_cases_act(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _two_reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        for number in ("KNM-1", "KNM-2"):
            await r.say(officer, f"NOTICE {number} AT Kunnamangalam, Kunnamangalam market")
        board = (await r.client.get("/notices/KNM-GP?lang=en")).text
    first, second = board.split('<article class="notice"')[1:3]
    assert "KNM-1" in first
    assert "(s.14, para 2)" in first
    assert "(s.13(2))" not in first
    assert "KNM-2" in second
    assert "(s.13(2))" in second


async def test_the_desk_does_not_offer_a_refused_account_under_the_1871_act(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await _seize(r, keeper, CATTLE_TRESPASS_1871.key)
        officer = await r.user("officer", authority="KNM-GP")
        r.clock.advance(days=1)
        await r.say(keeper, "REFUSED KNM-1")
        await r.say(officer, "AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
        r.clock.advance(days=3)
        await r.say(officer, "SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED")
        await r.say(officer, "SETTLE KNM-1 500")
        async with r.app.store.transaction() as tx:
            assert (await tx.load_case("KNM-1")).case.stage is Stage.ACCOUNT_DUE
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        offered = re.findall(r'action="/web/cases/KNM-1/(\w+)"', page)
        assert "receipt" in offered
        assert "account_refused" not in offered
        # Sent anyway (a form kept from elsewhere): refused, with the reason, nothing recorded.
        sent = await r.client.post(
            "/web/cases/KNM-1/account_refused", data={**step_form(page), "on": ""}
        )
        assert sent.status_code == 409
        assert NO_S15_5["en"] in sent.text
        async with r.app.store.transaction() as tx:
            assert (await tx.load_case("KNM-1")).case.stage is Stage.ACCOUNT_DUE
