"""The app starts on its embedded defaults and answers its health check over HTTP."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app, startup_report
from bot.entry.cli import main
from bot.store.engine import make_engine
from bot.store.writable import shown
from tests.integration.test_migrations import ENGINES, fresh_pg_database


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


async def test_healthz_is_503_when_the_disk_is_almost_full_and_metrics_show_the_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk leaves the rolled-back write probe working; the free space under the
    floor (``POUNDBOT_MIN_FREE_MB``, here more than the disk has) is what fails it."""
    import shutil

    from prometheus_client.parser import text_string_to_metric_families

    url = f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}"
    free_mb = shutil.disk_usage(tmp_path).free // (1024 * 1024)
    app = build_app(lambda: open_app(url=url))
    transport = httpx.ASGITransport(app, client=("127.0.0.1", 5000))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        assert (await client.get("/healthz")).status_code == 200
        monkeypatch.setenv("POUNDBOT_MIN_FREE_MB", str(free_mb + 1024))
        full = await client.get("/healthz")
        monkeypatch.setenv("POUNDBOT_MIN_FREE_MB", "1")
        again = await client.get("/healthz")
        scraped = (await client.get("/metrics")).text
    assert full.status_code == 503
    assert full.json() == {"status": "disk almost full"}
    assert again.status_code == 200
    families = {f.name: f for f in text_string_to_metric_families(scraped)}
    (sample,) = families["poundbot_disk_free_bytes"].samples
    assert sample.labels == {"folder": "data"}  # the database is in the same file system
    assert sample.value > 0


async def test_the_startup_report_says_what_is_off_and_why(tmp_path: Path) -> None:
    async with open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}") as app:
        report = startup_report(app, env={}, terminal=True)
        journal = startup_report(app, env={}, terminal=False)
    assert "Telegram: off (no TELEGRAM_BOT_TOKEN)" in report
    assert any(line.startswith("SMS: off (no TWILIO_ACCOUNT_SID") for line in report)
    assert any("SAMPLE configuration" in line for line in report)
    assert any("  poundbot console --as keeper" in line for line in report[:3])
    assert any("  poundbot demo" in line for line in report[:3])
    assert not any(".venv/bin" in line for line in report)
    # In a service's journal, no hint to try it at a terminal.
    assert not any("poundbot console" in line for line in journal)
    assert "Configuration: 3 authorities, 4 pounds" in " ".join(journal)


def test_the_startup_report_says_loudly_when_links_would_break_at_restart() -> None:
    from bot.config.settings import Settings
    from bot.entry.app import links_line
    from bot.support.counted import counted

    assert links_line(Settings.from_env({"POUNDBOT_SECRET": "s" * 32})).startswith(
        "Links: signed with POUNDBOT_SECRET"
    )
    local = links_line(Settings.from_env({}))
    public = links_line(Settings.from_env({"POUNDBOT_PUBLIC_URL": "https://pound.example"}))
    assert "every restart breaks" in local
    assert not local.startswith("WARNING")
    assert public.startswith("WARNING")
    assert "set POUNDBOT_SECRET" in public
    assert (counted(1, "authority", "authorities"), counted(2, "pound", "pounds")) == (
        "1 authority",
        "2 pounds",
    )


# -- a database that cannot be written ------------------------------------------------
#
# The tests run as root, and chmod does not stop root writing. What reproduces the
# fault honestly is SQLite's own read-only open (``?mode=ro&uri=true``): the same
# "attempt to write a readonly database" a file at mode 444 gives any other user; and
# for a folder that cannot hold the file, a path through a regular file.


@asynccontextmanager
async def pg_database() -> AsyncIterator[str]:
    """``fresh_pg_database`` (which runs its own event loop) from inside a test's loop."""
    manager = fresh_pg_database()
    url = await asyncio.to_thread(manager.__enter__)
    try:
        yield url
    finally:
        await asyncio.to_thread(manager.__exit__, None, None, None)


def read_only_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true"


async def migrated(url: str) -> str:
    async with open_app(url=url, migrate=True):
        pass
    return url


@pytest.fixture(params=ENGINES)
async def read_only_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated database that can be read but not written: a SQLite file opened
    read-only, or a PostgreSQL database whose sessions are read-only."""
    if request.param == "sqlite":
        path = tmp_path / "pb.sqlite3"
        await migrated(f"sqlite+aiosqlite:///{path}")
        yield read_only_url(path)
        return
    async with pg_database() as url:
        await migrated(url)
        engine = make_engine(url)
        async with engine.connect() as conn:
            name = make_url(url).database
            await conn.execute(text("COMMIT"))
            await conn.execute(
                text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
            )
        await engine.dispose()
        yield url


async def test_healthz_is_503_when_the_database_cannot_be_written(read_only_database: str) -> None:
    app = build_app(lambda: open_app(url=read_only_database))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client,
    ):
        response = await client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "database cannot be written"}


def serve(
    url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> tuple[int, list[logging.LogRecord], bool]:
    """``poundbot serve`` on ``url``: its status, what it logged, whether it served."""
    import uvicorn

    served: list[bool] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(True))
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
    with caplog.at_level(logging.INFO):
        status = main(["serve"])
    return status, [r for r in caplog.records if r.name.startswith("poundbot")], bool(served)


async def test_serve_refuses_a_read_only_database_with_one_line(
    read_only_database: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    status, records, served = await asyncio.to_thread(
        serve, read_only_database, monkeypatch, caplog
    )
    assert (status, served) == (2, False)
    (line,) = [r for r in records if r.levelno >= logging.ERROR]
    assert line.exc_info is None
    assert shown(read_only_database) in line.getMessage()
    assert re.search("readonly database|read-only", line.getMessage())


@pytest.mark.parametrize("where", ["notes.txt/pb.sqlite3", "notes.txt/a/b/pb.sqlite3", "folder"])
def test_serve_refuses_a_database_path_it_cannot_create_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    (tmp_path / "notes.txt").write_text("not a folder")
    (tmp_path / "folder").mkdir()
    path = tmp_path / where
    status, records, served = serve(f"sqlite+aiosqlite:///{path}", monkeypatch, caplog)
    assert (status, served) == (2, False)
    (line,) = [r for r in records if r.levelno >= logging.ERROR]
    assert line.exc_info is None
    assert str(path) in line.getMessage()
    assert "\n" not in line.getMessage()
    if where.startswith("notes.txt"):
        assert f"{tmp_path / 'notes.txt'} is a file, not a folder" in line.getMessage()


def test_serve_starts_on_a_new_database_in_a_new_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'var' / 'pb.sqlite3'}"
    status, records, served = serve(url, monkeypatch, caplog)
    assert (status, served) == (0, True)
    assert not [r for r in records if r.levelno >= logging.ERROR]


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


def test_a_report_line_marked_warning_is_logged_as_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bot.entry.app import log_report

    with caplog.at_level("INFO", logger="poundbot"):
        log_report(["Database: sqlite x", "WARNING Links: POUNDBOT_SECRET is not set"])
    levels = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert levels == [
        ("INFO", "Database: sqlite x"),
        ("WARNING", "Links: POUNDBOT_SECRET is not set"),
    ]
