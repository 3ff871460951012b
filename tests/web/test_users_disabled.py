"""A user disabled by the administrator is signed out at once, through real HTTP: the
cookie of their session opens nothing from the next request on, and their session stays
ended when they are enabled again."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from bot.services.admin import disable_user, enable_user
from bot.store.models import WebSession
from bot.support.caller import Caller
from tests.web.rig import rig


async def test_a_disabled_keeper_s_next_request_is_sent_to_sign_in_and_stays_so(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", name="Sreeja")
        await r.sign_in(keeper)
        assert (await r.client.get("/web/")).status_code == 200
        async with r.app.store.transaction() as tx:
            await disable_user(tx, r.app.deps, Caller.system(), keeper.id, reason="left")
        page = await r.client.get("/web/")
        assert (page.status_code, page.headers["location"]) == (303, "/web/signin")
        async with r.app.store.transaction() as tx:
            ended = await tx.session.scalars(
                select(WebSession.ended_at).where(WebSession.user_id == keeper.id)
            )
            assert [at is not None for at in ended] == [True]
            await enable_user(tx, r.app.deps, Caller.system(), keeper.id, reason="back")
        page = await r.client.get("/web/")
        assert (page.status_code, page.headers["location"]) == (303, "/web/signin")
