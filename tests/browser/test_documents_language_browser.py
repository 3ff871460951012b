"""The language switch of the printable documents and the charts in Chromium: each page
offers it, and choosing a language shows the same page (its month, its case) in that
language, at desktop and phone widths. (An account and a receipt are printed in the
pound's languages, side by side, and have no switch.)"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Server
from tests.browser.test_desk_browser import SEIZE, WIDTHS, _clean, _say, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

PAGES = (
    "/web/documents/",
    "/web/documents/cases?month=2026-03",
    "/web/documents/ledger?month=2026-03",
    "/web/documents/deposits",
    "/web/charts/",
)


def test_every_document_and_the_charts_switch_language_in_place(
    server: Server, new_context: Any
) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="en")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="en")
    _say(server, keeper, SEIZE)
    for size, (width, height) in WIDTHS.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, officer)
        for path in PAGES:
            page.goto(f"{server.base}{path}")
            assert page.locator("html").get_attribute("lang") == "en", path
            for lang in ("ml", "en"):
                switch = page.locator(f"nav.langs a[hreflang={lang}]")
                assert switch.count() == 1, f"{path}: no switch to {lang}"
                switch.click()
                page.wait_for_load_state()
                assert page.locator("html").get_attribute("lang") == lang, path
                there = urlsplit(page.url)
                wanted = urlsplit(path)
                assert there.path == wanted.path, (path, page.url)
                assert wanted.query in there.query, (path, page.url)  # its month kept
                if lang == "ml":
                    _shoot(page, f"documents-{wanted.path.strip('/').replace('/', '-')}-ml-{size}")
    _clean(server)
