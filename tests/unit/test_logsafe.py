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


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("From=09847014321&To=x", "From=0******4321&To=x"),
        ("mobileNumber=9847014321", "mobileNumber=******4321"),
        ("stored 919847014321.", "stored 91******4321."),
        ("dialled 00919847014321", "dialled 0091******4321"),
        ("+919847014321", "+91******4321"),
        ("To=%2B919847014321", "To=%2B91******4321"),
        ("From=whatsapp%3A%2B919847014321", "From=whatsapp%3A%2B91******4321"),
        ("Body=OWNER%0A9847014321%0A", "Body=OWNER%0A******4321%0A"),
        ("OWNER+Kunhammed+9847014321", "OWNER+Kunhammed+******4321"),
        ("Body=KNM-1+%2B91+98470+14321", "Body=KNM-1+%2B91+*****+*4321"),
        ("Row ('+919847014321', 'SEIZE')", "Row ('+91******4321', 'SEIZE')"),
        ('{"from": "9847014321"}', '{"from": "******4321"}'),
        ("+91 98470 14321", "+91 ***** *4321"),
        ("(+91) 98470-14321", "(+91) *****-*4321"),
        ("098470-14321", "0*****-*4321"),
        ("98470 14321", "***** *4321"),
        ("0091 98470 14321", "0091 ***** *4321"),
        ("a landline: (0471) 2345678", "a landline: (0***) ***5678"),
        ("paid 100 9847014321", "paid 100 ******4321"),
        ("in Malayalam digits ൯൮൪൭൦൧൪൩൨൧", "in Malayalam digits ******൪൩൨൧"),
        ("+14155550100", "+14*****0100"),
    ],
)
def test_a_telephone_number_is_masked_in_whatever_form_it_is_written(
    line: str, masked: str
) -> None:
    assert redact(line) == masked


@pytest.mark.parametrize(
    "line",
    [
        "paid 4519.50 of ₹14,519.50 (1451950 paise), 9847014321.50 is an amount",
        "case KNM-12, KNM-2026-0042, due 2026-12-06, seized 06/12/2026 at 10:30:00",
        "sms:SM0123456789abcdef0123456789abcdef",
        "exotel:98470143214a5b6c7d8e9f0a1b2c3d4e",
        "mseva:9847014321f00dbabe0123456789abcdef012345",
        "telegram:7012345678:612345678",
        "DLT entity 1201160000000012345, template 1207160000000067890",
        "update 612345678 at 1764932345 (1764932345123 ms)",
        "984701432100 paise is no number; version 1.2.9847014321",
    ],
)
def test_amounts_references_dates_and_provider_ids_are_left_alone(line: str) -> None:
    assert redact(line) == line


@pytest.mark.parametrize(
    ("line", "cleaned"),
    [
        (
            "GET /exotel/sms/x?SmsSid=1&From=09847014321&Body=DUES+KNM-1 HTTP/1.1",
            "GET /exotel/sms/x?[query] HTTP/1.1",
        ),
        ("GET /web/cases?q=Kunhammed HTTP/1.1", "GET /web/cases?[query] HTTP/1.1"),
        (
            "for url 'https://api.example.org/send?To=x&Body=y'",
            "for url 'https://api.example.org/send?[query]'",
        ),
        ("GET /healthz HTTP/1.1", "GET /healthz HTTP/1.1"),
        ("which one? the first", "which one? the first"),
    ],
)
def test_the_query_string_of_a_path_or_url_is_taken_out(line: str, cleaned: str) -> None:
    assert redact(line) == cleaned
    assert redact(cleaned) == cleaned


def test_uvicorns_own_access_log_configuration_gets_the_redaction_too() -> None:
    """Under uvicorn's logging configuration the access logger has a handler of its own,
    not propagating, whose formatter unpacks the record's arguments."""
    from uvicorn.logging import AccessFormatter

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s'))
    access = logging.getLogger("uvicorn.access")
    before = access.propagate, access.level
    access.addHandler(handler)
    access.propagate, access.level = False, logging.INFO
    try:
        install()
        access.info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5000",
            "GET",
            "/mseva/pull/x?mobileNumber=9800005001&message=KL+POUND+DUES+KNM-1",
            "1.1",
            200,
        )
    finally:
        access.removeHandler(handler)
        access.propagate, access.level = before
    assert out.getvalue() == '127.0.0.1:5000 - "GET /mseva/pull/x?[query] HTTP/1.1" 200 OK\n'
