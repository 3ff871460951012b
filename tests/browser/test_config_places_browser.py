"""The forms of the configuration's places and kinds in Chromium, in English and Malayalam
at desktop and phone widths: a state administrator goes from the configuration to a
pound's form, changes its phone number with a reason and reads the change in the recent
changes; adds pounds from a CSV file (checked first, then saved as one version); opens
the forms of an authority, a kind and a new pound. An authority's administrator finds
their own authority's form and no other's. Every field labelled, a screenshot of each
page (``var/screenshots/``), no console error and no request to another host."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.test_desk_browser import WIDTHS, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

SIZES = {"desktop": WIDTHS["desktop"], "phone": (360, 640)}


def _save(page: Page, action: str) -> None:
    page.locator(f'form[action="{action}"] button[type=submit]').first.click()
    page.wait_for_load_state()


def test_a_state_admin_changes_a_pound_and_adds_pounds_from_a_csv_file(
    server: Server, new_context: Any
) -> None:
    admin = _user(server, "admin", name="Suma", lang="ml")
    codes = iter(["AAB", "AAC", "AAD", "AAE"])
    for n, (size, (width, height)) in enumerate(SIZES.items()):
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for m, lang in enumerate(("en", "ml")):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/config")
            assert page.locator("html").get_attribute("lang") == lang
            page.locator('body > p a[href="/web/config/authorities"]').click()
            page.wait_for_load_state()
            _shoot(page, f"config-places-{lang}-{size}")

            page.locator('main a[href="/web/config/pounds/KNM"]').click()
            page.wait_for_load_state()
            form = page.locator('form[action="/web/config/pounds/KNM"]')
            phone = f"0495 281 {n}{m}00"
            form.locator('[name="phone"]').fill(phone)
            form.locator('[name="reason"]').fill(f"new line {size} {lang}")
            _shoot(page, f"config-pound-{lang}-{size}")
            _save(page, "/web/config/pounds/KNM")
            assert page.locator("#saved").count() == 1, page.locator("main").inner_text()
            assert form.locator('[name="phone"]').input_value() == phone

            page.goto(f"{server.base}/web/config/pounds/KNM")
            form.locator('[name="name.en"]').fill("")
            form.locator('[name="reason"]').fill("a mistake")
            page.eval_on_selector("#f-name-en", "e => e.removeAttribute('required')")
            _save(page, "/web/config/pounds/KNM")
            assert page.locator("#error ul.faults li").count() >= 1  # the checks' faults
            _shoot(page, f"config-pound-refused-{lang}-{size}")

            page.goto(f"{server.base}/web/config")
            changes = page.locator("ul.changes li").all_inner_texts()
            assert f"new line {size} {lang}" in changes[0]
            # (The printable page of versions is wide on a phone: its table of versions.)
            page.goto(f"{server.base}/web/config/authorities")
            changes = page.locator("ul.changes li").all_inner_texts()
            assert f"new line {size} {lang}" in changes[0]
            _shoot(page, f"config-changes-{lang}-{size}")

            code = next(codes)
            page.goto(f"{server.base}/web/config/pounds/import")
            csv = (
                "code,authority,name_en,name_ml,address_en,languages\n"
                f"{code},KNM-GP,Pound {code},പൗണ്ട് {code},Kunnamangalam,ml en\n"
            )
            check = page.locator('form[action="/web/config/pounds/import"]').last
            check.locator('[name="file"]').set_input_files(
                {"name": "pounds.csv", "mimeType": "text/csv", "buffer": csv.encode()}
            )
            check.locator('[name="reason"]').fill("new pounds")
            check.locator("button[type=submit]").click()
            page.wait_for_load_state()
            assert page.locator("table.import tr.added").count() == 1
            _shoot(page, f"config-import-{lang}-{size}")
            page.locator("#apply").click()
            page.wait_for_load_state()
            assert page.locator("#saved").count() == 1

            for path in ("/web/config/authorities/KNM-GP", "/web/config/kinds/cow"):
                page.goto(f"{server.base}{path}")
                assert page.locator(f'form[action="{path}"]').count() == 1
                _shoot(page, f"config-{path.split('/')[3]}-{lang}-{size}")
            page.goto(f"{server.base}/web/config/pounds/new")
            _shoot(page, f"config-pound-new-{lang}-{size}")
    # The one error Chromium logs: the refused form's own status, once a round.
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert server.errors == [refused] * 4
    assert server.foreign == []


def test_an_authority_admin_finds_their_own_authority_only(
    server: Server, new_context: Any
) -> None:
    admin = _user(server, "admin", authority="KNM-GP", name="Latheef", lang="ml")
    page = server.watch(new_context(*SIZES["phone"]).new_page())
    _sign_in(server, page, admin)
    page.locator('header a[href="/web/config"]').click()
    page.wait_for_load_state()
    assert page.url.endswith("/web/config/authorities")
    assert page.locator('main a[href="/web/config/authorities/KNM-GP"]').count() == 1
    assert page.locator('main a[href="/web/config/authorities/ENM-GP"]').count() == 0
    page.locator('main a[href="/web/config/authorities/KNM-GP"]').click()
    page.wait_for_load_state()
    form = page.locator('form[action="/web/config/authorities/KNM-GP"]')
    form.locator('[name="district"]').fill("Kozhikode district")
    form.locator('[name="reason"]').fill("as on the letterhead")
    _save(page, "/web/config/authorities/KNM-GP")
    assert page.locator("#saved").count() == 1
    _shoot(page, "config-authority-own-ml-phone")
    response = page.goto(f"{server.base}/web/config/authorities/ENM-GP")
    assert response is not None
    assert response.status == 403
    assert server.errors == [
        "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    ]
    assert server.foreign == []
