"""``--log-level`` and ``POUNDBOT_LOG_FORMAT=json``: one JSON object a line, naming the
message being handled, with nothing the redaction takes out; and ``poundbot serve``
says what is on and off before anything else."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.observe import logsafe
from bot.observe.logformat import JsonFormatter, handling

TOKEN = "7654321:AAH-only-a-test-token-0123456789abcdef"
PHONE = "+919847012345"


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger writing JSON lines (as ``POUNDBOT_LOG_FORMAT=json`` does), through
    the redaction of bot.observe.logsafe."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    before = root.level
    root.setLevel(logging.DEBUG)
    logsafe.install((TOKEN,))
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def entries(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_json_line_names_the_message_and_holds_no_token_or_number(
    json_log: io.StringIO,
) -> None:
    log = logging.getLogger("poundbot.test")
    handled = handling.set("sms:SM0123")
    try:
        try:
            raise RuntimeError(f"the API refused {TOKEN} for {PHONE}")
        except RuntimeError:
            log.exception("sending to %s with %s failed", PHONE, TOKEN)
    finally:
        handling.reset(handled)
    log.warning("after the message")
    first, after = entries(json_log)
    assert first["level"] == "ERROR"
    assert first["logger"] == "poundbot.test"
    assert first["message_id"] == "sms:SM0123"
    assert first["message"] == "sending to +91******2345 with [redacted] failed"
    assert "RuntimeError: the API refused [redacted] for +91******2345" in str(first["exception"])
    assert TOKEN not in json_log.getvalue()
    assert PHONE not in json_log.getvalue()
    assert "message_id" not in after


async def test_the_lines_logged_while_a_console_line_is_handled_carry_its_id(
    tmp_path: Path, json_log: io.StringIO
) -> None:
    from bot.bootstrap import open_app
    from bot.entry.console import run_console
    from bot.support.caller import Caller
    from tests.integration.test_console import lines, reader

    async with open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}") as app:
        async with app.engine.begin() as conn:  # the handling fails: an error is logged
            await conn.execute(text("ALTER TABLE cases RENAME TO cases_away"))
        owner = Caller.public("console", phone="+919847000001")
        await run_console(app, owner, read=reader(lines("DUES KNM-1")), out=io.StringIO())
        async with app.store.transaction() as tx:
            (inbox_id,) = (await tx.session.execute(text("SELECT provider_id FROM inbox"))).one()
    failed = [e for e in entries(json_log) if "could not process line" in str(e["message"])]
    assert [e["message_id"] for e in failed] == [f"console:{inbox_id}"]
    assert "exception" in failed[0]
    assert "DUES KNM-1" not in json_log.getvalue()


def poundbot(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.entry.cli", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
        timeout=120,
    )


def test_poundbot_writes_one_json_object_a_line_at_the_level_asked(tmp_path: Path) -> None:
    env = {
        "POUNDBOT_DATA_DIR": str(tmp_path),
        "POUNDBOT_LOG_FORMAT": "json",
        "POUNDBOT_DATABASE_URL": "",
    }
    done = poundbot("--log-level", "info", "migrate", env=env)
    assert done.returncode == 0, done.stderr
    logged = [json.loads(line) for line in done.stderr.splitlines()]
    assert {e["logger"] for e in logged} == {"alembic.runtime.migration"}
    assert any(str(e["message"]).startswith("Running upgrade") for e in logged)
    # Without --log-level an administrative command logs warnings only.
    quiet = poundbot("migrate", env=env)
    assert (quiet.returncode, quiet.stderr) == (0, "")
    # POUNDBOT_LOG_LEVEL says the same (on a database with revisions to run, so that
    # there is something to log at that level).
    fresh = {**env, "POUNDBOT_DATA_DIR": str(tmp_path / "fresh"), "POUNDBOT_LOG_LEVEL": "info"}
    assert poundbot("migrate", env=fresh).stderr != ""


def test_an_unknown_log_format_or_level_is_refused_in_one_line(tmp_path: Path) -> None:
    done = poundbot("migrate", env={"POUNDBOT_LOG_FORMAT": "xml"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "poundbot: error: POUNDBOT_LOG_FORMAT='xml': say text or json\n"
    done = poundbot("migrate", env={"POUNDBOT_LOG_LEVEL": "loud"})
    assert done.returncode == 2
    assert done.stderr.startswith("poundbot: error: POUNDBOT_LOG_LEVEL='loud'")
    done = poundbot("--log-level", "loud", "migrate", env={})
    assert done.returncode == 2
    assert "invalid choice: 'loud'" in done.stderr


def test_serve_says_what_is_on_and_off_before_anything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import uvicorn

    from bot.entry.cli import main

    given: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: given.update(kwargs))
    for name in ("POUNDBOT_DATABASE_URL", "POUNDBOT_CONFIG", "TELEGRAM_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "data"))
    caplog.set_level(logging.INFO)
    assert main(["--log-level", "debug", "serve"]) == 0
    assert given["log_level"] == "debug"
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "Logs: level debug, format text (--log-level, POUNDBOT_LOG_FORMAT)"
    assert f"Database: sqlite {tmp_path / 'data' / 'poundbot.sqlite3'}" in messages
    assert "Telegram: off (no TELEGRAM_BOT_TOKEN)" in messages
    assert any(m.startswith("Backups: on, daily at 02:30") for m in messages)
    assert all(r.name == "poundbot" for r in caplog.records)  # nothing else came first
