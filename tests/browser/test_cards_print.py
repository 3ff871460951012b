"""The keeper's and the owner's cards, printed from the documentation site in Chromium:
one A4 side per language (four languages, four sheets: the introduction shares the first
with English, and each other language starts a sheet of its own)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = 4


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = tmp_path_factory.mktemp("site")
    build(load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(folder), strict=True))
    return folder


def _sheets(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


@pytest.mark.parametrize("card", ["keepers-card", "owners-card"])
def test_a_card_prints_one_a4_side_per_language(site: Path, new_context: Any, card: str) -> None:
    page = new_context().new_page()
    page.goto((site / card / "index.html").as_uri())
    assert page.locator("h2.language").count() == LANGUAGES
    sheets = _sheets(page.pdf(format="A4"))
    assert sheets == LANGUAGES, f"{card}: {sheets} A4 sheets for {LANGUAGES} languages"
