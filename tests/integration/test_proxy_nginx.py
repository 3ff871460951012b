"""The shipped nginx configuration, run for real in front of poundbot: every route a
person uses answers through it, and ``/metrics`` does not; with the shipped settings,
only the provider's address passes an allow-list, whatever a client writes in its
headers. nginx is Debian's (``.ci/run`` installs ``nginx-light``); without it the test
cannot run and says so.

By default the poundbot behind nginx is this checkout's app, in process. With
``POUNDBOT_PROXY_UPSTREAM=http://127.0.0.1:PORT`` it is a server already running there:
``.ci/wheel-check`` points the routes' test at the wheel's ``poundbot serve``, installed
from the runtime lock outside the checkout (the allow-list's test always runs its own,
with Exotel or Mobile Seva faked on loopback)."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.loopback import serve
from chaos import nginx
from tests.e2e.india_harness import india_rig
from tests.e2e.test_client_address import from_peer, sms, stored

#: A poundbot already serving (``.ci/wheel-check``'s installed wheel); unset: the app in process.
UPSTREAM = os.environ.get("POUNDBOT_PROXY_UPSTREAM", "")

pytestmark = pytest.mark.skipif(
    nginx.NGINX is None, reason="nginx is not installed (.ci/run installs it)"
)

#: (method, path) a person's browser or a provider sends, each through the proxy.
THROUGH = [
    ("GET", "/healthz"),
    ("GET", "/web"),
    ("GET", "/web/"),
    ("GET", "/web/signin"),
    ("GET", "/web/signin/Fo7mIbcVr239YP1JHyf7jHj8dYuJxiAaURjpMlIL55g"),
    ("GET", "/web/cases"),
    ("GET", "/web/static/desk.css"),
    ("GET", "/notices/KNM-GP"),
    ("GET", "/notice/KNM-1/2026-03-01/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
    ("GET", "/photo/1/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
    ("GET", "/source"),
    ("POST", "/twilio/sms"),
    ("POST", "/telegram"),
]


@asynccontextmanager
async def poundbot(tmp_path: Path) -> AsyncIterator[str]:
    """The base URL of the poundbot nginx passes to."""
    if UPSTREAM:
        yield UPSTREAM
        return
    settings = Settings(public_url="http://pound.test", link_secret="s" * 32)
    asgi = build_app(
        lambda: open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}"), settings=settings
    )
    async with serve(asgi) as upstream:
        yield upstream


@asynccontextmanager
async def nginx_in_front(tmp_path: Path, upstream: str) -> AsyncIterator[str]:
    """The base URL of the shipped nginx (on 127.0.0.1) in front of ``upstream``."""
    async with nginx.running(tmp_path, [upstream]) as base:
        yield base


async def test_every_route_a_person_uses_answers_through_the_shipped_nginx(
    tmp_path: Path,
) -> None:
    async with (
        poundbot(tmp_path) as upstream,
        nginx_in_front(tmp_path, upstream) as base,
        httpx.AsyncClient(base_url=base) as client,
    ):
        # poundbot sets its security headers on every answer; nginx's own 404 has none.
        for method, path in THROUGH:
            got = await client.request(method, path)
            assert "content-security-policy" in got.headers, f"{method} {path}: {got.status_code}"
        health = await client.get("/healthz")
        metrics = await client.get("/metrics")
    assert health.json() == {"status": "ok"}
    assert metrics.status_code == 404
    assert "content-security-policy" not in metrics.headers  # nginx's, not poundbot's


def shipped_settings() -> dict[str, str]:
    """The settings deploy/env.example sets (its lines not commented out)."""
    text = (nginx.DEPLOY / "env.example").read_text(encoding="utf-8")
    return dict(re.findall(r"^([A-Z][A-Z0-9_]+)=(.*)$", text, re.M))


@pytest.mark.parametrize("provider", ["exotel", "mseva"])
async def test_through_the_shipped_nginx_only_the_providers_address_passes_the_allow_list(
    tmp_path: Path, provider: str
) -> None:
    """The shipped settings trust the shipped nginx; the allow-list names the provider,
    played here by 127.0.0.2 (every address of 127.0.0.0/8 is this machine)."""
    shipped = Settings.from_env(shipped_settings())
    assert shipped.trusted_proxies == ("127.0.0.1/32",)  # where the shipped nginx connects from
    production = {
        f"{provider}_allow": ("127.0.0.2/32",),
        "trusted_proxies": shipped.trusted_proxies,
    }
    async with (
        india_rig(tmp_path, provider, **production) as rig,
        nginx_in_front(tmp_path, str(rig.http.base_url)) as base,
        from_peer(base, "127.0.0.2") as the_provider,
        from_peer(base, "127.0.0.3") as another,
        from_peer(base, "127.0.0.1") as on_the_proxys_own_address,
    ):
        assert (await sms(rig, the_provider, "s-01")).status_code == 200
        assert await stored(rig) == 1
        refused = [
            (another, {}),
            (another, {"X-Forwarded-For": "127.0.0.2"}),
            (another, {"X-Forwarded-For": "127.0.0.2, 127.0.0.2"}),
            (another, {"X-Real-IP": "127.0.0.2", "Forwarded": "for=127.0.0.2"}),
            # A client on the proxy's own address cannot borrow its trust either.
            (on_the_proxys_own_address, {"X-Forwarded-For": "127.0.0.2"}),
        ]
        for n, (client, headers) in enumerate(refused, start=10):
            got = await sms(rig, client, f"s-{n}", **headers)
            assert got.status_code == 404, headers
            assert "content-security-policy" in got.headers  # poundbot's 404, not nginx's
        assert await stored(rig) == 1
