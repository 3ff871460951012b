"""Logs without secrets or personal data.

Anyone who can read the logs must not be able to take over the bot or learn who wrote
what. So:

- the HTTP client loggers (httpx, httpcore, twilio's, aiohttp's) log warnings only: at
  INFO they write every request URL, and the Bot API URL holds the bot token; PTB's own
  DEBUG lines carry whole updates, so ``telegram`` stays at INFO;
- ``Redactor``, a filter on every handler of the root logger (so whatever logger wrote
  the line), takes out of the message, its arguments, the exception text and the stack:
  the registered secrets (``protect``: the bot token, Twilio's auth token and account
  SID, the webhook and link secrets), anything shaped like a Telegram token or a Twilio
  account SID, the signature of a notice link (``bot.support.links``), and the query string
  of every URL and path (``/exotel/sms/<secret>?[query]``: Exotel and Mobile Seva call
  their webhooks by GET, with the sender's number and the message in the query); and masks
  telephone numbers in whatever form they are written (``bot.observe.phonemask``:
  ``+91******0001``, ``0******0001``, ``******0001``); SQLAlchemy's DEBUG lines of result
  rows are hidden;
- uvicorn's access lines keep their shape (uvicorn's own formatter, when its logging
  configuration is in use, reads the arguments), each argument redacted; ``install`` puts
  the filter on the handlers uvicorn's configuration gives its loggers too;
- the code itself logs message ids and masked numbers (``mask_phone``), never bodies.
  The engines are made with ``hide_parameters=True``, so a database error does not
  carry the sender's number or the message (``bot.store.engine``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from bot.observe.phonemask import mask_numbers

__all__ = ["QUIET", "UVICORN", "Redactor", "install", "mask_phone", "protect", "redact"]

#: Loggers that write URLs, headers or payloads at INFO or DEBUG: their least level.
QUIET = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "hpack": logging.WARNING,
    "twilio": logging.WARNING,  # twilio.http_client, twilio.async_http_client
    "aiohttp": logging.WARNING,
    "urllib3": logging.WARNING,
    "telegram": logging.INFO,
    # aiosqlite logs every statement with its parameters (numbers, messages) at DEBUG.
    "aiosqlite": logging.INFO,
}

_SECRETS: set[str] = set()
#: A Telegram bot token (``123456789:AA...``), whatever bot it is.
_TELEGRAM_TOKEN = re.compile(r"(?<!\d)\d{5,}:[A-Za-z0-9_-]{30,}")
#: A Twilio account SID (message SIDs, ``SM...``, are ids and stay).
_ACCOUNT_SID = re.compile(r"\bAC[0-9a-fA-F]{32}\b")
#: The signature of a notice link: ``/notice/KNM-17/2026-03-10/<signature>``.
_NOTICE = re.compile(r"(/notice/[^/\s]+/\d{4}-\d{2}-\d{2}/)[A-Za-z0-9_-]+")
#: The token of a sign-in link of the web desk: ``/web/signin/<token>``.
_SIGNIN = re.compile(r"(/web/signin/)[A-Za-z0-9_-]+")
#: The query string of a path or URL (``/mseva/pull/x?mobileNumber=...&message=...``).
_QUERY = re.compile(r"(/[^\s?#\"'<>]*)\?[^\s#\"'<>]+")
#: The loggers uvicorn's own logging configuration gives handlers of their own.
UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.access")
_FORMATTER = logging.Formatter()


def mask_phone(number: str) -> str:
    """``+919847000001`` -> ``+91******0001``: the country and the last four digits."""
    digits = number.lstrip("+")
    if not digits.isdigit() or len(digits) < 8:
        return "*" * len(number)
    head = "+" + digits[:2] if number.startswith("+") else ""
    shown = digits[2:] if head else digits
    return head + "*" * (len(shown) - 4) + shown[-4:]


def protect(*secrets: str) -> None:
    """Never log these values (empty ones and ones under six characters are ignored)."""
    _SECRETS.update(s for s in secrets if len(s) >= 6)


def redact(text: str) -> str:
    """``text`` with every secret, token, account SID, notice signature and query string
    taken out and every telephone number masked."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, "[redacted]")
    text = _TELEGRAM_TOKEN.sub("[redacted]", text)
    text = _ACCOUNT_SID.sub("AC[redacted]", text)
    text = _NOTICE.sub(r"\1[signature]", text)
    text = _SIGNIN.sub(r"\1[token]", text)
    text = _QUERY.sub(r"\1?[query]", text)
    return mask_numbers(text)


class Redactor(logging.Filter):
    """Redacts each record in place (``redact``); lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.name).startswith("sqlalchemy.engine") and record.msg == "Row %r":
            record.msg, record.args = "Row [hidden]", None  # result rows: personal data
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            # (client, method, path, HTTP version, status): uvicorn's AccessFormatter
            # unpacks them, so each is redacted in place (the path loses its query).
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
            return True
        try:
            message = record.getMessage()
        except Exception:  # a broken format: logging reports it; keep what is safe
            message = str(record.msg)
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install(secrets: Iterable[str] = (), root: logging.Logger | None = None) -> None:
    """Quiet the chatty loggers, register ``secrets``, and put a ``Redactor`` on every
    handler of the root logger and of uvicorn's loggers (once each): ``poundbot serve``
    leaves uvicorn's loggers to the root handlers, but a host that runs the app under
    uvicorn's own logging configuration gives them handlers that do not propagate."""
    protect(*secrets)
    for name, level in QUIET.items():
        logger = logging.getLogger(name)
        if logger.level < level:  # NOTSET (0) included: never below ``level``
            logger.setLevel(level)
    loggers = [root or logging.getLogger(), *map(logging.getLogger, UVICORN)]
    for handler in (handler for logger in loggers for handler in logger.handlers):
        if not any(isinstance(f, Redactor) for f in handler.filters):
            handler.addFilter(Redactor())
