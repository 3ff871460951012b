"""The s.13(2) notice as a printable page: A4, one block per language of the pound in the
order the pound lists them, each marked with its ``lang`` and set in its Noto font, every
piece of user data escaped."""

from __future__ import annotations

import re
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.config import Authority, Pound
from bot.config.names import local
from bot.i18n import fmt
from bot.i18n import render as r
from domain.case import Case
from domain.kinds import DEFAULT_KINDS
from domain.s07_seizure import Lot, Seizure
from tests.unit.test_render_scenario import (
    AUCTION_ON,
    CASE_NUMBER,
    INDIAN,
    NOTICE_ON,
    citation,
    config,
    open_case,
    tr,
    untranslated_leak,
    visible_text,
)

#: Elements HTML closes by itself (no end tag).
VOID = {"meta", "link", "br", "hr", "img", "input"}
STATIC = Path(__file__).parents[2] / "bot" / "web" / "static"

POUNDS = ["KNM", "ENM", "VTV"]
IDS = [f"s.13(2) pound {code}" for code in POUNDS]


class Page(HTMLParser):
    """The structure of a page: every tag opened and closed in order, and each section."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.html_lang: str | None = None
        self.sections: list[dict[str, str | None]] = []
        self.section_text: list[list[str]] = []
        self.style: list[str] = []
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            self.html_lang = dict(attrs).get("lang")
        if tag == "link" and dict(attrs).get("rel") == "stylesheet":
            # The style is a file the desk serves (no inline style under its CSP).
            href = str(dict(attrs).get("href"))
            assert href.startswith("/web/static/"), href
            self.style.append((STATIC / href.removeprefix("/web/static/")).read_text())
        if tag == "section":
            self.sections.append(dict(attrs))
            self.section_text.append([])
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:]}")
            return
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "style":
            self.style.append(data)
        elif "section" in self.open and data.strip():
            self.section_text[-1].append(data.strip())


def parse(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    parser.close()
    return parser


def places(code: str) -> tuple[Authority, Pound]:
    return config().authority_of(code), config().pounds[code]


def page_of(code: str, case: Case | None = None) -> str:
    authority, pound = places(code)
    return r.notice_html(case or open_case(), authority, pound, NOTICE_ON, pound.languages)


@pytest.mark.parametrize("code", POUNDS, ids=IDS)
def test_the_page_parses_with_every_element_closed_in_order(code: str) -> None:
    page = parse(page_of(code))
    assert page.doctype.lower() == "doctype html"
    assert not page.problems
    assert page.open == []


@pytest.mark.parametrize("code", POUNDS, ids=IDS)
def test_each_language_of_the_pound_has_its_block_in_the_pounds_order(code: str) -> None:
    _, pound = places(code)
    page = parse(page_of(code))
    assert [s.get("lang") for s in page.sections] == list(pound.languages)
    assert all(s.get("class") == "notice" for s in page.sections)
    assert page.html_lang == pound.languages[0]


def test_the_enmakaje_notice_is_in_malayalam_kannada_and_english() -> None:
    """A Kannada linguistic-minority area: Malayalam first, then Kannada, then English."""
    page = parse(page_of("ENM"))
    assert [s.get("lang") for s in page.sections] == ["ml", "kn", "en"]


BLOCKS = [(code, lang) for code in POUNDS for lang in config().pounds[code].languages]


def block_of(page: Page, lang: str) -> str:
    langs = [s.get("lang") for s in page.sections]
    return "\n".join(page.section_text[langs.index(lang)])


@pytest.mark.parametrize(
    ("code", "lang"), BLOCKS, ids=[f"s.13(2) pound {c} {x}" for c, x in BLOCKS]
)
def test_each_block_states_the_notice_in_its_own_language(code: str, lang: str) -> None:
    authority, pound = places(code)
    text = block_of(parse(page_of(code)), lang)
    for fact in (
        CASE_NUMBER,
        local(authority.name, lang),
        local(pound.name, lang),
        fmt.date(NOTICE_ON, lang),
        fmt.date(AUCTION_ON, lang),
        citation("s.13(3)", lang),
    ):
        assert fact in text, fact
    labels = [line[:3] for line in text.splitlines() if re.match(r"\([abc]\)", line)]
    assert labels == ["(a)", "(b)", "(c)"]


@pytest.mark.parametrize("lang", INDIAN)
def test_a_block_in_an_indian_language_is_written_in_its_script(lang: str) -> None:
    """Fails while the catalog of ``lang`` lacks a translation the notice uses."""
    code = {"ml": "KNM", "ta": "VTV", "kn": "ENM"}[lang]
    authority, pound = places(code)
    block = block_of(parse(page_of(code)), lang)
    case = open_case()
    days = (case.seizure.impounded_on, NOTICE_ON, AUCTION_ON, AUCTION_ON.replace(day=18))
    values = [
        authority.name,
        authority.office_address,
        authority.village,
        authority.market_place,
        pound.name,
        pound.address,
        case.seizure.place_seized,
        *(lot.description for lot in case.seizure.lots),
        *(r.kind_count(lot.kind, lot.count, tr(lang)) for lot in case.seizure.lots),
        CASE_NUMBER,
        "1961",
        *(fmt.date(day, lang) for day in days),
    ]
    assert untranslated_leak(block, lang, values) is None


def test_the_page_is_laid_out_for_a4_paper() -> None:
    style = "".join(parse(page_of("KNM")).style)
    assert re.search(r"@page\s*\{[^}]*size:\s*A4", style)


def test_the_font_stack_names_the_noto_fonts_of_the_three_indian_scripts() -> None:
    style = "".join(parse(page_of("ENM")).style)
    for font in ("Noto Sans Malayalam", "Noto Sans Tamil", "Noto Sans Kannada"):
        assert f'"{font}"' in style
    for lang, font in (("ml", "Malayalam"), ("ta", "Tamil"), ("kn", "Kannada")):
        assert re.search(rf':lang\({lang}\)\s*\{{[^}}]*"Noto Sans {font}"', style)


def test_markup_in_a_place_name_is_escaped_not_run() -> None:
    seizure = Seizure(
        pound="KNM",
        lots=(Lot("cow", 1, 'white & "black" <b>spots</b>'),),
        place_seized="<script>alert('x')</script> junction",
        brought_at=datetime(2026, 3, 2, 10, 30),
    )
    case = Case.open(CASE_NUMBER, seizure, DEFAULT_KINDS, seizure.impounded_on)
    authority, pound = places("KNM")
    hostile = authority._replace(village="Kunnamangalam <img src=x onerror=alert(1)>")
    page = r.notice_html(case, hostile, pound, NOTICE_ON, ["ml", "en"])
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; junction" in page
    assert "<b>" not in page
    assert "<img" not in page
    parsed = parse(page)
    assert not parsed.problems
    assert "<script>alert('x')</script> junction" in visible_text(page)


def test_a_language_listed_twice_is_printed_once_and_none_listed_prints_english() -> None:
    authority, pound = places("KNM")
    twice = parse(r.notice_html(open_case(), authority, pound, NOTICE_ON, ["ml", "en", "ml"]))
    assert [s.get("lang") for s in twice.sections] == ["ml", "en"]
    none = parse(r.notice_html(open_case(), authority, pound, NOTICE_ON, []))
    assert [s.get("lang") for s in none.sections] == ["en"]
    assert none.html_lang == "en"


@pytest.mark.parametrize(
    "langs", [["en", "ml"], ["ml", "en"]], ids=["s.13(2) en first", "s.13(2) ml first"]
)
def test_the_title_names_the_notice_in_the_first_language_and_the_case(langs: list[str]) -> None:
    authority, pound = places("KNM")
    page = r.notice_html(open_case(), authority, pound, NOTICE_ON, langs)
    title = re.search(r"<title>(.*)</title>", page)
    assert title is not None
    assert CASE_NUMBER in title.group(1)
    assert citation("s.13(2)", langs[0]) in title.group(1)
