"""A link signature, a cookie, a form's security field or a number in a path that holds
characters outside ASCII is refused as any wrong value is (403, 404, or the sign-in page
for a session nobody has), never a server error. Real HTTP requests into the ASGI app,
its errors answered as a server answers them (500), not raised into the test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from bot.web.session import COOKIE, FLASH_COOKIE, SIGNIN_COOKIE
from tests.web.rig import Rig, rig

SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Ravi 9847012345"

#: (what is probed, method, path, Cookie header, form, the answer). The Cookie header is
#: sent as UTF-8 bytes, as a browser or a script may; the server reads it as Latin-1.
UNSIGNED = [
    ("photo signature", "GET", "/photo/1/é", "", None, 404),
    ("thumbnail signature", "GET", "/photo/1/thumb/ééé", "", None, 404),
    ("photo id in superscript digits", "GET", "/photo/²³/abc", "", None, 404),
    ("photo id in Malayalam digits", "GET", "/photo/൧/thumb/abc", "", None, 404),
    ("notice signature", "GET", "/notice/KNM-1/2026-03-10/é", "", None, 404),
    ("notice number", "GET", "/notice/KNM-൧/2026-03-10/abc", "", None, 404),
    ("notice date", "GET", "/notice/KNM-1/２０２６-03-10/abc", "", None, 404),
    ("session cookie", "GET", "/web/", f"{COOKIE}=x.é", None, 303),
    ("session cookie, no dot", "GET", "/web/cases", f"{COOKIE}=ééé", None, 303),
    ("session cookie on a step", "POST", "/web/cases/KNM-1/paid", f"{COOKIE}=x.é", {}, 303),
    ("session cookie on signing out", "POST", "/web/signout", f"{COOKIE}=é.é", {}, 303),
    ("page number", "GET", "/web/cases?page=²", "", None, 303),
    ("sign-in token", "GET", "/web/signin/éééééééééééééééééééééé", "", None, 403),
]


@asynccontextmanager
async def _browser(
    r: Rig, cookies: httpx.Cookies | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app that gets a 500 as an answer, as a browser would."""
    transport = httpx.ASGITransport(r.asgi, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=r.origin, cookies=cookies) as client:
        yield client


async def _send(
    client: httpx.AsyncClient, method: str, path: str, cookie: str, form: dict[str, str] | None
) -> httpx.Response:
    headers: dict[str, str | bytes] = {"Origin": "http://desk.test"}
    if cookie:
        headers["Cookie"] = cookie.encode()
    return await client.request(method, path, headers=headers, data=form)


@pytest.mark.parametrize(
    ("method", "path", "cookie", "form", "status"),
    [probe[1:] for probe in UNSIGNED],
    ids=[probe[0] for probe in UNSIGNED],
)
async def test_a_value_outside_ascii_is_refused_without_signing_in(
    tmp_path: Path,
    method: str,
    path: str,
    cookie: str,
    form: dict[str, str] | None,
    status: int,
) -> None:
    async with rig(tmp_path) as r, _browser(r) as client:
        answer = await _send(client, method, path, cookie, form)
    assert answer.status_code == status, answer.text[:300]


async def test_a_sign_in_with_a_pre_session_or_field_outside_ascii_is_refused(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r, _browser(r) as client:
        path = await r.link(await r.user("officer", authority="KNM-GP"))
        page = await _send(client, "GET", path, f"{SIGNIN_COOKIE}={'é' * 32}", None)
        assert page.status_code == 200  # a pre-session it did not make is replaced
        for cookie, field in (
            (f"{SIGNIN_COOKIE}={'é' * 32}", "ééé"),
            (f"{SIGNIN_COOKIE}={'e' * 32}", "ééé"),
            (f"{SIGNIN_COOKIE}={'é' * 32}", "e" * 32),
        ):
            refused = await _send(client, "POST", path, cookie, {"signin": field})
            assert refused.status_code == 403, (cookie, field)
        assert (await r.press(path)).status_code == 303  # the link was not used up


async def test_a_signed_in_form_with_a_security_field_outside_ascii_is_refused(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        async with _browser(r, r.client.cookies) as client:
            for path, form in (
                ("/web/cases/KNM-1/paid", {"csrf": "ééé", "seen": "1"}),
                ("/web/cases/KNM-1/paid", {"csrf": "é" * 32, "seen": "1"}),
                ("/web/signout", {"csrf": "ééé"}),
            ):
                answer = await client.post(path, data=form, headers={"Origin": r.origin})
                assert answer.status_code == 403, (path, form)
            session = r.client.cookies[COOKIE]
            flash = f"{COOKIE}={session}; {FLASH_COOKIE}=é.é"
            page = await _send(client, "GET", "/web/cases/KNM-1", flash, None)
            assert page.status_code == 200  # a flash it did not make is not shown
            listing = await client.get("/web/cases", params={"page": "²"})
            assert listing.status_code == 200
        assert (await r.client.get("/web/cases/KNM-1")).status_code == 200  # still signed in
