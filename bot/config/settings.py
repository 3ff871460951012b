"""Settings from the environment: credentials and URLs, never in the configuration file."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from typing import NamedTuple

from bot.support.budget import DEFAULT_BUDGET
from bot.support.dlt import DltStamp

__all__ = [
    "DEFAULT_PHOTO_BYTES",
    "MIN_WEBHOOK_SECRET",
    "SMS_PROVIDERS",
    "TRUSTED_PROXIES",
    "Settings",
    "photo_limit",
]

#: The SMS providers poundbot speaks to (``POUNDBOT_SMS_PROVIDER``).
SMS_PROVIDERS = ("twilio", "exotel", "mseva")
#: The shortest ``POUNDBOT_WEBHOOK_SECRET``: the path segment is all that keeps strangers
#: out of the Exotel and Mobile Seva webhooks (neither signs its requests).
MIN_WEBHOOK_SECRET = 32
#: Mobile Seva's DLT push endpoint (services.mgov.gov.in/RegisterPushService).
MSEVA_API_URL = "https://msdgweb.mgov.gov.in/esms/sendsmsrequestDLT"
#: The reverse proxy trusted when ``POUNDBOT_TRUSTED_PROXIES`` is not set: the shipped
#: nginx and Caddy connect from 127.0.0.1 (``deploy/``).
TRUSTED_PROXIES = ("127.0.0.1/32",)


class Settings(NamedTuple):
    """What the channels need to be switched on. (A named tuple, as the configuration's
    records are: ``config check`` reads it, and a dataclass is slow to define.)"""

    public_url: str = ""
    telegram_token: str = ""
    telegram_secret: str = ""
    telegram_api_url: str = "https://api.telegram.org/bot"
    telegram_username: str = ""
    twilio_sid: str = ""
    twilio_token: str = ""
    twilio_from: str = ""
    #: The WhatsApp sender (``whatsapp:+…``) connected in Twilio; empty: WhatsApp is off.
    twilio_whatsapp_from: str = ""
    twilio_api_url: str = ""
    link_secret: str = ""
    #: The bearer token of GET /metrics; without it, /metrics answers loopback only.
    metrics_token: str = ""
    #: The reverse proxies whose ``X-Forwarded-For`` names the client
    #: (``POUNDBOT_TRUSTED_PROXIES``, CIDRs); empty: none, the peer is the client.
    trusted_proxies: tuple[str, ...] = TRUSTED_PROXIES
    #: Seconds an SMS request may wait for the database in all (Twilio waits 15 s).
    wait_budget: float = DEFAULT_BUDGET
    #: The largest photo kept, in bytes (``POUNDBOT_PHOTO_MAX_MB``; None: 10 MB).
    photo_max_bytes: int | None = None
    #: ``POUNDBOT_SMS_PROVIDER``: twilio, exotel or mseva; empty: Twilio when its
    #: credentials are set.
    sms_provider: str = ""
    #: The path segment of the Exotel and Mobile Seva webhooks (``POUNDBOT_WEBHOOK_SECRET``).
    webhook_secret: str = ""
    exotel_api_key: str = ""
    exotel_api_token: str = ""
    exotel_account_sid: str = ""
    #: ``api.exotel.com`` (Singapore) or ``api.in.exotel.com`` (Mumbai).
    exotel_subdomain: str = ""
    #: The ExoPhone (or DLT header linked to it) SMS go out from.
    exotel_from: str = ""
    #: Where the Exotel client sends (a fake in tests); empty: ``https://<subdomain>``.
    exotel_api_url: str = ""
    #: Source addresses Exotel's webhooks may come from (``POUNDBOT_EXOTEL_ALLOW``, CIDRs);
    #: empty: any.
    exotel_allow: tuple[str, ...] = ()
    mseva_username: str = ""
    mseva_password: str = ""
    mseva_sender_id: str = ""
    mseva_secure_key: str = ""
    #: The state keyword and poundbot's sub-keyword a pull SMS starts with (``KL POUND``).
    mseva_keyword: str = ""
    mseva_api_url: str = MSEVA_API_URL
    #: Source addresses Mobile Seva's pull may come from (``POUNDBOT_MSEVA_ALLOW``, CIDRs).
    mseva_allow: tuple[str, ...] = ()
    #: The DLT stamp an SMS carries when the outbox names none (``POUNDBOT_DLT_ENTITY_ID``,
    #: ``POUNDBOT_DLT_TEMPLATE_ID``); None: none.
    dlt_default: DltStamp | None = None
    #: Where the source of this server is offered to its users (AGPL-3.0 section 13,
    #: ``POUNDBOT_SOURCE_URL``); empty: ``/source``, the running code as a tarball.
    source_url: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            public_url=env.get("POUNDBOT_PUBLIC_URL", "").rstrip("/"),
            source_url=env.get("POUNDBOT_SOURCE_URL", "").strip(),
            telegram_token=env.get("TELEGRAM_BOT_TOKEN", ""),
            telegram_secret=env.get("TELEGRAM_WEBHOOK_SECRET", ""),
            telegram_api_url=env.get("TELEGRAM_API_URL", "https://api.telegram.org/bot"),
            telegram_username=env.get("TELEGRAM_BOT_USERNAME", "").lstrip("@"),
            twilio_sid=env.get("TWILIO_ACCOUNT_SID", ""),
            twilio_token=env.get("TWILIO_AUTH_TOKEN", ""),
            twilio_from=env.get("TWILIO_FROM_NUMBER", ""),
            twilio_whatsapp_from=env.get("TWILIO_WHATSAPP_FROM", ""),
            twilio_api_url=env.get("TWILIO_API_URL", ""),
            link_secret=env.get("POUNDBOT_SECRET", ""),
            metrics_token=env.get("POUNDBOT_METRICS_TOKEN", "").strip(),
            trusted_proxies=_proxies(env),
            wait_budget=_budget(env.get("POUNDBOT_WAIT_BUDGET", "")),
            photo_max_bytes=photo_limit(env),
            sms_provider=_provider(env.get("POUNDBOT_SMS_PROVIDER", "")),
            webhook_secret=env.get("POUNDBOT_WEBHOOK_SECRET", "").strip(),
            exotel_api_key=env.get("EXOTEL_API_KEY", ""),
            exotel_api_token=env.get("EXOTEL_API_TOKEN", ""),
            exotel_account_sid=env.get("EXOTEL_ACCOUNT_SID", ""),
            exotel_subdomain=env.get("EXOTEL_SUBDOMAIN", "").strip().lstrip("@"),
            exotel_from=env.get("EXOTEL_FROM", ""),
            exotel_api_url=env.get("EXOTEL_API_URL", ""),
            exotel_allow=_networks("POUNDBOT_EXOTEL_ALLOW", env),
            mseva_username=env.get("MSEVA_USERNAME", ""),
            mseva_password=env.get("MSEVA_PASSWORD", ""),
            mseva_sender_id=env.get("MSEVA_SENDER_ID", ""),
            mseva_secure_key=env.get("MSEVA_SECURE_KEY", ""),
            mseva_keyword=" ".join(env.get("MSEVA_KEYWORD", "").split()),
            mseva_api_url=env.get("MSEVA_API_URL", "") or MSEVA_API_URL,
            mseva_allow=_networks("POUNDBOT_MSEVA_ALLOW", env),
            dlt_default=_stamp(env),
        )

    def secrets(self) -> tuple[str, ...]:
        """The values no log line may show (``bot.observe.logsafe``)."""
        return (
            self.telegram_token,
            self.telegram_secret,
            self.twilio_sid,
            self.twilio_token,
            self.link_secret,
            self.metrics_token,
            self.webhook_secret,
            self.exotel_api_key,
            self.exotel_api_token,
            self.mseva_password,
            self.mseva_secure_key,
        )

    def provider(self) -> str:
        """The SMS provider in use: the one named, else Twilio (on when its credentials
        are set, as before there was a choice)."""
        return self.sms_provider or "twilio"

    def instruction_keyword(self) -> str:
        """What an SMS instruction puts before a command (``KL POUND`` in ``KL POUND DUES
        KNM-1``): Mobile Seva's keyword when SMS goes through Mobile Seva, else ""."""
        if self.provider() != "mseva" or self.sms_off_reason() is not None:
            return ""
        return self.mseva_keyword

    def sms_off_reason(self) -> str | None:
        """Why the SMS channel is off, or None when it is on (with ``provider()``)."""
        provider = self.provider()
        if provider == "exotel":
            return (
                self._missing(
                    ("EXOTEL_API_KEY", self.exotel_api_key),
                    ("EXOTEL_API_TOKEN", self.exotel_api_token),
                    ("EXOTEL_ACCOUNT_SID", self.exotel_account_sid),
                    ("EXOTEL_SUBDOMAIN", self.exotel_subdomain or self.exotel_api_url),
                    ("EXOTEL_FROM", self.exotel_from),
                    ("POUNDBOT_PUBLIC_URL", self.public_url),
                )
                or self._secret_fault()
            )
        if provider == "mseva":
            return (
                self._missing(
                    ("MSEVA_USERNAME", self.mseva_username),
                    ("MSEVA_PASSWORD", self.mseva_password),
                    ("MSEVA_SENDER_ID", self.mseva_sender_id),
                    ("MSEVA_SECURE_KEY", self.mseva_secure_key),
                    ("MSEVA_KEYWORD", self.mseva_keyword),
                )
                or self._secret_fault()
            )
        return self.twilio_off_reason()

    def sms_refusal(self) -> str | None:
        """Why ``serve`` and ``config check`` refuse to go on, in one line: a provider
        named in ``POUNDBOT_SMS_PROVIDER`` whose settings are incomplete (Twilio unnamed
        and unconfigured is only "SMS: off")."""
        if not self.sms_provider:
            return None
        off = self.sms_off_reason()
        if off is None:
            return None
        return f"POUNDBOT_SMS_PROVIDER={self.sms_provider}, but its settings are incomplete: {off}"

    def _secret_fault(self) -> str | None:
        if len(self.webhook_secret) < MIN_WEBHOOK_SECRET:
            return (
                f"POUNDBOT_WEBHOOK_SECRET must be at least {MIN_WEBHOOK_SECRET} characters "
                f"(it is {len(self.webhook_secret)})"
            )
        return None

    @staticmethod
    def _missing(*values: tuple[str, str]) -> str | None:
        missing = [name for name, value in values if not value]
        return f"no {', '.join(missing)}" if missing else None

    def twilio_off_reason(self) -> str | None:
        """Why Twilio (SMS and WhatsApp's account) cannot be used, or None."""
        missing = [
            name
            for name, value in (
                ("TWILIO_ACCOUNT_SID", self.twilio_sid),
                ("TWILIO_AUTH_TOKEN", self.twilio_token),
                ("TWILIO_FROM_NUMBER", self.twilio_from),
                ("POUNDBOT_PUBLIC_URL", self.public_url),
            )
            if not value
        ]
        return f"no {', '.join(missing)}" if missing else None

    def metrics_access(self) -> str:
        """Who may read GET /metrics (the start-up report's line)."""
        if self.metrics_token:
            return "/metrics: on, with Authorization: Bearer POUNDBOT_METRICS_TOKEN"
        return (
            "/metrics: loopback only (no POUNDBOT_METRICS_TOKEN): a scraper on this machine, "
            "not through a proxy"
        )

    def whatsapp_off_reason(self) -> str | None:
        """Why WhatsApp (through Twilio) is off, or None when it is on: it needs Twilio's
        account and webhook (whichever provider SMS goes through: in India, Exotel or
        Mobile Seva for SMS and Twilio for WhatsApp) and a ``whatsapp:+…`` sender."""
        if not self.twilio_whatsapp_from:
            return "no TWILIO_WHATSAPP_FROM"
        if not self.twilio_whatsapp_from.startswith("whatsapp:+"):
            return "TWILIO_WHATSAPP_FROM must be whatsapp:+<number>"
        twilio = self.twilio_off_reason()
        return f"Twilio is not set up ({twilio})" if twilio else None

    def telegram_off_reason(self) -> str | None:
        """Why the Telegram channel is off, or None when it is on."""
        if not self.telegram_token:
            return "no TELEGRAM_BOT_TOKEN"
        return None


def _provider(text: str) -> str:
    """``POUNDBOT_SMS_PROVIDER``: one of ``SMS_PROVIDERS``, or empty."""
    name = text.strip().lower()
    if name and name not in SMS_PROVIDERS:
        raise ValueError(
            f"POUNDBOT_SMS_PROVIDER must be one of {', '.join(SMS_PROVIDERS)}: {text!r}"
        )
    return name


def _networks(name: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """A source-address allow-list: CIDRs (or single addresses) split by commas or spaces."""
    found = []
    for part in env.get(name, "").replace(",", " ").split():
        try:
            found.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise ValueError(f"{name}: not an address or CIDR: {part!r}") from None
    return tuple(found)


def _proxies(env: Mapping[str, str]) -> tuple[str, ...]:
    """``POUNDBOT_TRUSTED_PROXIES``: CIDRs as an allow-list is written; ``none`` for no
    proxy; unset or empty: ``TRUSTED_PROXIES``."""
    text = env.get("POUNDBOT_TRUSTED_PROXIES", "").strip()
    if not text:
        return TRUSTED_PROXIES
    if text.lower() == "none":
        return ()
    return _networks("POUNDBOT_TRUSTED_PROXIES", env)


def _stamp(env: Mapping[str, str]) -> DltStamp | None:
    """The default DLT stamp, when both ids are set."""
    entity = env.get("POUNDBOT_DLT_ENTITY_ID", "").strip()
    template = env.get("POUNDBOT_DLT_TEMPLATE_ID", "").strip()
    return DltStamp(entity, template) if entity and template else None


def _budget(text: str) -> float:
    """``POUNDBOT_WAIT_BUDGET``: seconds, more than 0 and less than Twilio's 15."""
    if not text.strip():
        return DEFAULT_BUDGET
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 15:
        raise ValueError(
            f"POUNDBOT_WAIT_BUDGET must be seconds between 0 and 15 (Twilio's timeout): {text!r}"
        )
    return seconds


#: The largest photo kept when ``POUNDBOT_PHOTO_MAX_MB`` is not set (``bot.adapters.photo_store``).
DEFAULT_PHOTO_BYTES = 10 * 1024 * 1024


def photo_limit(env: Mapping[str, str]) -> int:
    """``POUNDBOT_PHOTO_MAX_MB`` (a whole number of MB, at least 1) in bytes; 10 MB unset."""
    text = env.get("POUNDBOT_PHOTO_MAX_MB", "").strip()
    if not text:
        return DEFAULT_PHOTO_BYTES
    if not text.isdecimal() or int(text) < 1:
        raise ValueError(f"POUNDBOT_PHOTO_MAX_MB must be a whole number of MB: {text!r}")
    return int(text) * 1024 * 1024
