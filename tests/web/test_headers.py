"""Every response of the server carries the security headers (``bot.web.headers``): the
router is walked, every route with each of its methods, signed in and not, and the
pages need nothing the Content-Security-Policy forbids (no inline style or script)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.support.links import notice_path
from bot.web.headers import CSP
from tests.web.rig import SECRET, Rig, rig

#: A value for each path parameter of the router. A new route with a parameter not named
#: here fails ``test_every_route_is_walked`` until it is given one.
SAMPLES = {
    "token": "Fo7mIbcVr239YP1JHyf7jHj8dYuJxiAaURjpMlIL55g",
    "number": "KNM-1",
    "step": "paid",
    "code": "en",
    "authority": "KNM-GP",
    "on": "2026-03-01",
    "signature": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "photo_id": "1",
    "message_id": "1",
    "user_id": "1",
    "change": "edit",
    "version_id": "1",
    "name": "KNM-GP",
    "secret": "the-webhook-secret-of-the-provider-0123456789",
}
_PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")


def requests_of(routes: list[BaseRoute]) -> Iterator[tuple[str, str]]:
    """(method, path) for every route of the router and each of its methods."""
    for route in routes:
        if isinstance(route, Mount):
            yield "GET", f"{route.path}/desk.css"
            yield "GET", f"{route.path}/no-such-file.css"
        elif isinstance(route, Route):
            path = _PARAM.sub(lambda m: SAMPLES[m.group(1)], route.path)
            for method in sorted(route.methods or ()):
                yield method, path
        else:  # pragma: no cover - the app has no other kind of route
            raise AssertionError(f"unexpected route {route!r}")
    yield "GET", "/no/such/page"
    yield "DELETE", "/web/cases"  # a method the route does not take: 405


def check(response: httpx.Response, method: str, path: str, *, signed_in: bool) -> None:
    where = (method, path, response.status_code)
    headers = response.headers
    assert headers.get("content-security-policy") == CSP, where
    assert "frame-ancestors 'none'" in CSP
    assert "default-src 'self'" in CSP
    assert headers.get("x-frame-options") == "DENY", where
    assert headers.get("x-content-type-options") == "nosniff", where
    # No URL of ours (a sign-in token, a signed notice or photo link) reaches another site.
    assert headers.get("referrer-policy") == "same-origin", where
    static = path.startswith("/web/static/")
    if not static and (signed_in or path == "/web" or path.startswith("/web/")):
        assert "no-store" in headers.get("cache-control", ""), where
    if "text/html" in headers.get("content-type", "") and method != "HEAD":
        assert "<script" not in response.text, where
        assert "<style" not in response.text, where
        assert not re.search(r"\sstyle=", response.text), where
        assert not re.search(r"\son[a-z]+=", response.text), where


def test_every_route_is_walked() -> None:
    asgi = _all_channels()
    for route in asgi.routes:  # each gives a request (a parameter without a sample fails)
        assert len(list(requests_of([route]))) > 2, route
    walked = {path for _, path in requests_of(asgi.routes)}
    assert {"/twilio/sms", "/telegram", "/web/signin/" + SAMPLES["token"]} <= walked
    for provider, path in (("exotel", "/exotel/sms/"), ("mseva", "/mseva/pull/")):
        routes = _all_channels(provider).routes
        assert path + SAMPLES["secret"] in {p for _, p in requests_of(routes)}


async def _walk(r: Rig, *, signed_in: bool) -> int:
    count = 0
    for method, path in requests_of(r.asgi.routes):
        data = {"csrf": "x", "seen": "0"} if method == "POST" else None
        response = await r.client.request(method, path, data=data)
        check(response, method, path, signed_in=signed_in)
        count += 1
    return count


async def test_every_route_sends_the_security_headers(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, "SEIZE 2 cow (brown) AT Kunnamangalam market")
        assert await _walk(r, signed_in=False) > 30
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        await _walk(r, signed_in=True)
        # A real notice link and the board, signed in or not, and the sign-in pages.
        notice = notice_path(SECRET, "KNM-1", date(2026, 3, 1))
        for path in (notice, "/notices/KNM-GP", "/web/signin", "/healthz"):
            check(await r.client.get(path), "GET", path, signed_in=True)


async def test_the_pages_shown_need_nothing_the_policy_forbids(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, "SEIZE 2 cow (brown) AT Kunnamangalam market")
        link = await r.link(keeper)
        check(await r.client.get(link), "GET", link, signed_in=False)
        await r.sign_in(keeper)
        for path in ("/web/", "/web/cases", "/web/cases/KNM-1", "/web/documents/"):
            page = await r.client.get(path)
            assert page.status_code == 200, path
            check(page, "GET", path, signed_in=True)
            for href in re.findall(r'(?:href|src)="(/web/static/[^"]+)"', page.text):
                assert (await r.client.get(href)).status_code == 200, href


def _all_channels(provider: str = "twilio") -> Starlette:
    """The app with every channel switched on, SMS through ``provider`` (its routes, not
    its lifespan)."""
    settings = Settings(
        public_url="http://desk.test",
        link_secret=SECRET,
        telegram_token="123:abc",
        telegram_secret="telegram-secret",
        twilio_sid="AC" + "0" * 32,
        twilio_token="twilio-token",
        twilio_from="+15005550006",
        twilio_whatsapp_from="whatsapp:+15005550006",
        metrics_token="metrics-token",
        sms_provider=provider,
        webhook_secret=SAMPLES["secret"],
        exotel_api_key="key",
        exotel_api_token="token",
        exotel_account_sid="sid",
        exotel_subdomain="api.in.exotel.com",
        exotel_from="08047000000",
        mseva_username="user",
        mseva_password="password",
        mseva_sender_id="KLPNDB",
        mseva_secure_key="key",
        mseva_keyword="POUND",
    )
    assert settings.sms_off_reason() is None, settings.sms_off_reason()
    return build_app(lambda: open_app(url="sqlite+aiosqlite://"), settings=settings)


@pytest.mark.parametrize("provider", ["twilio", "exotel", "mseva"])
@pytest.mark.parametrize("signed_in", [False, True])
async def test_every_route_of_every_channel_sends_them_even_while_starting(
    signed_in: bool, provider: str
) -> None:
    """Before the lifespan has run, every route answers 503 or fails: each such answer,
    a 500 included, still carries the headers."""
    asgi = _all_channels(provider)
    transport = httpx.ASGITransport(asgi, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://desk.test") as client:
        if signed_in:
            client.cookies.set("poundbot_session", "a.b")
        for method, path in requests_of(asgi.routes):
            response = await client.request(method, path)
            check(response, method, path, signed_in=signed_in)
