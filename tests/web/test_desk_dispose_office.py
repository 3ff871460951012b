"""The desk's DISPOSE form (s.13(3) proviso) offers the configured offices that may order
another disposal, by their full names in the desk's language; the office chosen is
recorded, and any other name sent is refused, naming the office in full. On SQLite and
PostgreSQL."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.config import sample_config_path
from domain.calendar import LOCAL_TZ
from domain.events import DisposedOtherwise
from tests.conftest import ENGINES, PG_URL
from tests.web.rig import Rig, rig, step_form

_OPTIONS = re.compile(r'<select id="dispose-person" name="person">(.*?)</select>', re.S)


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


def on(r: Rig, day: int) -> None:
    r.clock.set(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))


def reply_of(page: str) -> str:
    found = re.search(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', page, re.S)
    assert found, "no reply shown"
    return html.unescape(found.group(1))


async def test_the_dispose_form_offers_the_configured_offices_by_their_full_names(
    desk: Rig,
) -> None:
    keeper = await desk.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await desk.user(
        "officer", authority="KNM-GP", phone="+919847000020", name="Latha", lang="ta"
    )
    await desk.say(keeper, "SEIZE 2 cow AT Kunnamangalam market; brown")
    on(desk, 9)
    await desk.say(keeper, "REPORT KNM-1")
    on(desk, 10)
    await desk.say(officer, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await desk.say(officer, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    on(desk, 18)
    await desk.sign_in(officer)
    page = (await desk.client.get("/web/cases/KNM-1")).text
    options = _OPTIONS.search(page)
    assert options, page[-4000:]
    # In Tamil, the office's full Tamil name (the SMS carries its short form).
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', options.group(1)) == [
        ("DIRECTOR", "கால்நடைப் பராமரிப்புத் துறை இயக்குநர்")
    ]
    form = {"lot": "1", "count": "1", "reference": "DO-4/2026", "description": "goshala"}
    # A name that is not the office's, sent as a browser could: refused, nothing recorded.
    refused = await desk.client.post(
        "/web/cases/KNM-1/dispose",
        data={**step_form(page), **form, "person": "Deputy Director of Panchayats"},
    )
    assert refused.status_code == 409
    text = reply_of(refused.text)
    assert "கால்நடைப் பராமரிப்புத் துறை இயக்குநர்" in text, text
    assert "DIRECTOR" in text
    done = await desk.client.post(
        "/web/cases/KNM-1/dispose", data={**step_form(refused.text), **form, "person": "DIRECTOR"}
    )
    assert done.status_code == 303, done.text[-2000:]
    shown = reply_of((await desk.client.get(done.headers["location"])).text)
    assert "கால்நடைப் பராமரிப்புத் துறை இயக்குநர்" in shown, shown
    async with desk.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    event = case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    assert event.ordered_by == "Director of Animal Husbandry"
    assert case.heads_remaining == 1


#: KNM-GP applies the Cattle-trespass Act, 1871 from 1 February 2026, before the intake.
_CENTRAL = '\n[[authorities.acts]]\nact = "cattle-trespass-1871"\nfrom = 2026-02-01\n'
_KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'


@pytest.fixture
async def desk_1871(
    tmp_path: Path, database: str | None, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Rig]:
    """The desk of a configuration whose KNM-GP applies the 1871 Act."""
    sample = sample_config_path().read_text(encoding="utf-8")
    path = tmp_path / "poundbot.toml"
    path.write_text(sample.replace(_KNM_GP_END, _KNM_GP_END + _CENTRAL, 1), encoding="utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(path))
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with rig(tmp_path, url=database) as r:
        yield r


async def test_under_the_1871_act_the_form_offers_the_district_magistrate_alone(
    desk_1871: Rig,
) -> None:
    desk = desk_1871
    keeper = await desk.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await desk.user(
        "officer", authority="KNM-GP", phone="+919847000020", name="Latha", lang="ml"
    )
    await desk.say(keeper, "SEIZE 2 cow AT Kunnamangalam market; brown")
    on(desk, 9)
    await desk.say(keeper, "REPORT KNM-1")
    on(desk, 10)
    await desk.say(officer, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    on(desk, 18)
    await desk.sign_in(officer)
    page = (await desk.client.get("/web/cases/KNM-1")).text
    options = _OPTIONS.search(page)
    assert options, page[-4000:]
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', options.group(1)) == [
        ("DM", "ജില്ലാ മജിസ്ട്രേറ്റ്")
    ]
    form = {"lot": "1", "count": "1", "reference": "DO-4/2026", "description": "goshala"}
    refused = await desk.client.post(
        "/web/cases/KNM-1/dispose", data={**step_form(page), **form, "person": "DIRECTOR"}
    )
    assert refused.status_code == 409
    text = reply_of(refused.text)
    assert "ജില്ലാ മജിസ്ട്രേറ്റ്" in text, text
    assert "DM" in text
    done = await desk.client.post(
        "/web/cases/KNM-1/dispose", data={**step_form(refused.text), **form, "person": "DM"}
    )
    assert done.status_code == 303, done.text[-2000:]
    async with desk.app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    event = case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    assert event.ordered_by == "District Magistrate"
