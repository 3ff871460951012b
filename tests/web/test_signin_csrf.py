"""Login CSRF: a page on another site that makes a browser post a sign-in link (the
attacker's own) must not sign the victim in as the attacker. A sign-in POST is taken
only from a page of this server (Origin, else Referer) and only with the pre-session
token its page (GET) set (cookie + hidden field). Real HTTP requests into the ASGI app."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.rig import Rig, rig

_FIELD = re.compile(r'name="signin" value="([^"]+)"')


async def _opened(r: Rig, path: str) -> str:
    """The sign-in page opened in the client's browser: its hidden field."""
    page = await r.client.get(path)
    assert page.status_code == 200
    assert "poundbot_signin=" in page.headers["set-cookie"]
    assert "SameSite=strict" in page.headers["set-cookie"]
    found = _FIELD.search(page.text)
    assert found, page.text
    return found.group(1)


def _refused(response_status: int, headers: dict[str, str]) -> None:
    assert response_status == 403
    assert "poundbot_session" not in headers.get("set-cookie", "")


async def test_a_post_from_another_site_is_refused_and_the_link_still_works(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        path = await r.link(officer)
        field = await _opened(r, path)
        for headers in (
            {"Origin": "https://evil.example"},
            {"Origin": "http://desk.test.evil.example"},
            {"Origin": "https://desk.test"},  # another scheme is another origin
            {"Origin": "null"},  # a sandboxed frame, a data: URL
            {"Referer": "https://evil.example/page"},
            {"Origin": "https://evil.example", "Referer": "http://desk.test/web/signin"},
        ):
            refused = await r.client.post(path, data={"signin": field}, headers=headers)
            _refused(refused.status_code, dict(refused.headers))
            assert "പേജ് വീണ്ടും തുറന്ന്" in refused.text, headers  # "Open the page again"
        assert (await r.client.get("/web/")).status_code == 303  # not signed in
        assert (await r.press(path)).status_code == 303  # the link was not used up
        assert (await r.client.get("/web/")).status_code == 200


async def test_a_post_with_no_origin_and_no_referer_is_refused(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        path = await r.link(officer)
        field = await _opened(r, path)
        refused = await r.client.post(path, data={"signin": field})
        _refused(refused.status_code, dict(refused.headers))


async def test_a_referer_of_this_server_is_enough_without_an_origin(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        path = await r.link(officer)
        field = await _opened(r, path)
        headers = {"Referer": f"http://desk.test{path}"}
        signed = await r.client.post(path, data={"signin": field}, headers=headers)
        assert signed.status_code == 303
        assert "poundbot_session=" in signed.headers["set-cookie"]


async def test_the_attackers_auto_submitted_form_signs_no_one_in(tmp_path: Path) -> None:
    """The attack as it happens: the attacker's own link, posted by the victim's browser,
    which never opened the sign-in page (no pre-session cookie)."""
    async with rig(tmp_path) as r:
        attacker = await r.user("officer", authority="KNM-GP", name="Mallory")
        path = await r.link(attacker)
        for headers in ({"Origin": "https://evil.example"}, {"Origin": r.origin}):
            posted = await r.client.post(path, data={}, headers=headers)
            _refused(posted.status_code, dict(posted.headers))
        assert (await r.client.get("/web/")).status_code == 303


async def test_a_missing_or_mismatched_pre_session_token_is_refused(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP")
        path = await r.link(officer)
        field = await _opened(r, path)
        origin = {"Origin": r.origin}
        cookie = r.client.cookies["poundbot_signin"]
        for form in ({}, {"signin": ""}, {"signin": field[:-2] + "AA"}, {"signin": cookie}):
            refused = await r.client.post(path, data=form, headers=origin)
            _refused(refused.status_code, dict(refused.headers))
        # The field without its cookie; the cookie of another browser with this field.
        r.client.cookies.delete("poundbot_signin")
        refused = await r.client.post(path, data={"signin": field}, headers=origin)
        _refused(refused.status_code, dict(refused.headers))
        r.client.cookies.set("poundbot_signin", "B" * 32, path="/web/signin")
        refused = await r.client.post(path, data={"signin": field}, headers=origin)
        _refused(refused.status_code, dict(refused.headers))
        # Opened again in this browser: the normal flow signs in, and the cookie goes.
        signed = await r.press(path)
        assert signed.status_code == 303
        assert 'poundbot_signin=""' in signed.headers.get_list("set-cookie")[-1]


async def test_the_normal_flow_signs_in_and_two_tabs_share_the_token(tmp_path: Path) -> None:
    async with rig(tmp_path, public_url="https://desk.test") as r:
        officer = await r.user("officer", authority="KNM-GP")
        first, second = await r.link(officer), await r.link(officer)
        field_one = await _opened(r, first)
        field_two = await _opened(r, second)  # a second tab keeps the pre-session
        assert field_one == field_two
        signed = await r.client.post(
            first, data={"signin": field_one}, headers={"Origin": "https://desk.test:443"}
        )
        assert signed.status_code == 303
        assert (await r.client.get("/web/")).status_code == 200
