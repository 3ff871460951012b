"""The list of cases in Chromium, as an officer, in Malayalam and English on a 360×640
phone and a desktop: the first case is on the first screen (the filters folded away
until opened), a search by the owner's name from the header's box finds the owner's
cases, and the filter sent keeps the search; a screenshot of each
(``var/screenshots/``), no console error and no request to another host."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.test_desk_browser import WIDTHS, _clean, _say, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

SIZES = {"phone": (360, 640), "desktop": WIDTHS["desktop"]}


def _numbers(page: Page) -> list[str]:
    """The case numbers of the list, in its order."""
    return page.locator("main table tbody td.case a").all_inner_texts()


def _search(page: Page, text: str) -> None:
    """``text`` typed in the header's search box and sent with Enter."""
    box = page.locator('header form.search input[name="q"]')
    box.fill(text)
    box.press("Enter")
    page.wait_for_load_state()


def test_the_cases_list_on_a_phone_and_a_search_by_the_owners_name(
    server: Server, new_context: Any
) -> None:
    knm = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="en")
    enm = _user(server, "keeper", pound="ENM", phone="+919847000011", lang="en")
    _say(
        server,
        knm,
        "SEIZE 2 cow (brown) AT Kunnamangalam market OWNER Kunhammed P., Chathamangalam",
    )
    _say(server, knm, "SEIZE 1 goat (black) AT Chathamangalam OWNER ബഷീർ, Kunnamangalam")
    _say(server, knm, "SEIZE 1 buffalo (black) AT Pathimangalam OWNER Mini, Pathimangalam")
    _say(server, enm, "SEIZE 1 cow (brown) AT Eranhimangalam OWNER Kunhammed Haji, Eranhimangalam")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="ml")
    for size, (width, height) in SIZES.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, officer)
        for lang in ("ml", "en"):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/cases")
            assert page.locator("html").get_attribute("lang") == lang
            assert _numbers(page) == ["KNM-3", "KNM-2", "KNM-1"]
            # The filters folded: the first case is on the first screen.
            filters = page.locator("main details.filters")
            assert filters.get_attribute("open") is None
            assert not page.locator('main form.filter select[name="stage"]').is_visible()
            row = page.locator("main table tbody tr").first.bounding_box()
            assert row is not None
            assert row["y"] + row["height"] <= height, f"{lang} {size}: the first case at {row}"
            _shoot(page, f"cases-list-{lang}-{size}")

            _search(page, "kunhammed")
            assert _numbers(page) == ["KNM-1"]
            assert "Kunhammed" not in page.locator("main").inner_text()  # searched, not shown
            _shoot(page, f"cases-owner-{lang}-{size}")
            _search(page, "ബഷീ")
            assert _numbers(page) == ["KNM-2"]

            # The filter, opened, sent with the search kept in its own field.
            _search(page, "Kunhammed P")
            filters.locator("summary").click()
            form = page.locator("main form.filter")
            assert form.locator('input[name="q"]').input_value() == "Kunhammed P"
            form.locator('select[name="kind"]').select_option("goat")
            form.locator("button[type=submit]").click()
            page.wait_for_load_state()
            assert _numbers(page) == []
            assert page.locator("main details.filters").get_attribute("open") is not None
            assert page.locator('main form.filter input[name="q"]').input_value() == "Kunhammed P"
            _shoot(page, f"cases-owner-filtered-{lang}-{size}")
            page.locator('main form.filter select[name="kind"]').select_option("cow")
            page.locator("main form.filter button[type=submit]").click()
            page.wait_for_load_state()
            assert _numbers(page) == ["KNM-1"]
    _clean(server)
