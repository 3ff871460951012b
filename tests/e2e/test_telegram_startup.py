"""Telegram unreachable at start-up does not take SMS and the rest down with it."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import httpx
import pytest

from bot.app import build_app
from bot.bootstrap import open_app
from bot.settings import Settings


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
