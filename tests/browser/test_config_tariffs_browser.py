"""The tariffs' and the DLT ids' pages in Chromium, in English and Malayalam at desktop
and phone widths: a state administrator opens Tariffs from the menu, adds a feeding
charge from a later day and withdraws it, and sets a DLT template's id; every field
labelled, nothing wider than the screen, a screenshot of each page, no console error
and no request to another host."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from bot.support.dlt import registry
from tests.browser.conftest import Server
from tests.browser.test_desk_browser import WIDTHS, _clean, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

SIZES = {"desktop": WIDTHS["desktop"], "phone": (360, 640)}


def _submit(page: Page, form: str) -> None:
    page.locator(form).locator("button[type=submit]").first.click()
    page.wait_for_load_state()


def test_an_admin_adds_and_withdraws_a_rate_and_sets_a_dlt_id(
    server: Server, new_context: Any
) -> None:
    admin = _user(server, "admin", name="Suma", lang="ml")
    name = next(iter(registry().only(server.app.config.sms_languages))).name
    for n, (size, (width, height)) in enumerate(SIZES.items()):
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for m, lang in enumerate(("en", "ml")):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/")
            page.locator('header a[href="/web/config/tariffs"]').click()
            page.wait_for_load_state()
            _shoot(page, f"tariffs-{lang}-{size}")
            page.locator('main a[href="/web/config/tariffs/KNM-GP"]').click()
            page.wait_for_load_state()
            form = page.locator('form[action^="/web/config/tariffs/KNM-GP/add"]')
            form.locator('[name="from"]').fill(f"0{n + 1}-0{m + 5}-2026")
            form.locator('[name="amount-goat"]').fill("45.50")
            form.locator('[name="source"]').fill("Resolution 4/2026")
            form.locator('[name="reason"]').fill("new rate")
            _shoot(page, f"tariff-{lang}-{size}")
            _submit(page, 'form[action^="/web/config/tariffs/KNM-GP/add"]')
            assert page.locator("#note").count() == 1
            assert "Resolution 4/2026" in page.locator("main").inner_text()
            _shoot(page, f"tariff-added-{lang}-{size}")
            withdraw = page.locator("form.withdraw").first
            withdraw.locator('[name="reason"]').fill("entered by mistake")
            withdraw.locator("button[type=submit]").click()
            page.wait_for_load_state()
            assert "Resolution 4/2026" not in page.locator("main").inner_text()

            page.goto(f"{server.base}/web/config/dlt-ids?edit={name}")
            edit = page.locator("form#edit")
            edit.locator('[name="id"]').fill(f"12071600000000000{n}{m}")
            edit.locator('[name="reason"]').fill("approved on the portal")
            _shoot(page, f"dlt-{lang}-{size}")
            _submit(page, "form#edit")
            assert page.locator("#note").count() == 1
            assert f"12071600000000000{n}{m}" in page.locator("main").inner_text()
    _clean(server)
