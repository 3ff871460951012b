"""The WhatsApp templates poundbot needs, ready to submit for approval: every message
kind that can go outside the 24-hour window has its text in the four languages, with
the kind's variables and nothing else (deploy/whatsapp-templates/<kind>.json)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.whatsapp_route import Template
from bot.config.model import LANGUAGES, WHATSAPP_TEMPLATES
from bot.i18n import render, translator
from bot.support.words import KEYWORDS

TEMPLATES = Path(__file__).resolve().parents[2] / "deploy" / "whatsapp-templates"
PLACEHOLDER = re.compile(r"\{\{(\d+)\}\}")


def load(kind: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((TEMPLATES / f"{kind}.json").read_text("utf-8"))
    return document


def test_there_is_a_template_file_for_every_kind_and_no_other() -> None:
    assert sorted(p.stem for p in TEMPLATES.glob("*.json")) == sorted(WHATSAPP_TEMPLATES)


@pytest.mark.parametrize("kind", sorted(WHATSAPP_TEMPLATES))
def test_each_template_has_its_kinds_variables_in_all_four_languages(kind: str) -> None:
    document = load(kind)
    names = WHATSAPP_TEMPLATES[kind]
    assert document["kind"] == kind
    assert tuple(document["variables"]) == names
    assert sorted(document["content"]) == sorted(LANGUAGES)
    wanted = {str(i) for i in range(1, len(names) + 1)}
    for lang, content in document["content"].items():
        body = content["types"]["twilio/text"]["body"]
        assert content["language"] == lang
        assert content["friendly_name"] == f"poundbot_{kind}_{lang}"
        assert set(PLACEHOLDER.findall(body)) == wanted, (lang, body)
        assert set(content["variables"]) == wanted  # the samples Meta reviews
        # What WhatsApp refuses: a body that starts or ends with a variable, two
        # variables side by side, a body over 1024 characters.
        assert not PLACEHOLDER.match(body.strip())
        assert not re.search(r"\{\{\d+\}\}$", body.strip())
        assert not re.search(r"\}\}[\s.,:;]*\{\{", body)
        assert len(body) <= 1024


@pytest.mark.parametrize("kind", sorted(WHATSAPP_TEMPLATES))
def test_the_words_a_template_asks_for_are_words_poundbot_reads_in_that_language(
    kind: str,
) -> None:
    document = load(kind)
    for lang, content in document["content"].items():
        body = content["types"]["twilio/text"]["body"]
        for command in document["words"]:
            assert any(word in body for word in KEYWORDS[command][lang]), (kind, lang, command)


def test_the_values_poundbot_sends_match_each_templates_variables() -> None:
    tr = translator("ml")
    auction = render.auction_values("KNM-1", date(2026, 3, 20), "Kunnamangalam market", tr)
    assert len(auction) == len(WHATSAPP_TEMPLATES["owner_auction"])
    values = json.loads(Template("reminder", ("two\nlines\tand  spaces",)).variables())
    assert values == {"1": "two lines and spaces"}
