"""How log lines are written: text (the default) or one JSON object a line
(``POUNDBOT_LOG_FORMAT=json``), at the level ``--log-level`` or ``POUNDBOT_LOG_LEVEL``
gives; and the id of the message being handled, on every line logged while handling it.

The id is set by ``bot.store.messages.process_inbound`` for every channel (SMS, Telegram,
console): ``sms:SM...``, ``telegram:<update id>``, ``console:<id>``. It is a context
variable, so it follows the request's task and no other.

The JSON line is made from the record after ``bot.observe.logsafe.Redactor`` (a filter on the
same handler) has taken the secrets and numbers out of its message, exception and stack.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime

__all__ = [
    "FORMATS",
    "LEVELS",
    "TEXT_FORMAT",
    "JsonFormatter",
    "configure",
    "handling",
    "log_format",
    "log_level",
]

#: The id of the message being handled (``channel:provider id``), or None.
handling: ContextVar[str | None] = ContextVar("poundbot_message_id", default=None)

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _MessageId(logging.Filter):
    """Puts the id of the message being handled on the record (``message_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "message_id"):
            record.message_id = handling.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the message
    id when one is being handled, and the exception or stack when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        message_id = getattr(record, "message_id", None) or handling.get()
        if message_id:
            entry["message_id"] = message_id
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        import json  # here: a command that logs text starts without it

        return json.dumps(entry, ensure_ascii=False)


def log_format(env: Mapping[str, str] | None = None) -> str:
    """``POUNDBOT_LOG_FORMAT`` (text or json; text when unset). Raises ValueError."""
    env = os.environ if env is None else env
    value = env.get("POUNDBOT_LOG_FORMAT", "").strip().lower() or "text"
    if value not in FORMATS:
        raise ValueError(f"POUNDBOT_LOG_FORMAT={value!r}: say text or json")
    return value


def log_level(env: Mapping[str, str] | None = None) -> str | None:
    """``POUNDBOT_LOG_LEVEL`` (debug, info, warning, error), or None. Raises ValueError."""
    env = os.environ if env is None else env
    value = env.get("POUNDBOT_LOG_LEVEL", "").strip().lower()
    if value and value not in LEVELS:
        raise ValueError(f"POUNDBOT_LOG_LEVEL={value!r}: say {', '.join(LEVELS)}")
    return value or None


def configure(level: str, fmt: str) -> None:
    """The root logger at ``level``, writing to stderr in ``fmt``. Like
    ``logging.basicConfig``, nothing is changed when the host has put handlers on the root
    logger already (a test's capture, an embedding application)."""
    root = logging.getLogger()
    ours: list[logging.Handler] = [h for h in root.handlers if getattr(h, "poundbot", False)]
    if root.handlers and not ours:
        return
    if not ours:
        stream = logging.StreamHandler(sys.stderr)
        stream.poundbot = True  # type: ignore[attr-defined]
        root.addHandler(stream)
        ours = [stream]
    root.setLevel(level.upper())
    for handler in ours:
        handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
        if not any(isinstance(f, _MessageId) for f in handler.filters):
            handler.addFilter(_MessageId())
