"""Log lines keep no secret and no full phone number, whatever logger wrote them."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from datetime import date

import pytest

from bot.observe.logsafe import Redactor, install, mask_phone, protect, redact
from bot.support.links import notice_path

BOT_TOKEN = "7012345678:AAHk3-R4nd0m_T0k3n-for-the-logsafe-test"
AUTH_TOKEN = "f3a9c0d2e1b4a5968778695a4b3c2d1e"
ACCOUNT_SID = "AC" + "0123456789abcdef" * 2


@pytest.mark.parametrize(
    ("number", "masked"),
    [
        ("+919847000001", "+91******0001"),
        ("+14155550100", "+14*****0100"),
        ("9847012345", "******2345"),
        ("+1234", "*****"),
        ("", ""),
    ],
)
def test_a_phone_number_is_masked_to_its_country_and_last_four_digits(
    number: str, masked: str
) -> None:
    assert mask_phone(number) == masked


def test_secrets_tokens_sids_signatures_and_numbers_are_taken_out() -> None:
    protect(AUTH_TOKEN, "short")  # a value under six characters is not worth hiding
    path = notice_path("link-secret", "KNM-17", date(2026, 3, 10))
    line = redact(
        f"POST https://api.telegram.org/bot{BOT_TOKEN}/sendMessage "
        f"https://api.twilio.com/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json "
        f"token={AUTH_TOKEN} GET {path} HTTP/1.1 SMS SM123 from +919847000001 "
        "To=%2B919847012345 short"
    )
    assert BOT_TOKEN not in line
    assert "7012345678" not in line
    assert ACCOUNT_SID not in line
    assert AUTH_TOKEN not in line
    assert path not in line
    assert "/notice/KNM-17/2026-03-10/[signature]" in line
    assert "+919847000001" not in line
    assert "+91******0001" in line
    assert "%2B91******2345" in line
    assert "SM123" in line  # message ids stay: they are how a line is traced
    assert line.endswith("short")


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """A root handler writing to a string, with the redaction installed on it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    before = root.level
    root.setLevel(logging.DEBUG)
    install([BOT_TOKEN])
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def test_the_filter_on_the_root_handlers_redacts_any_logger_args_and_tracebacks(
    stream: io.StringIO,
) -> None:
    logging.getLogger("some.library").info("calling %s", f"/bot{BOT_TOKEN}/getMe")
    logging.getLogger("an.access.log").info(  # as uvicorn.access writes it
        '%s - "%s %s HTTP/%s" %d',
        "127.0.0.1:5000",
        "GET",
        notice_path("s", "KNM-1", date(2026, 3, 1)),
        "1.1",
        200,
    )
    try:
        raise RuntimeError(f"failed for +919847000001 with {BOT_TOKEN}")
    except RuntimeError:
        logging.getLogger("poundbot").exception("oops")
    sql = logging.getLogger("sqlalchemy.engine.Engine")
    sql.setLevel(logging.DEBUG)
    try:
        sql.debug("Row %r", ("+919847000001", "SEIZE"))
    finally:
        sql.setLevel(logging.NOTSET)
    text = stream.getvalue()
    assert BOT_TOKEN not in text
    assert "+919847000001" not in text
    assert "/notice/KNM-1/2026-03-01/[signature]" in text
    assert "RuntimeError: failed for +91******0001 with [redacted]" in text
    assert "Row [hidden]" in text
    assert "SEIZE" not in text


def test_the_http_client_loggers_log_warnings_only(stream: io.StringIO) -> None:
    for name in ("httpx", "httpcore", "twilio.http_client", "twilio.async_http_client", "aiohttp"):
        assert logging.getLogger(name).getEffectiveLevel() >= logging.WARNING
        logging.getLogger(name).info("HTTP Request: POST .../sendMessage")
    assert "HTTP Request" not in stream.getvalue()
    assert Redactor().filter(logging.makeLogRecord({"name": "x", "msg": "x"}))
