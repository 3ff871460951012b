"""Who sent a request, for the allow-lists of Exotel and Mobile Seva: the connecting
address, or the one a trusted reverse proxy names in ``X-Forwarded-For``
(``POUNDBOT_TRUSTED_PROXIES``, 127.0.0.1 unless set) and never one a client names
itself. poundbot runs under uvicorn on loopback; a client bound to another loopback
address (127.0.0.2, 127.0.0.3) plays a peer that is not the proxy."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from bot.entry.cli import main
from bot.fakes.loopback import bind
from bot.store.models import InboxRow
from tests.e2e.india_harness import KEYWORD, SECRET, IndiaRig, india_rig

#: The provider's address in these tests (a documentation range), and a stranger's.
PROVIDER, STRANGER = "203.0.113.7", "198.51.100.9"
ALLOW = ("203.0.113.0/24",)
PROVIDERS = ["exotel", "mseva"]


async def stored(rig: IndiaRig) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(InboxRow)) or 0)


def from_peer(base: str | httpx.URL, address: str) -> httpx.AsyncClient:
    """A client of the server at ``base`` whose connections come from ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(transport=transport, base_url=base)


async def sms(rig: IndiaRig, http: httpx.AsyncClient, sid: str, **headers: str) -> httpx.Response:
    """An SMS as the provider in use brings it (a new one each ``sid``)."""
    if rig.provider == "exotel":
        params = {"SmsSid": sid, "From": "09847000010", "To": "08047091234", "Body": "HELP"}
        return await http.get(f"/exotel/sms/{SECRET}", params=params, headers=headers)
    params = {
        "mobileNumber": "9847000010",
        "timeStamp": f"2026-03-01 10:00:{sid[-2:]}",
        "operatorName": "",
        "areaCode": "",
        "message": f"{KEYWORD} HELP",
    }
    return await http.get(f"/mseva/pull/{SECRET}", params=params, headers=headers)


def allow(provider: str, networks: tuple[str, ...] = ALLOW) -> dict[str, Any]:
    return {f"{provider}_allow": networks}


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_address_the_trusted_proxy_forwards_is_the_one_the_allow_list_checks(
    tmp_path: Path, provider: str
) -> None:
    async with india_rig(tmp_path, provider, **allow(provider)) as rig:
        # rig.http connects from 127.0.0.1: the proxy of the shipped settings.
        through = await sms(rig, rig.http, "s-01", **{"X-Forwarded-For": PROVIDER})
        assert through.status_code == 200
        assert await stored(rig) == 1
        refused = {
            "the proxy itself, naming no one": {},
            "a stranger, as the proxy saw it": {"X-Forwarded-For": STRANGER},
            # The proxy appends the address it saw: what stands left of it is the client's.
            "a forged address before the stranger's": {
                "X-Forwarded-For": f"{PROVIDER}, {STRANGER}"
            },
            "X-Real-IP, which poundbot does not read": {"X-Real-IP": PROVIDER},
            "Forwarded, which poundbot does not read": {"Forwarded": f"for={PROVIDER}"},
        }
        for n, (what, headers) in enumerate(refused.items(), start=10):
            got = await sms(rig, rig.http, f"s-{n}", **headers)
            assert got.status_code == 404, what
        two = await rig.http.get(
            f"/mseva/pull/{SECRET}" if provider == "mseva" else f"/exotel/sms/{SECRET}",
            headers=[("X-Forwarded-For", PROVIDER), ("X-Forwarded-For", STRANGER)],
        )
        assert two.status_code == 404  # two headers read as one list: the stranger is last
        assert await stored(rig) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_x_forwarded_for_from_a_peer_that_is_not_a_trusted_proxy_is_ignored(
    tmp_path: Path, provider: str
) -> None:
    async with (
        india_rig(tmp_path, provider, **allow(provider, ("127.0.0.2/32",))) as rig,
        from_peer(rig.http.base_url, "127.0.0.2") as provider_peer,
        from_peer(rig.http.base_url, "127.0.0.3") as stranger,
    ):
        assert (await sms(rig, provider_peer, "s-01")).status_code == 200
        for n, forged in enumerate(["127.0.0.2", "127.0.0.1", "127.0.0.2, 127.0.0.2"], start=10):
            got = await sms(rig, stranger, f"s-{n}", **{"X-Forwarded-For": forged})
            assert got.status_code == 404, forged
        assert await stored(rig) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_trusted_proxies_are_the_ones_configured_and_none_may_be(
    tmp_path: Path, provider: str
) -> None:
    elsewhere = {**allow(provider), "trusted_proxies": ("127.0.0.2/32",)}
    async with (
        india_rig(tmp_path, provider, **elsewhere) as rig,
        from_peer(rig.http.base_url, "127.0.0.2") as proxy,
    ):
        assert (await sms(rig, proxy, "s-01", **{"X-Forwarded-For": PROVIDER})).status_code == 200
        # 127.0.0.1 is trusted by default only: set otherwise, it is a client like any other.
        got = await sms(rig, rig.http, "s-02", **{"X-Forwarded-For": PROVIDER})
        assert got.status_code == 404
        assert await stored(rig) == 1
    (tmp_path / "none").mkdir()
    async with india_rig(tmp_path / "none", provider, **allow(provider), trusted_proxies=()) as rig:
        got = await sms(rig, rig.http, "s-01", **{"X-Forwarded-For": PROVIDER})
        assert got.status_code == 404
        assert await stored(rig) == 0


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_asgi_app_itself_reads_the_address_a_trusted_proxy_forwards(
    tmp_path: Path, provider: str
) -> None:
    """Under any ASGI server, not only under ``poundbot serve``'s uvicorn."""
    async with india_rig(tmp_path, provider, **allow(provider)) as rig:

        def peer(host: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=rig.server, client=(host, 40000))
            return httpx.AsyncClient(transport=transport, base_url="http://t")

        async with peer("127.0.0.1") as proxy, peer(STRANGER) as stranger:
            assert (
                await sms(rig, proxy, "s-01", **{"X-Forwarded-For": PROVIDER})
            ).status_code == 200
            forged = await sms(rig, stranger, "s-02", **{"X-Forwarded-For": PROVIDER})
            assert forged.status_code == 404
        assert await stored(rig) == 1


def test_a_trusted_proxy_setting_that_is_not_an_address_is_refused() -> None:
    assert Settings.from_env({}).trusted_proxies == ("127.0.0.1/32",)
    assert Settings.from_env({"POUNDBOT_TRUSTED_PROXIES": " "}).trusted_proxies == ("127.0.0.1/32",)
    assert Settings.from_env({"POUNDBOT_TRUSTED_PROXIES": "none"}).trusted_proxies == ()
    both = Settings.from_env({"POUNDBOT_TRUSTED_PROXIES": "127.0.0.1, ::1 10.0.0.0/8"})
    assert both.trusted_proxies == ("127.0.0.1/32", "::1/128", "10.0.0.0/8")
    for bad in ("*", "localhost", "127.0.0.1/33", "none 127.0.0.1"):
        with pytest.raises(ValueError, match="POUNDBOT_TRUSTED_PROXIES"):
            Settings.from_env({"POUNDBOT_TRUSTED_PROXIES": bad})


MSEVA_ENV = {
    "POUNDBOT_SMS_PROVIDER": "mseva",
    "POUNDBOT_WEBHOOK_SECRET": SECRET,
    "MSEVA_USERNAME": "kldept01",
    "MSEVA_PASSWORD": "mseva-pass1",
    "MSEVA_SENDER_ID": "KLPOUND",
    "MSEVA_SECURE_KEY": "9a8b7c6d-secure-key",
    "MSEVA_KEYWORD": KEYWORD,
    "POUNDBOT_MSEVA_ALLOW": ALLOW[0],
}


@contextmanager
def served_by_poundbot_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """The ASGI app and the uvicorn options ``poundbot serve`` starts with ``env``."""
    import uvicorn

    given: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: given.append((app, kwargs)))
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}")
    # No SMS may leave the machine: the push API is a closed loopback port.
    closed = bind()
    monkeypatch.setenv("MSEVA_API_URL", f"http://127.0.0.1:{closed.getsockname()[1]}/esms")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    try:
        assert main(["serve"]) == 0
        (served,) = given
        yield served
    finally:
        closed.close()


async def ask_as(base: str, peer: str, forwarded: str) -> int:
    transport = httpx.AsyncHTTPTransport(local_address=peer)
    async with httpx.AsyncClient(transport=transport, base_url=base) as http:
        params = {"mobileNumber": "9847000010", "timeStamp": "2026-03-01 10:00:00"}
        params["message"] = f"{KEYWORD} HELP"
        headers = {"X-Forwarded-For": forwarded}
        return (await http.get(f"/mseva/pull/{SECRET}", params=params, headers=headers)).status_code


async def statuses(app: Any, options: dict[str, Any]) -> dict[str, int]:
    import uvicorn

    sock = bind()
    options = {**options, "log_level": "warning"}
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **options))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(1000):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        return {
            "stranger naming the provider": await ask_as(base, "127.0.0.2", PROVIDER),
            "the proxy naming the provider": await ask_as(base, "127.0.0.1", PROVIDER),
        }
    finally:
        server.should_exit = True
        await task
        sock.close()


def test_poundbot_serve_trusts_its_own_setting_not_uvicorns_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn alone would read ``FORWARDED_ALLOW_IPS`` (``*``: every peer a proxy)."""
    with served_by_poundbot_serve(
        tmp_path, monkeypatch, {**MSEVA_ENV, "FORWARDED_ALLOW_IPS": "*"}
    ) as (app, options):
        got = asyncio.run(statuses(app, options))
    assert got == {"stranger naming the provider": 404, "the proxy naming the provider": 200}
    with sqlite3.connect(tmp_path / "pb.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM inbox").fetchone() == (1,)


def test_poundbot_serve_trusts_the_proxies_it_is_told_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {**MSEVA_ENV, "POUNDBOT_TRUSTED_PROXIES": "127.0.0.2"}
    with served_by_poundbot_serve(tmp_path, monkeypatch, env) as (app, options):
        got = asyncio.run(statuses(app, options))
    assert got == {"stranger naming the provider": 200, "the proxy naming the provider": 404}


EXOTEL_ENV = {
    "POUNDBOT_SMS_PROVIDER": "exotel",
    "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
    "POUNDBOT_WEBHOOK_SECRET": SECRET,
    "EXOTEL_API_KEY": "key",
    "EXOTEL_API_TOKEN": "token",
    "EXOTEL_ACCOUNT_SID": "sid",
    "EXOTEL_SUBDOMAIN": "api.in.exotel.com",
    "EXOTEL_FROM": "08047091234",
}


@pytest.mark.parametrize(
    ("env", "variable"),
    [(EXOTEL_ENV, "POUNDBOT_EXOTEL_ALLOW"), (MSEVA_ENV, "POUNDBOT_MSEVA_ALLOW")],
    ids=["exotel", "mseva"],
)
def test_the_startup_report_warns_when_an_unsigned_providers_webhook_takes_any_address(
    env: dict[str, str], variable: str
) -> None:
    signed = {"POUNDBOT_SECRET": "s" * 32}  # no warning about the links
    open_to_all = {**env, **signed, variable: ""}
    (warning,) = [line for line in report(open_to_all) if line.startswith("WARNING ")]
    assert f"from any address ({variable} is not set)" in warning
    assert SECRET not in warning
    allowed = {**env, **signed, variable: "203.0.113.0/24"}
    assert not [line for line in report(allowed) if "WARNING" in line]
    # Twilio signs its requests, and SMS off has no webhook: nothing to warn of.
    twilio = {
        **signed,
        "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
        "TWILIO_ACCOUNT_SID": "AC" + "0" * 32,
        "TWILIO_AUTH_TOKEN": "token",
        "TWILIO_FROM_NUMBER": "+14155550100",
    }
    for other in (signed, twilio):
        assert not [line for line in report(other) if "WARNING" in line]


def test_the_startup_report_says_whose_x_forwarded_for_is_believed() -> None:
    assert (
        "Clients: the connecting address, or the one in X-Forwarded-For when it is a "
        "trusted proxy: 127.0.0.1 (POUNDBOT_TRUSTED_PROXIES)"
    ) in report({})
    named = report({"POUNDBOT_TRUSTED_PROXIES": "10.0.0.0/8 ::1"})
    assert any(line.endswith("proxy: 10.0.0.0/8, ::1 (POUNDBOT_TRUSTED_PROXIES)") for line in named)
    none = report({"POUNDBOT_TRUSTED_PROXIES": "none"})
    assert "Clients: the connecting address (POUNDBOT_TRUSTED_PROXIES=none: no proxy)" in none


def report(env: dict[str, str]) -> list[str]:
    from sqlalchemy.engine import make_url

    from bot.bootstrap import load
    from bot.entry.app import report_lines

    settings = Settings.from_env(env)
    lines = report_lines(load(), make_url("sqlite+aiosqlite://"), env, settings=settings)
    # The sample's tariffs are marked as sample figures, warned of on a line of its own.
    return [line for line in lines if "SAMPLE figure" not in line]
