"""English SMS stay in GSM-7: ``Rs`` for the rupee sign and ``...`` for an ellipsis in
every SMS (the ``₹`` and ``…`` stay on the web, in chat and in documents), so that an
English officer's replies cost half the SMS a UCS-2 text would."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from bot.i18n.catalogs import translator
from bot.i18n.dlt_probe import rendering_sms
from bot.support.sms_segments import segments
from i18n_tools.sms_budget import owner_sms
from i18n_tools.staff_sms import staff_sms

REGISTRY = Path(__file__).parents[2] / "locales" / "dlt-templates.json"


@cache
def _english_staff() -> dict[str, str]:
    return staff_sms("en")


def test_the_fixed_text_of_every_english_template_is_gsm7() -> None:
    templates = json.loads(REGISTRY.read_text(encoding="utf-8"))
    english = [t for t in templates if t["lang"] == "en"]
    assert english
    wide = {t["kind"]: t["text"] for t in english if segments(t["text"]).encoding != "GSM-7"}
    assert wide == {}


@pytest.mark.parametrize("who", ["staff", "owner"])
def test_every_english_sms_on_the_worst_case_is_gsm7(who: str) -> None:
    rendered = _english_staff() if who == "staff" else owner_sms("en")
    wide = {name: text for name, text in rendered.items() if segments(text).encoding != "GSM-7"}
    assert wide == {}


@pytest.mark.parametrize("name", ["Sep auction s.13(3)", "Sep auction s.15(1)"])
def test_the_auction_reply_to_an_english_officer_costs_three_sms_not_six(name: str) -> None:
    assert segments(_english_staff()[name]).segment_count <= 3


@pytest.mark.parametrize("name", ["Sep report to officer", "Sep notice"])
def test_the_report_and_notice_replies_to_an_english_officer_stay_in_gsm7(name: str) -> None:
    sent = segments(_english_staff()[name])
    assert (sent.encoding, sent.segment_count <= 3) == ("GSM-7", True)


def test_outside_an_sms_the_ellipsis_stays() -> None:
    message = (
        "On that day record each lot with %(sold)s … %(to)s name, place %(declared)s (the "
        "buyer's declaration that they are not barred from buying, s.18) or %(unsold)s."
    )
    assert "…" in translator("en").gettext(message)
    with rendering_sms():
        assert "…" not in translator("en").gettext(message)
        assert "…" in translator("ml").gettext(message)
