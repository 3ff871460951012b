"""The desk offers an officer only the steps they may take: under the Cattle-trespass
Act, 1871 the notice is the officer in charge of the police station's (s.14, para 2),
so where an officer of the authority holds that office the case page offers its form to
that officer alone; where none holds it, to every officer, as before offices were
declared (``bot.services.base.may_take``, the rule the step's refusal applies)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.channels.identity import caller_of
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871
from tests.service.helpers import open_as_given, seizure
from tests.web.rig import Rig, rig

_STEP = re.compile(r'action="/web/cases/KNM-1/(\w+)"')


async def _reported_1871(r: Rig) -> None:
    """KNM-1, under the 1871 Act, brought in on the rig's day and reported unclaimed
    on the ninth day (s.14, para 1)."""
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    brought = r.clock.now().astimezone(LOCAL_TZ).replace(tzinfo=None)
    seized = dataclasses.replace(seizure(at=brought), act=CATTLE_TRESPASS_1871.key)
    async with r.app.store.transaction() as tx:
        await open_as_given(tx, r.app.deps, caller_of(keeper, "sms"), seized)
    r.clock.advance(days=8)
    assert "KNM-1" in await r.say(keeper, "REPORT KNM-1")


async def _offered(r: Rig, offices: Sequence[str], other: Sequence[str]) -> list[str]:
    """The steps KNM-1's page offers an officer of KNM-GP holding ``offices``, beside
    another holding ``other``."""
    await r.user("officer", authority="KNM-GP", phone="+919847000021", offices=other)
    officer = await r.user("officer", authority="KNM-GP", phone="+919847000020", offices=offices)
    await r.sign_in(officer)
    page = await r.client.get("/web/cases/KNM-1")
    assert page.status_code == 200
    return _STEP.findall(page.text)


@pytest.mark.parametrize(
    ("offices", "other", "offered"),
    [
        pytest.param(["police_station"], ["district_magistrate"], True, id="holder"),
        pytest.param(["district_magistrate"], ["police_station"], False, id="not-the-holder"),
        pytest.param([], [], True, id="none-declared"),
        pytest.param(["district_magistrate"], ["secretary"], True, id="none-holds"),
    ],
)
async def test_the_notice_is_offered_to_the_holder_of_the_police_stations_office(
    tmp_path: Path, offices: list[str], other: list[str], offered: bool
) -> None:
    async with rig(tmp_path) as r:
        await _reported_1871(r)
        steps = await _offered(r, offices, other)
    assert ("notice" in steps) is offered
    assert "correct" in steps  # what is for no office, every officer is offered


async def test_the_next_step_does_not_link_to_a_form_that_is_not_offered(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported_1871(r)
        await r.user(
            "officer", authority="KNM-GP", phone="+919847000021", offices=["police_station"]
        )
        magistrate = await r.user(
            "officer", authority="KNM-GP", phone="+919847000020", offices=["district_magistrate"]
        )
        await r.sign_in(magistrate)
        page = (await r.client.get("/web/cases/KNM-1")).text
    nxt = page.split('class="next')[1].split("</p>")[0]
    assert "(s.14, para 2)" in nxt
    assert "#step-notice" not in nxt
