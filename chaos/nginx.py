"""The shipped nginx (deploy/nginx.conf) run on loopback in front of poundbot: its headers
to poundbot and its locations, in a server of its own without TLS, passing to one
poundbot or to an ``upstream`` of several. nginx is Debian's (``.ci/run`` installs
``nginx-light``); ``NGINX`` is None where it is not installed."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from bot.fakes.loopback import bind

__all__ = ["DEPLOY", "NGINX", "config", "running"]

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
#: Where the shipped configuration passes to (deploy/poundbot.service's poundbot).
SHIPPED_UPSTREAM = "http://127.0.0.1:8080"


def config(folder: Path, listen: int, upstreams: Sequence[str]) -> Path:
    """deploy/nginx.conf's HTTPS server, its headers to poundbot and its locations, in a
    server of its own: on a loopback port, without TLS, passing to ``upstreams`` (base
    URLs): one as the shipped file passes to its one, several through an ``upstream``
    block (nginx's defaults: round robin; ``proxy_next_upstream error timeout``, so a
    request is passed to the next server only when the one it was passed to could not be
    reached or failed — a POST only if nothing of it had been sent yet)."""
    server = (DEPLOY / "nginx.conf").read_text(encoding="utf-8").split("ssl_protocols")[1]
    headers = re.findall(r"^\s*proxy_set_header .*;\s*$", server, re.M)
    locations = re.findall(r"^\s*location .*\}\s*$", server, re.M)
    assert headers, "no proxy_set_header lines found in deploy/nginx.conf"
    assert locations, "no location lines found in deploy/nginx.conf"
    assert upstreams, "nginx needs a poundbot to pass to"
    upstream_block = ""
    if len(upstreams) == 1:
        target = upstreams[0]
    else:
        members = "".join(f"  server {url.removeprefix('http://')};\n" for url in upstreams)
        upstream_block = f" upstream poundbot {{\n{members} }}\n"
        target = "http://poundbot"
    body = "\n".join([*headers, *(line.replace(SHIPPED_UPSTREAM, target) for line in locations)])
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        "events {}\n"
        f"http {{\n access_log off;\n client_body_temp_path {folder};\n"
        f" proxy_temp_path {folder};\n client_max_body_size 2m;\n{upstream_block}"
        f" server {{\n  listen 127.0.0.1:{listen};\n{body}\n }}\n}}\n"
    )
    return conf


@asynccontextmanager
async def running(folder: Path, upstreams: Sequence[str]) -> AsyncIterator[str]:
    """The base URL of the shipped nginx (on 127.0.0.1) in front of ``upstreams``."""
    if NGINX is None:
        raise RuntimeError("nginx is not installed (.ci/run installs it)")
    sock = bind()
    port = sock.getsockname()[1]
    sock.close()
    conf = config(folder, port, upstreams)
    proc = await asyncio.create_subprocess_exec(NGINX, "-c", str(conf), "-p", str(folder))
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
