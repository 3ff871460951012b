"""The page of users in Chromium, in English and Malayalam at desktop and phone widths: a
state administrator adds a keeper (his invite shown once), edits his phone number,
disables him and reads his history; every field labelled, a screenshot of each page
(``var/screenshots/``), no console error and no request to another host."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.test_desk_browser import WIDTHS, _clean, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

SIZES = {"desktop": WIDTHS["desktop"], "phone": (360, 640)}


def _submit(page: Page, action: str) -> None:
    page.locator(f'form[action="{action}"] button[type=submit]').click()
    page.wait_for_load_state()


def test_an_admin_adds_edits_and_disables_a_keeper_and_reads_his_history(
    server: Server, new_context: Any
) -> None:
    admin = _user(server, "admin", name="Suma", lang="ml")
    for n, (size, (width, height)) in enumerate(SIZES.items()):
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for m, lang in enumerate(("en", "ml")):
            name = f"Velayudhan {size} {lang}"
            phone, new_phone = f"9847{n}{m}1111", f"9847{n}{m}2222"
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/users")
            assert page.locator("html").get_attribute("lang") == lang
            page.locator('header a[href="/web/users"]').click()
            page.wait_for_load_state()
            _shoot(page, f"users-{lang}-{size}")

            page.locator('main a[href="/web/users/new"]').click()
            page.wait_for_load_state()
            form = page.locator('form[action="/web/users/new"]')
            form.locator('[name="role"]').select_option("keeper")
            form.locator('[name="name"]').fill(name)
            form.locator('[name="phone"]').fill(phone)
            form.locator('[name="lang"]').select_option("ml")
            form.locator('[name="pound"]').select_option("KNM")
            form.locator('[name="reason"]').fill("new keeper of the pound")
            _shoot(page, f"users-new-{lang}-{size}")
            _submit(page, "/web/users/new")
            assert re.search(r"/web/users/\d+$", page.url), page.url
            user_path = page.url.removeprefix(server.base)
            invite = page.locator("#invite")
            assert invite.count() == 1
            assert re.search(r"[A-Za-z0-9_-]{16}", invite.inner_text())
            _shoot(page, f"users-added-{lang}-{size}")
            page.reload()
            assert page.locator("#invite").count() == 0  # shown once

            edit = page.locator(f'form[action="{user_path}/edit"]')
            edit.locator('[name="phone"]').fill(new_phone)
            edit.locator('[name="reason"]').fill("new SIM card")
            _submit(page, f"{user_path}/edit")
            assert page.locator("#done").count() == 1
            assert f"+91{new_phone}" in page.locator("dl.facts").inner_text()

            page.locator("details#disable summary").click()
            disable = page.locator(f'form[action="{user_path}/disable"]')
            disable.locator('[name="reason"]').fill("left the post")
            _shoot(page, f"users-disable-{lang}-{size}")
            _submit(page, f"{user_path}/disable")
            assert page.locator(f'form[action="{user_path}/enable"]').count() == 1
            assert page.locator(f'form[action="{user_path}/edit"]').count() == 0

            history = page.locator("table.history tbody tr")
            rows = history.all_inner_texts()
            assert "left the post" in rows[0]  # newest first
            text = "\n".join(rows)
            assert f"+91{phone}" in text
            assert f"+91{new_phone}" in text
            assert "new SIM card" in text
            assert "new keeper of the pound" in text
            assert "Suma" in text
            _shoot(page, f"users-history-{lang}-{size}")

            page.goto(f"{server.base}/web/users")
            line = page.locator("main table.users tbody tr", has_text=name)
            assert line.count() == 1
            assert line.locator(f'a[href="{user_path}"]').count() == 1
    _clean(server)


def test_a_keeper_has_no_page_of_users(server: Server, new_context: Any) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000012", lang="en")
    page = server.watch(new_context(*SIZES["phone"]).new_page())
    _sign_in(server, page, keeper)
    assert page.locator('a[href="/web/users"]').count() == 0
    response = page.goto(f"{server.base}/web/users")
    assert response is not None
    assert response.status == 403
    _shoot(page, "users-keeper-refused-en-phone")
    # The refusal's own status is the one error Chromium logs: that page answered 403.
    assert server.errors == [
        "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    ]
    assert server.foreign == []
