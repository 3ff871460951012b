"""The web desk refuses what it must: a link used twice, an expired link, a forged
cookie, a form without its CSRF token, another authority's case, a removed user."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from bot.services.admin import remove_user
from bot.store.models import CaseEvent, WebLink, WebSession
from bot.support.caller import Caller
from tests.web.rig import Rig, csrf_of, rig, step_form


async def _events(r: Rig, number: str) -> int:
    async with r.app.store.transaction() as tx:
        loaded = await tx.load_case(number)
        return int(
            await tx.session.scalar(select(func.count()).where(CaseEvent.case_id == loaded.row.id))
            or 0
        )


async def test_a_link_signs_in_once_and_a_second_use_is_refused(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        path = await r.link(officer)
        first = await r.press(path)
        assert first.status_code == 303
        assert first.headers["location"] == "/web/"
        r.client.cookies.clear()
        second = await r.press(path)
        assert second.status_code == 403
        assert "set-cookie" not in second.headers
        assert "ഈ ലിങ്ക് ഉപയോഗിക്കാനാവില്ല" in second.text  # in Malayalam before sign-in
        assert (await r.client.get("/web/")).status_code == 303


async def test_a_link_older_than_15_minutes_is_refused(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        fresh, stale = await r.link(officer), await r.link(officer)
        r.clock.advance(minutes=14, seconds=59)
        assert (await r.press(fresh)).status_code == 303
        r.client.cookies.clear()
        r.clock.advance(seconds=1)
        refused = await r.press(stale)
        assert refused.status_code == 403
        assert "set-cookie" not in refused.headers


async def test_a_forged_or_foreign_cookie_opens_nothing(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        good = r.client.cookies["poundbot_session"]
        token, _, signature = good.rpartition(".")
        for forged in (
            f"{token}.{'A' * len(signature)}",  # the token, another signature
            f"{'B' * len(token)}.{signature}",  # another token, the signature
            token,  # no signature at all
            "",
        ):
            r.client.cookies.clear()
            r.client.cookies.set("poundbot_session", forged)
            page = await r.client.get("/web/cases")
            assert page.status_code == 303, forged
            assert page.headers["location"] == "/web/signin"
        r.client.cookies.clear()
        r.client.cookies.set("poundbot_session", good)
        assert (await r.client.get("/web/cases")).status_code == 200


async def test_a_step_without_its_csrf_token_changes_nothing(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, "SEIZE 2 cow (brown) AT Kunnamangalam market")
        await r.sign_in(keeper)
        page = await r.client.get("/web/cases/KNM-1")
        assert 'action="/web/cases/KNM-1/paid"' in page.text
        before = await _events(r, "KNM-1")
        for form in ({}, {"csrf": ""}, {"csrf": "not-the-token"}):
            refused = await r.client.post("/web/cases/KNM-1/paid", data=form)
            assert refused.status_code == 403
        assert await _events(r, "KNM-1") == before
        done = await r.client.post("/web/cases/KNM-1/paid", data=step_form(page.text))
        assert done.status_code == 303
        assert await _events(r, "KNM-1") == before + 1


async def test_sign_out_needs_its_csrf_token_and_ends_the_session(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        cookie = r.client.cookies["poundbot_session"]
        page = await r.client.get("/web/")
        assert (await r.client.post("/web/signout", data={})).status_code == 403
        assert (await r.client.get("/web/")).status_code == 200
        out = await r.client.post("/web/signout", data={"csrf": csrf_of(page.text)})
        assert out.status_code == 303
        r.client.cookies.set("poundbot_session", cookie)  # a copy kept of the cookie
        assert (await r.client.get("/web/")).status_code == 303


async def test_an_officer_of_another_authority_cannot_open_or_act_on_a_case(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, "SEIZE 2 cow (brown) AT Kunnamangalam market")
        await r.say(keeper, "REPORT KNM-1")
        own = await r.user("officer", authority="KNM-GP")
        other = await r.user("officer", authority="ENM-GP")
        await r.sign_in(other)
        page = await r.client.get("/web/cases/KNM-1")
        assert page.status_code == 404
        assert "Kunnamangalam market" not in page.text
        listing = await r.client.get("/web/cases")
        assert "KNM-1" not in listing.text
        csrf = csrf_of((await r.client.get("/web/")).text)
        before = await _events(r, "KNM-1")
        acted = await r.client.post(
            "/web/cases/KNM-1/notice", data={"csrf": csrf, "places": "Kunnamangalam"}
        )
        assert acted.status_code == 404
        assert await _events(r, "KNM-1") == before
        r.client.cookies.clear()
        await r.sign_in(own)
        assert (await r.client.get("/web/cases/KNM-1")).status_code == 200


async def test_a_removed_users_session_ends_at_once(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        assert (await r.client.get("/web/")).status_code == 200
        async with r.app.store.transaction() as tx:
            await remove_user(tx, r.app.deps, Caller.system(), officer.id)
        assert (await r.client.get("/web/")).status_code == 303


async def test_the_session_lasts_12_hours(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        r.clock.advance(hours=11, minutes=59)
        assert (await r.client.get("/web/")).status_code == 200
        r.clock.advance(minutes=1)
        assert (await r.client.get("/web/")).status_code == 303


async def test_the_cookie_is_httponly_lax_and_secure_under_https(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        cookie = (await r.sign_in(officer)).headers["set-cookie"]
        assert "HttpOnly" in cookie
        assert "SameSite=lax" in cookie
        assert "Max-Age=43200" in cookie
        assert "Secure" not in cookie
    async with rig(tmp_path / "s", public_url="https://desk.test") as r:
        officer = await r.user("officer", authority="KNM-GP")
        assert "Secure" in (await r.sign_in(officer)).headers["set-cookie"]


async def test_only_hashes_of_the_tokens_are_stored(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        path = await r.link(officer)
        await r.press(path)
        link_token = path.rsplit("/", 1)[1]
        session_token = r.client.cookies["poundbot_session"].rpartition(".")[0]
        async with r.app.store.transaction() as tx:
            stored = [
                *(await tx.session.execute(select(WebLink.token_hash))).scalars(),
                *(await tx.session.execute(select(WebSession.token_hash))).scalars(),
            ]
        assert len(stored) == 2
        assert link_token not in stored
        assert session_token not in stored
        assert all(len(h) == 64 for h in stored)


async def test_a_page_without_a_session_sends_to_the_sign_in_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        for path in ("/web/", "/web/cases", "/web/cases/KNM-1"):
            page = await r.client.get(path)
            assert page.status_code == 303
            assert page.headers["location"] == "/web/signin"
        assert (await r.client.post("/web/cases/KNM-1/paid", data={})).status_code == 303


def test_a_sign_in_token_never_reaches_the_logs() -> None:
    from bot.observe.logsafe import redact

    token = "Fo7mIbcVr239YP1JHyf7jHj8dYuJxiAaURjpMlIL55g"
    line = f'127.0.0.1:5000 - "GET /web/signin/{token} HTTP/1.1" 200'
    assert redact(line) == '127.0.0.1:5000 - "GET /web/signin/[token] HTTP/1.1" 200'


async def test_pages_answer_503_while_poundbot_starts(tmp_path: Path) -> None:
    import httpx
    from starlette.applications import Starlette

    from bot.web.app import web_routes

    asgi = Starlette(routes=web_routes("secret-of-a-test-desk", "http://t"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(asgi), base_url="http://t") as c:
        for path in ("/web/", "/web/signin", "/notices/KNM-GP"):
            assert (await c.get(path)).status_code == 503
