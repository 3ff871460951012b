"""Users from a CSV file and the DLT portal's export, in Chromium, in English and
Malayalam at desktop and phone widths: a state administrator chooses the file, reads the
dry run line by line and confirms it; every field labelled, nothing wider than the
screen, a screenshot of each page (``var/screenshots/``), no console error and no
request to another host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from bot.support.dlt import registry
from tests import dlt_exports
from tests.browser.conftest import Server
from tests.browser.test_desk_browser import _clean, _shoot, _sign_in, _user
from tests.browser.test_users_browser import SIZES

pytestmark = pytest.mark.browser


def _submit(page: Page, action: str) -> None:
    page.locator(f'form[action="{action}"] button[type=submit]').click()
    page.wait_for_load_state()


def test_an_admin_checks_a_csv_of_users_then_imports_it(
    server: Server, new_context: Any, tmp_path: Path
) -> None:
    admin = _user(server, "admin", name="Suma", lang="ml")
    _user(server, "keeper", pound="KNM", phone="+919847000010", name="Suresh")
    for n, (size, (width, height)) in enumerate(SIZES.items()):
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for m, lang in enumerate(("en", "ml")):
            sheet = tmp_path / f"users-{size}-{lang}.csv"
            sheet.write_text(
                "name,phone,role,language,pound,authority,offices,reason\n"
                f"Velayudhan {size} {lang},9847{n}{m}3333,keeper,ml,KNM,,,\n"
                "Suresh,9847000010,keeper,,KNM,,,\n"
                f"Latha {size} {lang},9847{n}{m}4444,officer,en,,KNM-GP,secretary,\n"
                f"Nobody,12345,keeper,,KNM,,,\n",
                encoding="utf-8",
            )
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/users")
            page.locator('main a[href="/web/users/import"]').click()
            page.wait_for_load_state()
            assert page.locator("html").get_attribute("lang") == lang
            _shoot(page, f"users-import-{lang}-{size}")
            form = page.locator('form[action="/web/users/import"]')
            form.locator('[name="file"]').set_input_files(str(sheet))
            form.locator('[name="reason"]').fill("the spring roll-out")
            _submit(page, "/web/users/import")
            assert page.locator("#dry-run").count() == 1
            assert page.locator("table.plan tbody tr").count() == 4
            assert page.locator("tr.refused").count() == 1
            assert page.locator("#refused").count() == 1  # nothing to confirm yet
            _shoot(page, f"users-import-refused-{lang}-{size}")

            sheet.write_text(sheet.read_text().replace("Nobody,12345", f"Nobody,9847{n}{m}5555"))
            form = page.locator('form[action="/web/users/import"]')
            form.locator('[name="file"]').set_input_files(str(sheet))
            form.locator('[name="reason"]').fill("the spring roll-out")
            _submit(page, "/web/users/import")
            assert page.locator("tr.new").count() == 3
            assert page.locator("tr.unchanged").count() == 1
            _shoot(page, f"users-import-check-{lang}-{size}")
            _submit(page, "/web/users/import/apply")
            assert page.locator("#done").count() == 1
            assert page.locator("table.invites tbody tr").count() == 3
            _shoot(page, f"users-import-done-{lang}-{size}")
    _clean(server)


def test_a_state_admin_checks_the_dlt_export_then_writes_it(
    server: Server, new_context: Any, tmp_path: Path
) -> None:
    admin = _user(server, "admin", name="Suma", lang="en")
    wanted = [t for t in registry() if t.lang == "en"][:8]
    export = dlt_exports.standard_csv(tmp_path / "approved.csv", wanted)
    written = False
    for size, (width, height) in SIZES.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for lang in ("en", "ml"):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/config")
            page.locator('a[href="/web/config/dlt"]').click()
            page.wait_for_load_state()
            assert page.locator("html").get_attribute("lang") == lang
            _shoot(page, f"config-dlt-{lang}-{size}")
            form = page.locator('form[action="/web/config/dlt"]')
            form.locator('[name="file"]').set_input_files(str(export))
            form.locator('[name="reason"]').fill("the portal approved eight templates")
            _submit(page, "/web/config/dlt")
            assert page.locator("#dry-run").count() == 1
            assert page.locator("table.unused tbody tr").count() == 2  # rejected, pending
            _shoot(page, f"config-dlt-check-{lang}-{size}")
            if not written:
                assert page.locator("table.ids tbody tr").count() == 6
                _submit(page, "/web/config/dlt/apply")
                assert page.locator("#done").count() == 1
                _shoot(page, f"config-dlt-done-{lang}-{size}")
                written = True
            else:
                assert page.locator("#nothing").count() == 1
    _clean(server)
