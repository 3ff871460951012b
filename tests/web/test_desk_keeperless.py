"""A pound whose keeper is disabled is shown on the desk as without a keeper until one is
named: on its officer's Today and on its cases' pound line; a pound that never had a
keeper is not, and the line goes once a keeper is named again (or enabled). On SQLite
and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.config.names import local
from bot.services.admin import disable_user, enable_user
from bot.support.caller import Caller
from tests.web.rig import Rig, rig
from tests.web.test_admin_scope import url

__all__ = ["url"]  # the fixture: None (the rig's SQLite) or a new PostgreSQL database

WITHOUT = "without a keeper until one is named"


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        yield r


async def test_a_pound_whose_keeper_is_disabled_is_without_a_keeper_until_one_is_named(
    desk: Rig,
) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    await r.say(keeper, "SEIZE 1 cow AT Kunnamangalam market")
    officer = await r.user("officer", authority="KNM-GP", name="Latha")
    await r.sign_in(officer)
    knm = local(r.app.config.pounds["KNM"].name, "en")
    ptm = local(r.app.config.pounds["PTM"].name, "en")  # never had a keeper
    assert WITHOUT not in (await r.client.get("/web/")).text
    assert WITHOUT not in (await r.client.get("/web/cases/KNM-1")).text
    async with r.app.store.transaction() as tx:
        await disable_user(tx, r.app.deps, Caller.system(), keeper.id, reason="left the post")
    today = (await r.client.get("/web/")).text
    assert "Pounds without a keeper" in today
    assert f"{knm}: {WITHOUT}" in today
    assert f"{ptm}: {WITHOUT}" not in today
    case = (await r.client.get("/web/cases/KNM-1")).text
    assert f"{knm} — <strong>{WITHOUT}</strong>" in case
    async with r.app.store.transaction() as tx:
        await enable_user(tx, r.app.deps, Caller.system(), keeper.id, reason="back")
    assert WITHOUT not in (await r.client.get("/web/")).text
    async with r.app.store.transaction() as tx:
        await disable_user(tx, r.app.deps, Caller.system(), keeper.id, reason="left again")
    await r.user("keeper", pound="KNM", phone="+919847000011", name="Anil")  # named
    assert WITHOUT not in (await r.client.get("/web/")).text
    assert WITHOUT not in (await r.client.get("/web/cases/KNM-1")).text
