"""The log of ``poundbot serve`` after every provider's webhooks, by GET and by POST:
uvicorn's access lines carry no query string, and no line carries a sender's number (in
any of the forms the providers write it) or the words of a message.

The server is the real command, run as an operator runs it (``poundbot --log-level debug
serve``, its standard error captured); the providers' APIs are the fakes on loopback."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from twilio.request_validator import RequestValidator

from bot.fakes.exotel_api import FakeExotel
from bot.fakes.loopback import serve
from bot.fakes.mseva_api import FakeMseva
from bot.fakes.twilio_api import FakeTwilio

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_URL = "https://pound.example.org"
SECRET = "w" * 24 + "-webhook-secret-of-the-log"
WRONG = "x" * 40
TWILIO_SID, TWILIO_TOKEN = "AC" + "7" * 32, "twilio-auth-token-of-the-log-test"
EXOTEL_SID, EXOTEL_KEY, EXOTEL_TOKEN = "pound-log-test", "exotel-key-log", "exotel-token-log"
MSEVA_USER, MSEVA_PASSWORD, MSEVA_KEY = "kllog01", "mseva-log-pass", "5e6f7a8b-log-key"

#: The senders' numbers, as 10 digits: none may be in the log in any form.
NUMBERS = ("9847014321", "9847014322", "9847014323", "9847014324", "9800005001", "9800005002")
#: The words of the messages: none may be in the log.
WORDS = ("Chathamangalam", "Kunnamangalam", "Kunhammed", "Vellimadukunnu", "Edakkad")
#: The parameters the providers send: a query string would carry them.
PARAMS = ("Body=", "From=", "To=", "SmsSid=", "CallFrom=", "mobileNumber=", "message=")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _environment(tmp_path: Path, settings: Mapping[str, str]) -> dict[str, str]:
    """The test's environment without any setting of poundbot's, then ``settings``."""
    prefixes = ("POUNDBOT_", "TWILIO_", "EXOTEL_", "MSEVA_", "TELEGRAM_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env | {
        "POUNDBOT_DATA_DIR": str(tmp_path / "data"),
        "POUNDBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}",
        "POUNDBOT_PUBLIC_URL": PUBLIC_URL,
        "POUNDBOT_SECRET": "link-secret-of-the-log-test",
        **settings,
    }


@asynccontextmanager
async def poundbot_serve(
    tmp_path: Path, settings: Mapping[str, str]
) -> AsyncIterator[tuple[httpx.AsyncClient, Path]]:
    """``poundbot --log-level debug serve`` on a free port; yields a client of it and the
    file its standard error goes to, and stops the server (SIGTERM, as systemd does) when
    the context ends."""
    port, log = _free_port(), tmp_path / "serve.log"
    with log.open("wb") as err:
        server = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "bot.entry.cli", "--log-level", "debug", "serve"),
            *("--host", "127.0.0.1", "--port", str(port)),
            cwd=ROOT,
            env=_environment(tmp_path, settings),
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            for _ in range(600):
                assert server.returncode is None, log.read_text()
                try:
                    if (await client.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("poundbot serve did not start:\n" + log.read_text())
            yield client, log
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), 60)


def _leaks(log: str) -> list[str]:
    """The lines of ``log`` with a number, a word of a message or a query parameter."""
    found = []
    for line in log.splitlines():
        packed = re.sub(r"[\s()-]", "", line)  # a number written in groups, joined
        if (
            any(n in packed for n in NUMBERS)
            or any(w in line for w in WORDS)
            or any(p in line for p in PARAMS)
        ):
            found.append(line)
    return found


def _access(log: str, method: str, path: str, status: int) -> bool:
    """Whether uvicorn logged ``method path`` answered ``status``, without a query."""
    return f'"{method} {path} HTTP/1.1" {status}' in log


def _signed(path: str, params: Mapping[str, str]) -> dict[str, str]:
    validator = RequestValidator(TWILIO_TOKEN)
    return {"X-Twilio-Signature": validator.compute_signature(PUBLIC_URL + path, dict(params))}


async def test_twilio_sms_whatsapp_and_status_leave_no_number_or_message_in_the_log(
    tmp_path: Path,
) -> None:
    twilio = FakeTwilio()
    async with serve(twilio.app()) as api:
        settings = {
            "TWILIO_ACCOUNT_SID": TWILIO_SID,
            "TWILIO_AUTH_TOKEN": TWILIO_TOKEN,
            "TWILIO_FROM_NUMBER": "+14155550100",
            "TWILIO_WHATSAPP_FROM": "whatsapp:+14155550100",
            "TWILIO_API_URL": api,
        }
        async with poundbot_serve(tmp_path, settings) as (http, log):
            sms = {
                "MessageSid": "SM" + "1" * 32,
                "From": "+919847014321",
                "To": "+14155550100",
                "Body": "DUES KNM-1 Chathamangalam 4519.50 09847014322",
            }
            whatsapp = {
                "MessageSid": "SM" + "2" * 32,
                "From": "whatsapp:+919847014323",
                "To": "whatsapp:+14155550100",
                "Body": "SEIZE 2 cow AT Kunnamangalam OWNER Kunhammed 919847014324",
            }
            status = {"MessageSid": "SM" + "3" * 32, "MessageStatus": "delivered"}
            status["To"] = "+919847014321"
            answers = [
                await http.post("/twilio/sms", data=sms, headers=_signed("/twilio/sms", sms)),
                await http.post(
                    "/twilio/sms", data=whatsapp, headers=_signed("/twilio/sms", whatsapp)
                ),
                await http.post(
                    "/twilio/status", data=status, headers=_signed("/twilio/status", status)
                ),
                # Twilio can be set to call by GET: poundbot takes POST only.
                await http.get("/twilio/sms", params=sms),
                await http.post("/twilio/sms?" + str(httpx.QueryParams(sms)), data=sms),
            ]
            assert [a.status_code for a in answers] == [200, 200, 204, 405, 403]
            assert "<Message>" in answers[0].text
    text = log.read_text()
    assert not _leaks(text), "\n".join(_leaks(text))
    assert _access(text, "POST", "/twilio/sms", 200)
    assert _access(text, "POST", "/twilio/status", 204)
    assert _access(text, "GET", "/twilio/sms?[query]", 405)
    assert _access(text, "POST", "/twilio/sms?[query]", 403)


async def test_exotel_by_get_and_post_leaves_no_number_or_message_in_the_log(
    tmp_path: Path,
) -> None:
    exotel = FakeExotel((EXOTEL_SID, EXOTEL_KEY, EXOTEL_TOKEN))
    async with serve(exotel.app()) as api:
        settings = {
            "POUNDBOT_SMS_PROVIDER": "exotel",
            "POUNDBOT_WEBHOOK_SECRET": SECRET,
            "POUNDBOT_DLT_ENTITY_ID": "1201160000000012345",
            "POUNDBOT_DLT_TEMPLATE_ID": "1207160000000067890",
            "EXOTEL_API_KEY": EXOTEL_KEY,
            "EXOTEL_API_TOKEN": EXOTEL_TOKEN,
            "EXOTEL_ACCOUNT_SID": EXOTEL_SID,
            "EXOTEL_API_URL": api,
            "EXOTEL_FROM": "08047091234",
        }
        async with poundbot_serve(tmp_path, settings) as (http, log):
            sms = {
                "SmsSid": "9f" + "1" * 30,
                "From": "09847014321",
                "To": "08047091234",
                "Date": "2026-12-06 10:00:00",
                "Body": "DUES KNM-1 Chathamangalam 4519.50 +91 98470 14322",
            }
            posted = sms | {"SmsSid": "9f" + "2" * 30, "From": "919847014323"}
            posted["Body"] = "SEIZE 2 cow AT Kunnamangalam OWNER Kunhammed 098470-14324"
            status = {"SmsSid": "9f" + "3" * 30, "To": "09847014321", "Status": "delivered"}
            call = {"CallSid": "c" * 32, "CallFrom": "09847014322", "CallTo": "08047091234"}
            call |= {"Direction": "incoming", "CurrentTime": "2026-12-06 10:01:00"}
            answers = [
                await http.head(f"/exotel/sms/{SECRET}", params=sms),
                await http.get(f"/exotel/sms/{SECRET}", params=sms),
                await http.post(f"/exotel/sms/{SECRET}", data=posted),
                await http.get(f"/exotel/status/{SECRET}", params=status),
                await http.post(f"/exotel/status/{SECRET}", data=status),
                await http.get(f"/exotel/call/{SECRET}", params=call),
                await http.post(f"/exotel/call/{SECRET}", data=call),
                await http.get(f"/exotel/sms/{WRONG}", params=sms),
            ]
            assert [a.status_code for a in answers] == [200] * 7 + [404]
    text = log.read_text()
    assert not _leaks(text), "\n".join(_leaks(text))
    for method in ("HEAD", "GET"):
        assert _access(text, method, "/exotel/sms/[redacted]?[query]", 200)
    assert _access(text, "POST", "/exotel/sms/[redacted]", 200)
    assert _access(text, "GET", "/exotel/status/[redacted]?[query]", 200)
    assert _access(text, "GET", "/exotel/call/[redacted]?[query]", 200)
    assert _access(text, "GET", f"/exotel/sms/{WRONG}?[query]", 404)
    assert SECRET not in text


async def test_mobile_seva_by_get_and_post_leaves_no_number_or_message_in_the_log(
    tmp_path: Path,
) -> None:
    mseva = FakeMseva(MSEVA_USER, MSEVA_PASSWORD, MSEVA_KEY)
    async with serve(mseva.app()) as api:
        settings = {
            "POUNDBOT_SMS_PROVIDER": "mseva",
            "POUNDBOT_WEBHOOK_SECRET": SECRET,
            "POUNDBOT_DLT_ENTITY_ID": "1201160000000012345",
            "POUNDBOT_DLT_TEMPLATE_ID": "1207160000000067890",
            "MSEVA_USERNAME": MSEVA_USER,
            "MSEVA_PASSWORD": MSEVA_PASSWORD,
            "MSEVA_SENDER_ID": "KLPOND",
            "MSEVA_SECURE_KEY": MSEVA_KEY,
            "MSEVA_KEYWORD": "KL POUND",
            "MSEVA_API_URL": f"{api}/esms/sendsmsrequestDLT",
        }
        async with poundbot_serve(tmp_path, settings) as (http, log):
            pulled = {
                "mobileNumber": "9800005001",
                "timeStamp": "2026-12-06 10:00:00",
                "operatorName": "",
                "areaCode": "",
                "message": "KL POUND DUES KNM-1 Vellimadukunnu 4519.50 9847014321",
            }
            posted = pulled | {"mobileNumber": "9800005002"}
            posted["message"] = "KL POUND SEIZE 2 cow AT Edakkad OWNER Kunhammed 09847014322"
            answers = [
                await http.get(f"/mseva/pull/{SECRET}", params=pulled),
                await http.post(f"/mseva/pull/{SECRET}", data=posted),
                await http.get(f"/mseva/pull/{WRONG}", params=pulled),
            ]
            assert [a.status_code for a in answers] == [200, 200, 404]
    text = log.read_text()
    assert not _leaks(text), "\n".join(_leaks(text))
    assert _access(text, "GET", "/mseva/pull/[redacted]?[query]", 200)
    assert _access(text, "POST", "/mseva/pull/[redacted]", 200)
    assert _access(text, "GET", f"/mseva/pull/{WRONG}?[query]", 404)
