"""Telegram unreachable at start-up does not take SMS and the rest down with it, and the
channel comes up by itself once Telegram can be reached."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.channels.telegram import connect as telegram_connect
from bot.channels.telegram.webhook import TelegramOptions
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.fakes.loopback import bind, serve
from bot.fakes.telegram_api import TOKEN, FakeTelegram, TelegramUser, Updates

SECRET = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends


async def test_the_app_starts_without_telegram_and_answers_its_updates_503(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        telegram_token="123:ABC",
        telegram_secret="s3cret",
        telegram_api_url=f"http://127.0.0.1:{_closed_port()}/bot",
    )
    url = f"sqlite+aiosqlite:///{tmp_path / 'tg.sqlite3'}"
    app = build_app(lambda: open_app(url=url), settings)
    with caplog.at_level(logging.ERROR, logger="poundbot"):
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client,
        ):
            health = await client.get("/healthz")
            update = await client.post(
                "/telegram",
                json={"update_id": 1},
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
            )
    assert health.status_code == 200
    assert update.status_code == 503
    assert any("Telegram: could not start" in r.getMessage() for r in caplog.records)


async def test_telegram_reached_later_brings_the_channel_up_without_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(telegram_connect, "START_RETRY_FIRST", 0.05)
    sock = bind()  # Telegram's address is known, but nothing answers there yet
    settings = Settings(
        telegram_token=TOKEN,
        telegram_secret="s3cret",
        telegram_api_url=f"http://127.0.0.1:{sock.getsockname()[1]}/bot",
    )
    url = f"sqlite+aiosqlite:///{tmp_path / 'tg.sqlite3'}"
    options = TelegramOptions(chat_interval=0, rate_limit=False)
    app = build_app(lambda: open_app(url=url), settings, options)
    fake, updates, stranger = FakeTelegram(), Updates(), TelegramUser(4242, "Sreeja")
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client,
    ):
        down = await client.post("/telegram", json=updates.text(stranger, "/start"), headers=SECRET)
        assert down.status_code == 503
        async with serve(fake.app(), sock):  # the link is back
            await fake.wait_for("getMe")
            # The channel is published once its first sweep of the inbox is done; no
            # event marks that outside the app, so look (bounded by the test's timeout).
            while app.state.telegram is None:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            up = await client.post(
                "/telegram", json=updates.text(stranger, "/start"), headers=SECRET
            )
            assert up.status_code == 200
            (reply,) = await fake.wait_for("sendMessage")
            assert reply.params["chat_id"] == stranger.id
            fake.close()


async def test_a_refused_token_is_reported_and_not_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeTelegram()
    async with serve(fake.app()) as fake_url:
        settings = Settings(
            telegram_token="123:not-the-token",
            telegram_secret="s3cret",
            telegram_api_url=f"{fake_url}/bot",
        )
        app = build_app(
            lambda: open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'tg.sqlite3'}"), settings
        )
        with caplog.at_level(logging.ERROR, logger="poundbot"):
            async with app.router.lifespan_context(app):
                tasks = {t.get_coro().__qualname__ for t in asyncio.all_tasks()}  # type: ignore[union-attr]
        fake.close()
    assert "start_later" not in tasks
    assert any("TELEGRAM_BOT_TOKEN" in r.getMessage() for r in caplog.records)
