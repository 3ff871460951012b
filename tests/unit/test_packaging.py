"""The wheel ships every package of the tree and the data folders the code reads."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.i18n.catalogs import LOCALES_DIR
from bot.store.migrate import MIGRATIONS
from bot.support.resources import data_dir

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_python_package_of_the_tree_is_listed_for_the_wheel() -> None:
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("bot", "domain")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert on_disk <= set(SETUPTOOLS["packages"]), on_disk - set(SETUPTOOLS["packages"])


def test_locales_and_migrations_are_mapped_into_the_package() -> None:
    assert SETUPTOOLS["package-dir"]["bot.locales"] == "locales"
    assert SETUPTOOLS["package-dir"]["bot.migrations"] == "migrations"
    for lang in ("en", "ml", "ta", "kn"):
        assert f"bot.locales.{lang}.LC_MESSAGES" in SETUPTOOLS["packages"]
    # The schema each revision gives, which migrate checks a database against.
    assert {"revisions.json", "schemas/*.json"} <= set(SETUPTOOLS["package-data"]["bot.migrations"])


def test_a_checkout_reads_the_top_level_folders() -> None:
    assert LOCALES_DIR == data_dir("locales") == ROOT / "locales"
    assert MIGRATIONS == data_dir("migrations") == ROOT / "migrations"
    assert (MIGRATIONS / "env.py").is_file()
    assert (LOCALES_DIR / "ml" / "LC_MESSAGES" / "messages.po").is_file()


def test_a_wheel_layout_is_preferred_when_the_folder_is_inside_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.support.resources as resources

    package = tmp_path / "bot"
    (package / "locales").mkdir(parents=True)
    (tmp_path / "locales").mkdir()
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.data_dir("locales") == package / "locales"
    assert resources.data_dir("migrations") == tmp_path / "migrations"


def test_the_licence_and_pyproject_travel_in_the_package_and_are_found_in_either_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.support.resources as resources

    assert SETUPTOOLS["package-dir"]["bot.project"] == "."
    assert SETUPTOOLS["package-data"]["bot.project"] == ["LICENSE", "pyproject.toml"]
    assert resources.project_file("pyproject.toml") == ROOT / "pyproject.toml"
    package = tmp_path / "bot"
    (package / "project").mkdir(parents=True)
    (package / "project" / "LICENSE").write_text("GNU AFFERO GENERAL PUBLIC LICENSE\n")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.project_file("LICENSE") == package / "project" / "LICENSE"
    assert resources.project_file("pyproject.toml") == tmp_path / "pyproject.toml"


def test_the_licence_is_in_the_repository_and_named_for_the_wheel() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "AGPL-3.0-or-later"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007")
    assert "13. Remote Network Interaction; Use with the GNU General Public License." in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_a_changelog_and_a_security_policy_are_there() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog")
    assert "## [Unreleased]" in changelog
    assert "report a vulnerability privately" in (ROOT / "SECURITY.md").read_text(encoding="utf-8")
