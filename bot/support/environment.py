"""The environment variables poundbot reads: what each is for, what it is when unset.

Credentials and addresses live in the environment, never in the configuration file.
``poundbot env`` prints this table with what is set now (secrets hidden);
``tests/unit/test_environment.py`` holds it to every variable the code reads.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["VARIABLES", "Variable", "described"]


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    #: The part of poundbot it belongs to (the heading ``poundbot env`` puts it under).
    group: str
    meaning: str
    #: What poundbot does when it is unset or empty.
    unset: str
    #: Never printed: only whether it is set.
    secret: bool = False


_SERVER, _TELEGRAM, _TWILIO, _EXOTEL, _MSEVA, _DLT = (
    "server",
    "Telegram",
    "Twilio (SMS, WhatsApp)",
    "Exotel (SMS in India)",
    "Mobile Seva (SMS in India)",
    "DLT (SMS in India)",
)

VARIABLES: tuple[Variable, ...] = (
    Variable(
        "POUNDBOT_CONFIG",
        _SERVER,
        "the configuration file (authorities, pounds, tariffs); serve --config says the same",
        "the sample configuration shipped with poundbot",
    ),
    Variable(
        "POUNDBOT_DATA_DIR",
        _SERVER,
        "the folder of the embedded database, its backups and the photos",
        "var/ in the folder poundbot is started from",
    ),
    Variable(
        "POUNDBOT_DATABASE_URL",
        _SERVER,
        "the database: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB",
        "SQLite in the data folder (poundbot.sqlite3)",
    ),
    Variable(
        "POUNDBOT_PUBLIC_URL",
        _SERVER,
        "the https address people and providers reach this server at (webhooks, links)",
        "replies carry no notice, photo or sign-in links; providers cannot reach the webhooks",
    ),
    Variable(
        "POUNDBOT_SECRET",
        _SERVER,
        "signs notice, photo and web-desk links: keep it the same across restarts",
        "a random one per start: links already sent stop working at the next restart",
        secret=True,
    ),
    Variable(
        "POUNDBOT_SOURCE_URL",
        _SERVER,
        "where the desk's Source link points (the AGPL offers users the source)",
        "/source: the running code, as a tarball",
    ),
    Variable(
        "POUNDBOT_METRICS_TOKEN",
        _SERVER,
        "the bearer token a Prometheus scraper sends to GET /metrics",
        "/metrics answers on loopback only",
        secret=True,
    ),
    Variable(
        "POUNDBOT_TRUSTED_PROXIES",
        _SERVER,
        "the reverse proxies (CIDRs, comma-separated; none: no proxy) whose "
        "X-Forwarded-For names the client, for the allow-lists, /metrics and the logs",
        "127.0.0.1 (the shipped nginx and Caddy)",
    ),
    Variable(
        "POUNDBOT_WAIT_BUDGET",
        _SERVER,
        "seconds a request may wait for the database before asking to send again (< 15)",
        "8",
    ),
    Variable(
        "POUNDBOT_MIN_FREE_MB",
        _SERVER,
        "free megabytes under which /healthz answers 503",
        "100",
    ),
    Variable(
        "POUNDBOT_PHOTO_MAX_MB",
        _SERVER,
        "the largest photo kept, in whole megabytes",
        "10",
    ),
    Variable(
        "POUNDBOT_LOG_LEVEL",
        _SERVER,
        "debug, info, warning or error (--log-level says the same)",
        "info for serve, warning for the other commands",
    ),
    Variable(
        "POUNDBOT_LOG_FORMAT",
        _SERVER,
        "text, or json for one JSON object per line (for a log collector)",
        "text",
    ),
    Variable(
        "POUNDBOT_SMS_PROVIDER",
        _SERVER,
        "twilio, exotel or mseva: the one SMS provider in use",
        "Twilio when its credentials are set, else no SMS",
    ),
    Variable(
        "POUNDBOT_WEBHOOK_SECRET",
        _SERVER,
        "the path segment of the Exotel and Mobile Seva webhooks (32 characters or more)",
        "Exotel and Mobile Seva cannot reach poundbot",
        secret=True,
    ),
    Variable(
        "TELEGRAM_BOT_TOKEN",
        _TELEGRAM,
        "the bot's token from @BotFather",
        "no Telegram",
        secret=True,
    ),
    Variable(
        "TELEGRAM_WEBHOOK_SECRET",
        _TELEGRAM,
        "the secret Telegram sends with each update (set-webhook registers it)",
        "the webhook refuses every update (long polling works without it)",
        secret=True,
    ),
    Variable(
        "TELEGRAM_BOT_USERNAME",
        _TELEGRAM,
        "the bot's @username: poundbot invite prints the t.me link that opens the bot with "
        "the invite's code",
        "invite prints the code alone, to be sent to the bot as /start <code>",
    ),
    Variable(
        "TELEGRAM_API_URL",
        _TELEGRAM,
        "where the Bot API is (a local Bot API server, a test fake)",
        "https://api.telegram.org/bot",
    ),
    Variable("TWILIO_ACCOUNT_SID", _TWILIO, "the account SID", "no Twilio", secret=True),
    Variable(
        "TWILIO_AUTH_TOKEN",
        _TWILIO,
        "the auth token (checks webhook signatures too)",
        "no Twilio",
        secret=True,
    ),
    Variable("TWILIO_FROM_NUMBER", _TWILIO, "the number SMS go out from (+E.164)", "no SMS"),
    Variable(
        "TWILIO_WHATSAPP_FROM",
        _TWILIO,
        "the WhatsApp sender connected in Twilio (whatsapp:+…)",
        "WhatsApp is off",
    ),
    Variable(
        "TWILIO_API_URL", _TWILIO, "where the Twilio client sends (a test fake)", "Twilio's own API"
    ),
    Variable("EXOTEL_API_KEY", _EXOTEL, "the API key", "no Exotel", secret=True),
    Variable("EXOTEL_API_TOKEN", _EXOTEL, "the API token", "no Exotel", secret=True),
    Variable("EXOTEL_ACCOUNT_SID", _EXOTEL, "the account SID", "no Exotel"),
    Variable(
        "EXOTEL_SUBDOMAIN",
        _EXOTEL,
        "api.exotel.com (Singapore) or api.in.exotel.com (Mumbai)",
        "no Exotel",
    ),
    Variable(
        "EXOTEL_FROM", _EXOTEL, "the ExoPhone (or its DLT header) SMS go out from", "no Exotel"
    ),
    Variable(
        "EXOTEL_API_URL",
        _EXOTEL,
        "where the Exotel client sends (a test fake)",
        "https://<EXOTEL_SUBDOMAIN>",
    ),
    Variable(
        "POUNDBOT_EXOTEL_ALLOW",
        _EXOTEL,
        "the addresses (CIDRs, comma-separated) Exotel's webhooks may come from",
        "any address with the webhook secret (serve warns)",
    ),
    Variable("MSEVA_USERNAME", _MSEVA, "the department's user name", "no Mobile Seva"),
    Variable("MSEVA_PASSWORD", _MSEVA, "its password", "no Mobile Seva", secret=True),
    Variable(
        "MSEVA_SENDER_ID", _MSEVA, "the DLT sender id (header) SMS go out from", "no Mobile Seva"
    ),
    Variable(
        "MSEVA_SECURE_KEY",
        _MSEVA,
        "the secure key of the department",
        "no Mobile Seva",
        secret=True,
    ),
    Variable(
        "MSEVA_KEYWORD", _MSEVA, "the keyword a pull SMS starts with (KL POUND)", "no pull SMS"
    ),
    Variable(
        "MSEVA_API_URL",
        _MSEVA,
        "where the Mobile Seva client sends (a test fake)",
        "Mobile Seva's own API",
    ),
    Variable(
        "POUNDBOT_MSEVA_ALLOW",
        _MSEVA,
        "the addresses (CIDRs, comma-separated) Mobile Seva's pull may come from",
        "any address with the webhook secret (serve warns)",
    ),
    Variable(
        "POUNDBOT_DLT_ENTITY_ID",
        _DLT,
        "with POUNDBOT_DLT_TEMPLATE_ID: the DLT stamp an SMS carries when none is named "
        "for it (the configuration's [dlt] names one per kind of SMS)",
        "no default stamp",
    ),
    Variable(
        "POUNDBOT_DLT_TEMPLATE_ID",
        _DLT,
        "with POUNDBOT_DLT_ENTITY_ID: the template id of that default stamp",
        "no default stamp",
    ),
)


def described(env: Mapping[str, str]) -> list[str]:
    """``poundbot env``: each variable under its group, what it is set to now (a secret
    only as "set"), what it is for and what happens unset."""
    lines: list[str] = []
    group = ""
    for variable in VARIABLES:
        if variable.group != group:
            group = variable.group
            lines += [""] if lines else []
            lines.append(f"{group}:")
        value = env.get(variable.name, "")
        now = "(set, hidden)" if variable.secret else value
        lines.append(f"  {variable.name}={now}" if value else f"  {variable.name} (unset)")
        lines += textwrap.wrap(
            f"{variable.meaning}. Unset: {variable.unset}.",
            width=88,
            initial_indent="      ",
            subsequent_indent="      ",
        )
    return lines
