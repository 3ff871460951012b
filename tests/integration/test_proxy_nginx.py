"""The shipped nginx configuration, run for real in front of poundbot: every route a
person uses answers through it, and ``/metrics`` does not. nginx is Debian's
(``.ci/run`` installs ``nginx-light``); without it the test cannot run and says so.

By default the poundbot behind nginx is this checkout's app, in process. With
``POUNDBOT_PROXY_UPSTREAM=http://127.0.0.1:PORT`` it is a server already running there:
``.ci/wheel-check`` points it at the wheel's ``poundbot serve``, installed from the
runtime lock outside the checkout."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.loopback import bind, serve

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
#: A poundbot already serving (``.ci/wheel-check``'s installed wheel); unset: the app in process.
UPSTREAM = os.environ.get("POUNDBOT_PROXY_UPSTREAM", "")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (.ci/run installs it)"
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


def _config(folder: Path, listen: int, upstream: str) -> Path:
    """deploy/nginx.conf's locations in a server of their own: on a loopback port, without
    TLS, passing to ``upstream`` (the test's poundbot)."""
    shipped = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    locations = re.findall(r"^\s*location .*\}\s*$", shipped.split("ssl_protocols")[1], re.M)
    assert locations, "no location lines found in deploy/nginx.conf"
    params = folder / "proxy_params"
    params.write_text(
        Path("/etc/nginx/proxy_params").read_text()
        if Path("/etc/nginx/proxy_params").exists()
        else "proxy_set_header Host $http_host;\n"
    )
    body = "\n".join(
        line.replace("http://127.0.0.1:8080", upstream).replace(
            "/etc/nginx/proxy_params", str(params)
        )
        for line in locations
    )
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        "events {}\n"
        f"http {{\n access_log off;\n client_body_temp_path {folder};\n"
        f" proxy_temp_path {folder};\n client_max_body_size 2m;\n"
        f" server {{\n  listen 127.0.0.1:{listen};\n{body}\n }}\n}}\n"
    )
    return conf


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
async def nginx_in_front(tmp_path: Path) -> AsyncIterator[str]:
    async with poundbot(tmp_path) as upstream:
        sock = bind()
        port = sock.getsockname()[1]
        sock.close()
        assert NGINX is not None
        conf = _config(tmp_path, port, upstream)
        proc = await asyncio.create_subprocess_exec(NGINX, "-c", str(conf), "-p", str(tmp_path))
        try:
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base) as client:
                for _ in range(200):
                    try:
                        await client.get("/healthz")
                        break
                    except httpx.TransportError:
                        await asyncio.sleep(0.05)
            yield base
        finally:
            proc.terminate()
            await asyncio.wait_for(proc.wait(), timeout=10)


async def test_every_route_a_person_uses_answers_through_the_shipped_nginx(
    tmp_path: Path,
) -> None:
    async with nginx_in_front(tmp_path) as base, httpx.AsyncClient(base_url=base) as client:
        # poundbot sets its security headers on every answer; nginx's own 404 has none.
        for method, path in THROUGH:
            got = await client.request(method, path)
            assert "content-security-policy" in got.headers, f"{method} {path}: {got.status_code}"
        health = await client.get("/healthz")
        metrics = await client.get("/metrics")
    assert health.json() == {"status": "ok"}
    assert metrics.status_code == 404
    assert "content-security-policy" not in metrics.headers  # nginx's, not poundbot's
