"""Settings from the environment: credentials and URLs, never in the configuration file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from bot.store.budget import DEFAULT_BUDGET

__all__ = ["DEFAULT_PHOTO_BYTES", "Settings", "photo_limit"]


@dataclass(frozen=True, slots=True)
class Settings:
    """What the channels need to be switched on."""

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
    #: Seconds an SMS request may wait for the database in all (Twilio waits 15 s).
    wait_budget: float = DEFAULT_BUDGET
    #: The largest photo kept, in bytes (``POUNDBOT_PHOTO_MAX_MB``; None: 10 MB).
    photo_max_bytes: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            public_url=env.get("POUNDBOT_PUBLIC_URL", "").rstrip("/"),
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
            wait_budget=_budget(env.get("POUNDBOT_WAIT_BUDGET", "")),
            photo_max_bytes=photo_limit(env),
        )

    def secrets(self) -> tuple[str, ...]:
        """The values no log line may show (``bot.logsafe``)."""
        return (
            self.telegram_token,
            self.telegram_secret,
            self.twilio_sid,
            self.twilio_token,
            self.link_secret,
            self.metrics_token,
        )

    def sms_off_reason(self) -> str | None:
        """Why the SMS channel is off, or None when it is on."""
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
        """Why WhatsApp (through Twilio) is off, or None when it is on: it needs SMS on
        (the same account and webhook) and a ``whatsapp:+…`` sender."""
        if not self.twilio_whatsapp_from:
            return "no TWILIO_WHATSAPP_FROM"
        if not self.twilio_whatsapp_from.startswith("whatsapp:+"):
            return "TWILIO_WHATSAPP_FROM must be whatsapp:+<number>"
        sms = self.sms_off_reason()
        return f"SMS is off ({sms})" if sms else None

    def telegram_off_reason(self) -> str | None:
        """Why the Telegram channel is off, or None when it is on."""
        if not self.telegram_token:
            return "no TELEGRAM_BOT_TOKEN"
        return None


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


#: The largest photo kept when ``POUNDBOT_PHOTO_MAX_MB`` is not set (``bot.photos``).
DEFAULT_PHOTO_BYTES = 10 * 1024 * 1024


def photo_limit(env: Mapping[str, str]) -> int:
    """``POUNDBOT_PHOTO_MAX_MB`` (a whole number of MB, at least 1) in bytes; 10 MB unset."""
    text = env.get("POUNDBOT_PHOTO_MAX_MB", "").strip()
    if not text:
        return DEFAULT_PHOTO_BYTES
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"POUNDBOT_PHOTO_MAX_MB must be a whole number of MB: {text!r}")
    return int(text) * 1024 * 1024
