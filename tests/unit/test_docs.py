"""The documentation: README.md and docs/ hold together and say what the code does.

Every relative link resolves (to a file, and to a heading of it for ``page.md#anchor``),
the keeper's card names every word HELP gives a keeper in each language's form, the
front page stays short, and no user document carries bug-tracker history. None of this
needs the network or MkDocs; the last test builds the site with MkDocs when it is
installed.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from bot.i18n import render, translator
from bot.i18n.common import keys, keyword
from bot.support.words import KEYWORDS

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.rglob("*.md"))
LANGUAGES = ("en", "ml", "ta", "kn")

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.M)
_ATTR_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")


def _prose(text: str) -> str:
    """The text without code blocks and code spans, where a link is only an example."""
    return _CODE.sub("", _FENCE.sub("", text))


def slugify(title: str) -> str:
    """The anchor Python-Markdown's toc extension (and so MkDocs) gives a heading."""
    text = re.sub(r"<[^>]+>", "", title).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings: an explicit ``{ #id }`` or the slug, made
    unique as the toc extension makes them (``name``, ``name_1`` ...)."""
    found: set[str] = set()
    for _, title in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        explicit = _ATTR_ID.search(title)
        if explicit:
            found.add(explicit.group(1))
            continue
        slug = slugify(re.sub(r"\{[^}]*\}\s*$", "", title))
        unique, n = slug, 0
        while unique in found:
            n += 1
            unique = f"{slug}_{n}"
        found.add(unique)
    return found


def _links(page: Path) -> list[str]:
    return [
        target
        for target in _LINK.findall(_prose(page.read_text(encoding="utf-8")))
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading_of_it(page: Path) -> None:
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.is_file():
            broken.append(f"{target}: no file {dest.relative_to(ROOT.resolve())}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(
                f"{target}: {dest.name} has no heading with the anchor #{anchor} "
                f"(its anchors: {', '.join(sorted(anchors(dest)))})"
            )
    assert not broken, f"{page.relative_to(ROOT)} links to what is not there:\n" + "\n".join(broken)


def _card_sections(card: str) -> dict[str, str]:
    """The keeper's card by language: each ``## … { .language #xx }`` section."""
    parts = re.split(r"^## .*\{[^}]*#(\w+)[^}]*\}\s*$", card, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _help_commands(lang: str) -> list[str]:
    """The commands HELP lists for a keeper in ``lang``, read off the HELP text."""
    text = render.help_text("keeper", translator(lang), sms=False)
    return [
        command
        for command in KEYWORDS
        if re.search(rf"(?<!\w){re.escape(keys(command, lang))}(?!\w)", text)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_keepers_card_names_every_word_of_help_in_each_language(lang: str) -> None:
    sections = _card_sections((DOCS / "keepers-card.md").read_text(encoding="utf-8"))
    assert lang in sections, (
        f"docs/keepers-card.md has no section for {lang!r} "
        f"(a heading ending '{{ .language #{lang} }}'); it has {sorted(sections)}"
    )
    commands = _help_commands(lang)
    assert {"seize", "help"} <= set(commands), f"HELP was not read: {commands}"
    missing = [
        f"{command}: {word!r}"
        for command in commands
        for word in {keyword(command, "en"), keyword(command, lang)}
        if word not in sections[lang]
    ]
    assert not missing, (
        f"HELP gives a keeper these words that the {lang!r} section of "
        f"docs/keepers-card.md lacks:\n" + "\n".join(missing)
    )


def test_the_readme_is_a_short_front_page() -> None:
    size = len(README.read_bytes())
    assert size < 10_000, (
        f"README.md is {size} bytes; the front page stays under 10,000: move the detail "
        "into a page under docs/ and link it"
    )


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_user_document_carries_tracker_history(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = [
        f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
        for m in re.finditer(r"\b(?:issue|item|wave)\s*#?\d+\b", text, re.I)
    ]
    assert not found, (
        f"{page.relative_to(ROOT)} refers to the tracker (history belongs in "
        "CHANGELOG.md, a document says what is):\n" + "\n".join(found)
    )


def test_the_site_builds_strictly_and_has_the_anchors_the_links_expect(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path), strict=True)
    build(config)  # strict: any warning (a broken link or anchor) aborts
    for page in PAGES:
        rel = page.relative_to(DOCS).with_suffix("")
        built = rel.parent if rel.name == "index" else rel  # use_directory_urls
        html_file = tmp_path / built / "index.html"
        ids = set(re.findall(r'\bid="([^"]+)"', html_file.read_text(encoding="utf-8")))
        assert anchors(page) <= ids, (
            f"{page.relative_to(ROOT)}: the anchors this test computes are not all in "
            f"the built page: {sorted(anchors(page) - ids)}"
        )
