"""The SMS provider settings, the start-up refusals, and each provider's sender against its
fake on loopback (the real HTTP client, the documented request and answer)."""

from __future__ import annotations

import hashlib
import html

import pytest

from bot.adapters.outbox import PermanentSendError, TransientSendError
from bot.channels.exotel.sender import ExotelSender, encoding_type
from bot.channels.mseva.sender import MsevaSender, entities, push_key, sha1_password
from bot.channels.mseva.webhook import strip_keyword
from bot.channels.sms.providers import sms_line, sms_routes
from bot.config.settings import Settings
from bot.entry.cli import main
from bot.fakes.exotel_api import FakeExotel
from bot.fakes.loopback import serve
from bot.fakes.mseva_api import FakeMseva
from bot.support.dlt import DltStamp

SECRET = "x" * 40
EXOTEL = {
    "POUNDBOT_SMS_PROVIDER": "exotel",
    "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
    "POUNDBOT_WEBHOOK_SECRET": SECRET,
    "EXOTEL_API_KEY": "key",
    "EXOTEL_API_TOKEN": "token",
    "EXOTEL_ACCOUNT_SID": "sid",
    "EXOTEL_SUBDOMAIN": "api.in.exotel.com",
    "EXOTEL_FROM": "08047091234",
}
MSEVA = {
    "POUNDBOT_SMS_PROVIDER": "mseva",
    "POUNDBOT_WEBHOOK_SECRET": SECRET,
    "MSEVA_USERNAME": "kldept01",
    "MSEVA_PASSWORD": "pass",
    "MSEVA_SENDER_ID": "KLPOUND",
    "MSEVA_SECURE_KEY": "secure",
    "MSEVA_KEYWORD": "  KL   POUND ",
}
STAMP = DltStamp("1201160000000012345", "1207160000000067890")


def test_twilio_stays_the_default_when_no_provider_is_named() -> None:
    settings = Settings.from_env({})
    assert settings.provider() == "twilio"
    assert settings.sms_off_reason() == (
        "no TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER, POUNDBOT_PUBLIC_URL"
    )
    assert settings.sms_refusal() is None  # off, not refused


@pytest.mark.parametrize("env", [EXOTEL, MSEVA], ids=["exotel", "mseva"])
def test_a_complete_provider_is_on_and_named_in_the_report(env: dict[str, str]) -> None:
    settings = Settings.from_env(env)
    assert settings.sms_off_reason() is None
    assert settings.sms_refusal() is None
    line = sms_line(settings)
    assert line.startswith("SMS: on, provider " + ("Exotel" if "EXOTEL_FROM" in env else "Mobile"))
    assert SECRET not in line


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({**EXOTEL, "EXOTEL_API_TOKEN": ""}, "no EXOTEL_API_TOKEN"),
        ({**MSEVA, "MSEVA_KEYWORD": ""}, "no MSEVA_KEYWORD"),
        ({**MSEVA, "POUNDBOT_WEBHOOK_SECRET": "short"}, "at least 32 characters"),
        ({"POUNDBOT_SMS_PROVIDER": "twilio"}, "no TWILIO_ACCOUNT_SID"),
    ],
    ids=["exotel token", "mseva keyword", "short secret", "twilio named"],
)
def test_a_named_provider_with_incomplete_settings_is_refused(
    env: dict[str, str], missing: str
) -> None:
    refusal = Settings.from_env(env).sms_refusal()
    assert refusal is not None
    assert missing in refusal
    assert "\n" not in refusal


def test_an_unknown_provider_or_a_bad_allow_list_is_an_error() -> None:
    with pytest.raises(ValueError, match="POUNDBOT_SMS_PROVIDER must be one of"):
        Settings.from_env({"POUNDBOT_SMS_PROVIDER": "msg91"})
    with pytest.raises(ValueError, match="POUNDBOT_MSEVA_ALLOW"):
        Settings.from_env({"POUNDBOT_MSEVA_ALLOW": "10.0.0.0/33"})
    allowed = Settings.from_env({"POUNDBOT_MSEVA_ALLOW": "164.100.14.0/24, 10.1.2.3"})
    assert allowed.mseva_allow == ("164.100.14.0/24", "10.1.2.3/32")


def test_whatsapp_goes_through_twilio_whichever_provider_sends_sms() -> None:
    twilio = {
        "TWILIO_ACCOUNT_SID": "AC" + "0" * 32,
        "TWILIO_AUTH_TOKEN": "t",
        "TWILIO_FROM_NUMBER": "+14155550100",
        "TWILIO_WHATSAPP_FROM": "whatsapp:+14155550100",
    }
    settings = Settings.from_env({**EXOTEL, **twilio})
    assert settings.provider() == "exotel"
    assert settings.whatsapp_off_reason() is None
    paths = {route.path for route in sms_routes(settings)}  # type: ignore[attr-defined]
    assert {"/exotel/sms/{secret}", "/twilio/sms", "/twilio/status"} <= paths
    alone = Settings.from_env({**EXOTEL, "TWILIO_WHATSAPP_FROM": "whatsapp:+14155550100"})
    assert "Twilio is not set up" in (alone.whatsapp_off_reason() or "")


def test_the_webhook_secret_and_provider_credentials_never_reach_a_log() -> None:
    secrets = Settings.from_env({**EXOTEL, **MSEVA}).secrets()
    for value in (SECRET, "key", "token", "pass", "secure"):
        assert value in secrets


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["config", "check"]])
def test_serve_and_config_check_refuse_an_incomplete_provider_in_one_line(
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in {**EXOTEL, "EXOTEL_FROM": ""}.items():
        monkeypatch.setenv(name, value)
    assert main(command) in (1, 2)
    said = caplog.text + capsys.readouterr().err
    (line,) = [x for x in said.splitlines() if "POUNDBOT_SMS_PROVIDER=exotel" in x]
    assert "no EXOTEL_FROM" in line


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("KL POUND DUES KNM-1", "DUES KNM-1"),
        ("kl   pound   dues knm-1", "dues knm-1"),
        ("  Kl Pound\tSTATUS KNM-2 ", "STATUS KNM-2"),
        ("KLPOUND DUES KNM-1", "DUES KNM-1"),  # the keyword written without its space
        ("KL POUNDS DUES", "KL POUNDS DUES"),
        ("KL POUND", ""),
    ],
)
def test_the_pull_keyword_is_taken_off_in_any_case_and_spacing(message: str, words: str) -> None:
    assert strip_keyword(message, "KL POUND") == words


def test_the_push_key_and_password_are_the_documented_hashes() -> None:
    # SHA-512 of username + senderid + content + secure key; SHA-1 of the password.
    expected = hashlib.sha512(b"kldept01KLPOUNDHellosecure").hexdigest()
    assert push_key(" kldept01 ", "KLPOUND", " Hello ", "secure ") == expected
    assert sha1_password("pass") == hashlib.sha1(b"pass").hexdigest()
    assert entities("കു") == "&#3349;&#3393;"


@pytest.mark.parametrize(
    ("text", "kind"),
    [("Dues KNM-1: Rs 600", "plain"), ("Dues: ₹600", "unicode"), ("കുടിശ്ശിക", "unicode")],
)
def test_exotel_encoding_is_unicode_outside_gsm(text: str, kind: str) -> None:
    assert encoding_type(text) == kind


async def test_exotel_sender_posts_the_documented_fields_and_reads_the_sid() -> None:
    fake = FakeExotel(("sid", "key", "token"))
    async with (
        serve(fake.app()) as url,
        ExotelSender(
            "key",
            "token",
            "sid",
            "08047091234",
            api_url=url,
            status_callback="https://p/exotel/status/s",
            default_dlt=STAMP,
        ) as sender,
    ):
        first = await sender.send("+919847099999", "Dues KNM-1", "k1")
        other = DltStamp("1201160000000012345", "1207160000000011111")
        await sender.send("+919847099999", "കുടിശ്ശിക", "k2", dlt=other)
        fake.fail = [503]
        with pytest.raises(TransientSendError):
            await sender.send("+919847099999", "x", "k3")
        fake.fail = [400]
        with pytest.raises(PermanentSendError, match="exotel 400: fake refusal"):
            await sender.send("+919847099999", "x", "k4")
    assert first == f"{1:032x}"
    plain, unicode = fake.messages
    assert plain == {
        "From": "08047091234",
        "To": "+919847099999",
        "Body": "Dues KNM-1",
        "EncodingType": "plain",
        "DltEntityId": STAMP.entity_id,
        "DltTemplateId": STAMP.template_id,
        "StatusCallback": "https://p/exotel/status/s",
    }
    assert unicode["EncodingType"] == "unicode"
    assert unicode["DltTemplateId"] == "1207160000000011111"


async def test_exotel_refuses_wrong_credentials_for_good() -> None:
    fake = FakeExotel(("sid", "key", "token"))
    async with (
        serve(fake.app()) as url,
        ExotelSender("key", "wrong", "sid", "0804", api_url=url) as s,
    ):
        with pytest.raises(PermanentSendError, match="401: Authentication failed"):
            await s.send("+919847099999", "x", "k")
    assert fake.messages == []


async def test_mseva_sender_is_taken_by_the_fake_with_the_right_key() -> None:
    fake = FakeMseva("kldept01", "pass", "secure")
    async with (
        serve(fake.app()) as url,
        MsevaSender(
            "kldept01",
            "pass",
            "KLPOUND",
            "secure",
            api_url=f"{url}/esms/sendsmsrequestDLT",
            default_dlt=STAMP,
        ) as sender,
    ):
        assert await sender.send("+919847099999", "Dues KNM-1", "k1") == "0000000001msdgsms"
        await sender.send("+919847099999", "കുടിശ്ശിക KNM-1", "k2")
        fake.fail = [502]
        with pytest.raises(TransientSendError):
            await sender.send("+919847099999", "x", "k3")
    plain, unicode = fake.messages
    assert plain["smsservicetype"] == "singlemsg"
    assert plain["mobileno"] == "919847099999"
    assert plain["templateid"] == STAMP.template_id
    assert unicode["smsservicetype"] == "unicodemsg"
    assert html.unescape(unicode["content"]) == "കുടിശ്ശിക KNM-1"


async def test_mseva_refusals_are_permanent() -> None:
    fake = FakeMseva("kldept01", "pass", "secure")
    async with (
        serve(fake.app()) as url,
        MsevaSender(
            "kldept01", "pass", "KLPOUND", "not-the-key", api_url=f"{url}/esms/sendsmsrequestDLT"
        ) as sender,
    ):
        with pytest.raises(PermanentSendError, match="Hash does not match"):
            await sender.send("+919847099999", "x", "k")
    assert fake.messages == []
