"""Record a seizure on the web desk in Chromium, at 360 × 640 and at desktop width, in
English and Malayalam: a keeper opens the form from Today, fills two lots (one added
with "More lots", no script, with an owner of its own), the place and the owner,
attaches a photo, sends it and lands on the new case, its photo and each lot's owner
shown; an officer does the same into a pound of their
authority chosen on the form (one without a keeper), and the case's timeline names
them; every field labelled, nothing loaded from another host. The phone's screenshot in
English is the one in docs/."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page

from tests.browser.conftest import ROOT, SCREENSHOTS, Server
from tests.browser.test_desk_browser import WIDTHS, _clean, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

SIZES = {"phone": (360, 640), "desktop": WIDTHS["desktop"]}


def _photo(folder: Path) -> Path:
    """A small PNG, as a camera's picture stands in a test."""
    path = folder / "cow.png"
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (150, 90, 40)).save(out, "PNG")
    path.write_bytes(out.getvalue())
    return path


def _fill(page: Page, photo: Path, n: int) -> None:
    page.select_option("#kind-1", "cow")
    page.fill("#count-1", "2")
    page.fill("#description-1", "brown, white forehead")
    page.fill("#place", f"Kunnamangalam market {n}")
    page.click('button[name="more"]')  # a fourth row, the fields kept
    page.wait_for_load_state()
    assert page.locator("#kind-4").count() == 1
    assert page.locator("#description-1").input_value() == "brown, white forehead"
    page.select_option("#kind-4", "goat")
    page.fill("#count-4", "1")
    page.fill("#owner-4", "Ayisha, Mavoor")  # the goat's owner: another than the cows'
    page.fill("#phone-4", "9847012346")
    page.fill("#owner", "Ravi, Chathamangalam")
    page.fill("#phone", "9847012345")
    page.set_input_files("#photos", str(photo))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_keeper_records_a_seizure_with_a_photo(
    server: Server, new_context: Any, size: str, tmp_path: Path
) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", name="Suresh", lang="en")
    photo = _photo(tmp_path)
    page = server.watch(new_context(*SIZES[size]).new_page())
    _sign_in(server, page, keeper)
    for n, lang in enumerate(("en", "ml"), start=1):
        page.goto(f"{server.base}/web/lang/{lang}?next=/web/")
        page.click('main a[href="/web/cases/new"]')
        page.wait_for_url(f"{server.base}/web/cases/new")
        assert page.locator("html").get_attribute("lang") == lang
        _fill(page, photo, n)
        _shoot(page, f"seize-form-{lang}-{size}")
        if lang == "en" and size == "phone":
            shutil.copy(SCREENSHOTS / f"seize-form-{lang}-{size}.png", _DOC)
        page.locator("form.seize p.send button").click()
        page.wait_for_url(f"{server.base}/web/cases/KNM-{n}#reply")
        reply = page.locator("#reply").inner_text()
        assert f"KNM-{n}" in reply
        photos = page.locator('section[aria-labelledby="photos"] img')
        assert photos.count() == 1
        assert photos.first.evaluate("img => img.complete && img.naturalWidth > 0")
        main = page.locator("main").inner_text()
        assert f"Kunnamangalam market {n}" in main
        assert "+919847012345" in main
        # Each lot's owner and number: the cows the form's owner's, the goat its own.
        owners = page.locator("td.lot-owner").all_inner_texts()
        assert owners == [
            "Ravi, Chathamangalam +919847012345",
            "Ayisha, Mavoor +919847012346",
        ]
        _shoot(page, f"seize-case-{lang}-{size}")
    _clean(server)


@pytest.mark.parametrize("size", list(SIZES))
def test_an_officer_records_a_seizure_into_a_pound_they_choose(
    server: Server, new_context: Any, size: str, tmp_path: Path
) -> None:
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="en")
    photo = _photo(tmp_path)
    page = server.watch(new_context(*SIZES[size]).new_page())
    _sign_in(server, page, officer)
    for n, lang in enumerate(("en", "ml"), start=1):
        page.goto(f"{server.base}/web/lang/{lang}?next=/web/")
        page.click('main a[href="/web/cases/new"]')
        page.wait_for_url(f"{server.base}/web/cases/new")
        assert page.locator("html").get_attribute("lang") == lang
        pound = page.locator("#pound")
        assert pound.input_value() == ""  # two pounds: none chosen for the officer
        choices = pound.locator("option").evaluate_all("os => os.map(o => o.value)")
        assert choices == ["", "KNM", "PTM"]
        pound.select_option("PTM")  # no keeper is registered there
        _fill(page, photo, n)
        assert page.locator("#pound").input_value() == "PTM"  # kept through "More lots"
        _shoot(page, f"seize-officer-form-{lang}-{size}")
        page.locator("form.seize p.send button").click()
        page.wait_for_url(f"{server.base}/web/cases/PTM-{n}#reply")
        assert f"PTM-{n}" in page.locator("#reply").inner_text()
        photos = page.locator('section[aria-labelledby="photos"] img')
        assert photos.count() == 1
        assert photos.first.evaluate("img => img.complete && img.naturalWidth > 0")
        timeline = page.locator('section[aria-labelledby="timeline"]').inner_text()
        assert "Latha" in timeline
        _shoot(page, f"seize-officer-case-{lang}-{size}")
    _clean(server)


_DOC = ROOT / "docs" / "web-desk-seize-phone.png"
