"""The language of a reply is chosen in one place (``bot.i18n.language``)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Config, load_config, sample_config_path
from bot.i18n import reply_language
from bot.i18n.language import PAGE_FALLBACK, TEXT_FALLBACK

CONFIG: Config = load_config(sample_config_path())
POUND = next(iter(CONFIG.pounds.values()))
AUTHORITY = CONFIG.authorities[POUND.authority]
BOT = Path(__file__).resolve().parents[2] / "bot"


def test_a_language_chosen_comes_first_and_one_not_spoken_is_passed_over() -> None:
    assert reply_language("ta", text="പിഴ", pound=POUND) == "ta"
    assert reply_language("fr", None, "kn", text="DUES") == "kn"


def test_the_script_of_the_text_comes_before_the_pound() -> None:
    assert reply_language(None, text="പിഴ KNM-17", pound=POUND) == "ml"
    assert reply_language(text="அபராதம்", pound=POUND) == "ta"


def test_latin_letters_go_to_the_pound_then_the_authority_then_english() -> None:
    assert reply_language(text="DUES KNM-17", pound=POUND) == POUND.languages[0]
    assert reply_language(text="DUES KNM-17", authority=AUTHORITY) == AUTHORITY.default_language
    assert reply_language(text="DUES KNM-17") == TEXT_FALLBACK == "en"
    assert reply_language(text="") == TEXT_FALLBACK


def test_a_page_for_someone_unknown_is_in_malayalam() -> None:
    assert reply_language() == PAGE_FALLBACK == "ml"
    assert reply_language("", None) == PAGE_FALLBACK


def test_no_other_module_falls_back_to_a_language_of_its_own() -> None:
    fallback = re.compile(r"\b(or|else) \"(en|ml|ta|kn)\"")
    found = [
        str(path.relative_to(BOT))
        for path in BOT.rglob("*.py")
        if path.name != "language.py" and fallback.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
