"""``poundbot web-link --user N`` prints a single-use sign-in link that opens the desk."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.entry.cli import main


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'poundbot.sqlite3'}"
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.setenv("POUNDBOT_PUBLIC_URL", "https://desk.example.org/")
    return url


async def _open_desk(url: str, path: str) -> tuple[int, int]:
    asgi = build_app(
        lambda: open_app(url=url), settings=Settings(public_url="https://desk.example.org")
    )
    async with (
        asgi.router.lifespan_context(asgi),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(asgi), base_url="https://desk.example.org"
        ) as client,
    ):
        page = await client.get(path)
        field = re.search(r'name="signin" value="([^"]+)"', page.text)
        form = {"signin": field.group(1)} if field else {}
        headers = {"Origin": "https://desk.example.org"}
        signed = await client.post(path, data=form, headers=headers)
        return signed.status_code, (await client.get("/web/")).status_code


def test_web_link_prints_a_link_that_signs_in_once(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["users", "add", "--role", "officer", "--authority", "KNM-GP"]) == 0
    user_id = re.search(r"user (\d+)", capsys.readouterr().out)
    assert user_id
    assert main(["web-link", "--user", user_id.group(1)]) == 0
    out = capsys.readouterr().out
    found = re.match(r"https://desk\.example\.org(/web/signin/[A-Za-z0-9_-]+)\n", out)
    assert found, out
    assert "valid 15 minutes, once" in out
    assert asyncio.run(_open_desk(db, found.group(1))) == (303, 200)
    assert asyncio.run(_open_desk(db, found.group(1)))[0] == 403


def test_web_link_for_an_unknown_user_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["web-link", "--user", "99"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("poundbot: error: ")
