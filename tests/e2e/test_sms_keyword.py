"""On Mobile Seva an SMS reaches poundbot only when it starts with the keyword: every SMS
that tells someone what to send says it (HELP, "not a command", the officer's "Then send
NOTICE ..."); on Exotel, Telegram or the web desk it is never shown."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.i18n.catalogs import translator
from bot.i18n.refusals.parse import parse_error
from bot.i18n.sms_keyword import keyword_in_sms, sms_keyword
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES
from tests.e2e.india_harness import KEEPER_PHONE, KEYWORD, OFFICER_PHONE, database, india_rig
from tests.e2e.test_sms_india import OWNER, SEIZE


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as found:
        yield found


@pytest.mark.parametrize("provider", ["mseva", "exotel"])
async def test_every_sms_that_says_what_to_send_says_the_mobile_seva_keyword(
    provider: str, tmp_path: Path, url: str
) -> None:
    async with india_rig(tmp_path, provider, url) as rig:
        await rig.say(OWNER, "XYZZY KNM-1", "2026-03-01 10:00:01")
        await rig.say(OWNER, "HELP", "2026-03-01 10:00:02")
        await rig.deliver(2)
        wrong, helped = (rig.text_of(m) for m in rig.sent())
        await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:03")
        await rig.deliver(4)
        await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
        before = len(rig.sent())
        await rig.say(KEEPER_PHONE, "REPORT KNM-1", "2026-03-09 10:00:01")
        await rig.deliver(before + 4)
        to_officer = "\n".join(
            rig.text_of(m) for m in rig.sent()[before:] if rig.to(m) == OFFICER_PHONE
        )
    if provider == "mseva":
        assert f"Send {KEYWORD} HELP for the list" in wrong, wrong
        assert f"like {KEYWORD} DUES KNM-17" in wrong, wrong
        assert helped.startswith(f"{KEYWORD} DUES"), helped
        assert f"Then send {KEYWORD} NOTICE KNM-1." in to_officer, to_officer
    else:
        assert "Send HELP for the list, or a command like DUES KNM-17" in wrong, wrong
        assert helped.startswith("DUES"), helped
        assert "Then send NOTICE KNM-1." in to_officer, to_officer
        assert KEYWORD not in wrong + helped + to_officer
    assert sms_keyword() == ""  # the server stopped: the keyword with it


def test_the_keyword_is_in_sms_only() -> None:
    tr = translator("en")
    with keyword_in_sms("KL POUND"):  # a chat (Telegram, the desk) renders outside SMS
        chat = parse_error("unknown_command", {"word": "XYZZY"}, tr)
    assert "KL POUND" not in chat
    assert "like DUES KNM-17" in chat


def test_an_sms_on_mobile_seva_says_the_keyword_and_a_whatsapp_answer_does_not() -> None:
    from bot.i18n.dlt_probe import rendering_sms
    from bot.i18n.sms_keyword import without_keyword

    tr = translator("en")
    with keyword_in_sms("KL POUND"), rendering_sms():
        sms = parse_error("unknown_command", {"word": "XYZZY"}, tr)
        with without_keyword():  # WhatsApp through Twilio's number
            whatsapp = parse_error("unknown_command", {"word": "XYZZY"}, tr)
    assert "Send KL POUND HELP for the list, or a command like KL POUND DUES KNM-17" in sms
    assert "KL POUND" not in whatsapp
