"""The app starts on its embedded defaults and answers its health check over HTTP."""

from __future__ import annotations

from pathlib import Path

import httpx

from bot.app import build_app, startup_report
from bot.bootstrap import open_app


async def test_healthz_answers_ok_once_the_database_is_migrated(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}"
    app = build_app(lambda: open_app(url=url))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client,
    ):
        response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_the_startup_report_says_what_is_off_and_why(tmp_path: Path) -> None:
    async with open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}") as app:
        report = startup_report(app, env={})
    assert "Telegram: off (no TELEGRAM_BOT_TOKEN)" in report
    assert any(line.startswith("SMS: off (no TWILIO_ACCOUNT_SID") for line in report)
    assert any("SAMPLE configuration" in line for line in report)
    assert any("poundbot console" in line for line in report[:3])
    assert any("poundbot demo" in line for line in report[:3])
