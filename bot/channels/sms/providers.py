"""Which SMS provider is in use (``POUNDBOT_SMS_PROVIDER``), wired: its webhook routes,
its sender, and the start-up report's line about it. Part of the composition root
(``bot.entry.app``): the one place that knows every provider's adapter."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from starlette.routing import BaseRoute

from bot.channels.exotel.sender import ExotelSender
from bot.channels.exotel.webhook import ExotelWebhook
from bot.channels.mseva.sender import MsevaSender
from bot.channels.mseva.webhook import MsevaPull
from bot.channels.sms.port import SmsGateway, SmsSender
from bot.channels.twilio.media import TwilioMedia
from bot.channels.twilio.sender import TwilioSender
from bot.channels.twilio.webhook import SmsWebhook
from bot.config.settings import Settings

__all__ = [
    "GATEWAYS",
    "SENDERS",
    "allow_warning",
    "sms_line",
    "sms_routes",
    "sms_sender",
    "twilio_media",
    "twilio_sender",
]

Opened = ExotelSender | MsevaSender | TwilioSender

#: Every provider's two sides, each an adapter of the SMS port (mypy checks that they are).
GATEWAYS: tuple[type[SmsGateway], ...] = (SmsWebhook, ExotelWebhook, MsevaPull)
SENDERS: tuple[type[SmsSender], ...] = (TwilioSender, ExotelSender, MsevaSender)


def sms_routes(settings: Settings) -> list[BaseRoute]:
    """The webhooks of the SMS provider in use (none when SMS is off), and Twilio's when
    SMS goes through Twilio or WhatsApp is on."""
    routes: list[BaseRoute] = []
    sms_on, provider = settings.sms_off_reason() is None, settings.provider()
    whatsapp = settings.whatsapp_off_reason() is None
    if sms_on and provider == "exotel":
        routes += ExotelWebhook(
            settings.webhook_secret, settings.exotel_allow, settings.wait_budget
        ).routes()
    if sms_on and provider == "mseva":
        routes += MsevaPull(
            settings.webhook_secret,
            settings.mseva_keyword,
            settings.mseva_allow,
            settings.wait_budget,
        ).routes()
    twilio_sms = sms_on and provider == "twilio"
    media = twilio_media(settings)
    if media is not None:
        routes += SmsWebhook(
            settings.twilio_token,
            settings.public_url,
            settings.wait_budget,
            whatsapp=whatsapp,
            media=media,
            sms=twilio_sms,
        ).routes()
    return routes


def twilio_media(settings: Settings) -> TwilioMedia | None:
    """What fetches the pictures of MMS and WhatsApp messages, when Twilio's webhook is
    on (SMS through Twilio, or WhatsApp); else None."""
    sms_on, provider = settings.sms_off_reason() is None, settings.provider()
    if not (sms_on and provider == "twilio") and settings.whatsapp_off_reason() is not None:
        return None
    return TwilioMedia(settings.twilio_sid, settings.twilio_token, settings.twilio_api_url)


def twilio_sender(settings: Settings) -> TwilioSender:
    """Twilio's sender (SMS through Twilio, and WhatsApp whatever SMS goes through)."""
    return TwilioSender(
        settings.twilio_sid,
        settings.twilio_token,
        settings.twilio_from,
        api_url=settings.twilio_api_url,
        status_callback=f"{settings.public_url}/twilio/status",
    )


def sms_sender(settings: Settings) -> AbstractAsyncContextManager[Opened]:
    """The sender of the provider in use (open it with ``async with``; SMS must be on)."""
    provider, base = settings.provider(), settings.public_url
    if provider == "exotel":
        return ExotelSender(
            settings.exotel_api_key,
            settings.exotel_api_token,
            settings.exotel_account_sid,
            settings.exotel_from,
            subdomain=settings.exotel_subdomain or "api.in.exotel.com",
            api_url=settings.exotel_api_url,
            status_callback=f"{base}/exotel/status/{settings.webhook_secret}" if base else "",
            default_dlt=settings.dlt_default,
        )
    if provider == "mseva":
        return MsevaSender(
            settings.mseva_username,
            settings.mseva_password,
            settings.mseva_sender_id,
            settings.mseva_secure_key,
            api_url=settings.mseva_api_url,
            default_dlt=settings.dlt_default,
        )
    return twilio_sender(settings)


#: Each unsigned provider's allow-list: its variable, and who gives the addresses.
_ALLOW = {
    "exotel": ("Exotel's webhooks", "POUNDBOT_EXOTEL_ALLOW", "Exotel's support"),
    "mseva": ("Mobile Seva's pull", "POUNDBOT_MSEVA_ALLOW", "C-DAC (msdp@cdac.in)"),
}


def allow_warning(settings: Settings) -> str | None:
    """The start-up report's warning when the provider in use signs nothing and its
    allow-list is not set: then whoever learns the secret URL may write as anyone."""
    provider = settings.provider()
    if provider not in _ALLOW or settings.sms_off_reason() is not None:
        return None
    allow = settings.exotel_allow if provider == "exotel" else settings.mseva_allow
    if allow:
        return None
    what, variable, who = _ALLOW[provider]
    return (
        f"WARNING SMS: {what} are taken from any address ({variable} is not set): "
        f"whoever learns the secret URL can write as any keeper or officer; set {variable} "
        f"to the addresses {who} gives (docs/sms-india.md)"
    )


def sms_line(settings: Settings) -> str:
    """The start-up report's SMS line: the provider in use and where it is reached (the
    secret path segment is shown as ``<secret>``)."""
    provider = settings.provider()
    off = settings.sms_off_reason()
    if off:
        return (
            f"SMS: off (provider {provider}: {off})"
            if settings.sms_provider
            else f"SMS: off ({off})"
        )
    waits = (
        f"a request waits for the database {settings.wait_budget:g} s at most "
        "(POUNDBOT_WAIT_BUDGET)"
    )
    base = settings.public_url or ""
    stamp = (
        f"; default DLT entity {settings.dlt_default.entity_id}"
        if settings.dlt_default is not None
        else ""
    )
    if provider == "exotel":
        allow = ", from " + " ".join(settings.exotel_allow) if settings.exotel_allow else ""
        return (
            f"SMS: on, provider Exotel, from {settings.exotel_from}; SMS in at "
            f"{base}/exotel/sms/<secret>, delivery reports at {base}/exotel/status/<secret>, "
            f"missed calls (Passthru) at {base}/exotel/call/<secret>{allow}{stamp}; {waits}"
        )
    if provider == "mseva":
        allow = ", from " + " ".join(settings.mseva_allow) if settings.mseva_allow else ""
        return (
            f"SMS: on, provider Mobile Seva, sender id {settings.mseva_sender_id}, keyword "
            f"{settings.mseva_keyword!r}; pull at {base or '<public URL>'}/mseva/pull/<secret>"
            f"{allow}{stamp}; {waits}"
        )
    return (
        f"SMS: on, provider Twilio, webhook {base}/twilio/sms, from {settings.twilio_from} "
        f"(Twilio SMS is one-way in India); {waits}"
    )
