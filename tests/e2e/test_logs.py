"""The logs of a running poundbot hold no token, no account SID, no full phone number and
no message body, even with every logger at DEBUG (root and ``sqlalchemy.engine`` too)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.fakes.telegram_api import TOKEN as BOT_TOKEN
from bot.fakes.telegram_api import Updates
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SID, sms_rig
from tests.e2e.sms_harness import TOKEN as AUTH_TOKEN
from tests.e2e.telegram_rig import (
    KEEPER,
    STRANGER,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    start_clock,
)
from tests.e2e.test_sms import message_of

OWNER = "+919847099999"
SMS_SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"
TG_SEIZE = "/seize 3 buffalo at Chathamangalam junction; one with a white blaze"
OWNER_DUES = "DUES KNM-1 please"
STRANGER_FIND = "/find white blaze buffalo"


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """Everything logged, as ``poundbot serve`` writes it (a handler on the root logger)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    before = root.level
    root.setLevel(logging.INFO)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def _debug_everywhere() -> None:
    logging.getLogger().setLevel(logging.DEBUG)
    logging.getLogger("sqlalchemy.engine").setLevel(logging.DEBUG)


@pytest.fixture
def debug(captured: io.StringIO) -> Iterator[io.StringIO]:
    _debug_everywhere()
    try:
        yield captured
    finally:
        logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)


async def test_telegram_api_calls_do_not_put_the_bot_token_in_the_log(
    tmp_path: Path, captured: io.StringIO
) -> None:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        await rig.say(KEEPER, "/help")
    log = captured.getvalue()
    assert "Telegram: on" in log  # the server did log (at INFO)
    assert BOT_TOKEN not in log
    # No Bot API URL at all: the HTTP client logs warnings only.
    assert f"{fake_url}/bot" not in log
    assert not re.search(r"/bot[^/\s]*:", log)


async def _telegram_flow(tmp_path: Path) -> None:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        _debug_everywhere()  # again: the server's start set its own levels
        calls = await rig.say(KEEPER, TG_SEIZE)
        assert any("KNM-1" in c.text for c in calls if c.method == "sendMessage")
        await rig.say(STRANGER, STRANGER_FIND)


async def _sms_flow(tmp_path: Path) -> None:
    async with sms_rig(tmp_path) as rig:
        _debug_everywhere()
        reply = message_of((await rig.sms(KEEPER_PHONE, SMS_SEIZE, "SM-log-1")).text)
        assert "KNM-1" in reply
        assert "KNM-1" in message_of((await rig.sms(OWNER, OWNER_DUES, "SM-log-2")).text)
        for _ in range(200):  # the owner's SMS goes out through the Twilio client
            if rig.twilio.messages:
                break
            await asyncio.sleep(0.02)
        assert rig.twilio.messages
        # A database error while a message is handled: the users table is gone.
        async with rig.app.engine.begin() as conn:
            await conn.execute(text("ALTER TABLE users RENAME TO users_away"))
        failed = message_of((await rig.sms(OFFICER_PHONE, "CASES", "SM-log-3")).text)
        assert "send it again" in failed
        async with rig.app.engine.begin() as conn:
            await conn.execute(text("ALTER TABLE users_away RENAME TO users"))


async def test_a_telegram_and_an_sms_flow_at_debug_leave_no_secret_number_or_body_in_the_log(
    tmp_path: Path, debug: io.StringIO
) -> None:
    await _telegram_flow(tmp_path / "tg")
    await _sms_flow(tmp_path / "sms")
    log = debug.getvalue()
    assert "SM-log-3" in log  # the failure is logged, by message id ...
    assert "+91******0020" in log  # ... and masked number
    assert "sqlalchemy.engine" in log  # the SQL was logged, at DEBUG
    assert "/Accounts/" not in log  # the Twilio client's request URLs are not logged
    leaks = {
        "the bot token": BOT_TOKEN,
        "the Twilio auth token": AUTH_TOKEN,
        "the Twilio account SID": SID,
        "a keeper's number": KEEPER_PHONE,
        "an officer's number": OFFICER_PHONE,
        "the owner's number": OWNER,
        "the owner's number as typed": "9847099999",
        "the SMS seizure": SMS_SEIZE,
        "its description": "brown cows",
        "the owner's name": "Kunhammed",
        "the owner's question": OWNER_DUES,
        "the Telegram seizure": "Chathamangalam junction",
        "the stranger's search": STRANGER_FIND,
    }
    found = {what: value for what, value in leaks.items() if value in log}
    assert not found, "\n".join(
        line for line in log.splitlines() if any(v in line for v in found.values())
    )[:3000]


def test_serve_lets_uvicorn_log_through_the_redacting_root_handlers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn's own logging config would give its access log a handler of its own, past
    the redaction: ``poundbot serve`` leaves uvicorn's loggers to the root handlers."""
    import uvicorn

    from bot.entry.cli import main

    given: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: given.update(kwargs))
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}")
    assert main(["serve"]) == 0
    assert given["log_config"] is None
    assert given["log_level"] == "info"


async def test_a_console_line_that_fails_is_logged_by_its_id_not_its_text(
    tmp_path: Path, captured: io.StringIO
) -> None:
    from bot.bootstrap import open_app
    from bot.entry.console import run_console
    from bot.support.caller import Caller
    from tests.integration.test_console import lines, reader

    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url, clock=start_clock()) as app:
        async with app.engine.begin() as conn:
            await conn.execute(text("ALTER TABLE inbox RENAME TO inbox_away"))
        owner = Caller.public("console", phone="+919847000001")
        out = io.StringIO()
        await run_console(app, owner, read=reader(lines(OWNER_DUES)), out=out)
    assert "send it again" in out.getvalue()
    log = captured.getvalue()
    assert "console: could not process line " in log
    assert OWNER_DUES not in log
    assert "+919847000001" not in log
