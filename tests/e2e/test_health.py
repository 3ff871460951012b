"""The app starts on its embedded defaults and answers its health check over HTTP."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bot.app import build_app, startup_report
from bot.bootstrap import open_app
from bot.cli import main
from bot.settings import Settings


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


def test_the_sms_wait_budget_comes_from_the_environment_and_a_bad_one_is_refused() -> None:
    assert Settings.from_env({}).wait_budget == 8.0
    assert Settings.from_env({"POUNDBOT_WAIT_BUDGET": " 5.5 "}).wait_budget == 5.5
    for bad in ("0", "15", "-1", "eight", "nan"):
        with pytest.raises(ValueError, match="POUNDBOT_WAIT_BUDGET must be seconds"):
            Settings.from_env({"POUNDBOT_WAIT_BUDGET": bad})


async def test_the_startup_report_names_the_sms_wait_budget(tmp_path: Path) -> None:
    env = {
        "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
        "TWILIO_ACCOUNT_SID": "AC" + "0" * 32,
        "TWILIO_AUTH_TOKEN": "token",
        "TWILIO_FROM_NUMBER": "+14155550100",
        "POUNDBOT_WAIT_BUDGET": "6",
    }
    async with open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}") as app:
        report = startup_report(app, env=env)
    (sms,) = [line for line in report if line.startswith("SMS: on")]
    assert "waits for the database 6 s at most (POUNDBOT_WAIT_BUDGET)" in sms


def test_serve_refuses_a_bad_wait_budget_in_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("POUNDBOT_WAIT_BUDGET", "20")
    assert main(["serve", "--port", "0"]) == 2
    assert "refusing to start: POUNDBOT_WAIT_BUDGET must be seconds" in caplog.text
