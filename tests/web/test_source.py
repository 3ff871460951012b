"""The source of the running server is offered to everyone who uses it (AGPL-3.0 s.13):
a link on every page of the web desk, and ``/source``."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import httpx

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from tests.web.rig import rig


async def test_every_page_links_to_the_source_and_the_link_gives_the_running_code(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as desk:
        page = await desk.client.get("/web/", follow_redirects=True)
        english = await desk.client.get(page.url.copy_set_param("lang", "en"))
        assert '<a href="/source">സോഴ്\u200cസ് കോഡ്</a>' in page.text  # a stranger: Malayalam
        assert '<a href="/source">Source code</a>' in english.text
        got = await desk.client.get("/source")
    assert got.status_code == 200
    assert got.headers["content-type"] == "application/gzip"
    assert "attachment" in got.headers["content-disposition"]
    with tarfile.open(fileobj=io.BytesIO(got.content), mode="r:gz") as tar:
        names = tar.getnames()
        (top,) = {name.split("/")[0] for name in names}
        licence = tar.extractfile(f"{top}/LICENSE")
        assert licence is not None
        assert licence.read().startswith(b"GNU AFFERO GENERAL PUBLIC LICENSE")
    assert f"{top}/bot/web/source.py" in names
    assert f"{top}/domain/s13_unclaimed.py" in names
    assert not any("__pycache__" in name for name in names)


async def test_an_authority_that_publishes_its_source_elsewhere_is_linked_there() -> None:
    settings = Settings(source_url="https://git.example.gov.in/poundbot/tree/v1")
    asgi = build_app(lambda: open_app(url="sqlite+aiosqlite://"), settings=settings)
    transport = httpx.ASGITransport(asgi)
    async with (
        asgi.router.lifespan_context(asgi),
        httpx.AsyncClient(transport=transport, base_url="http://desk.test") as client,
    ):
        got = await client.get("/source")
    assert got.status_code == 302
    assert got.headers["location"] == "https://git.example.gov.in/poundbot/tree/v1"


ROOT = Path(__file__).resolve().parents[2]
#: What a checkout and a wheel both serve at the top of the tarball.
TOP = {"bot", "domain", "locales", "migrations", "LICENSE", "pyproject.toml"}
#: Run outside the checkout: the names and SHA-256 of the files ``/source`` serves.
LIST = """
import hashlib, io, json, tarfile, bot
from bot.web.source import source_tarball
name, data = source_tarball()
with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
    files = {m.name: hashlib.sha256(tar.extractfile(m).read()).hexdigest()
             for m in tar.getmembers() if m.isfile()}
print(json.dumps({"package": bot.__file__, "name": name, "files": files}))
"""


def _package_folder(package: str, mapped: dict[str, str]) -> Path:
    """Where setuptools reads ``package`` from: its own ``package-dir`` entry, else its
    nearest mapped parent's folder and the rest of its name, else its name as a path."""
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        parent = ".".join(parts[:cut])
        if parent in mapped:
            return ROOT.joinpath(mapped[parent], *parts[cut:])
    return ROOT.joinpath(*parts)


def _installed_wheel(site: Path) -> None:
    """What installing the wheel puts in ``site``, by setuptools' rules for the
    ``[tool.setuptools]`` table of pyproject.toml: each package's modules (the ``*.py`` of
    its folder) and its ``package-data``, and the ``.dist-info`` with the licence.
    (``.ci/wheel-check`` compares the same lists from the wheel pip builds.)"""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    table = project["tool"]["setuptools"]
    for package in table["packages"]:
        folder = _package_folder(package, table["package-dir"])
        target = site.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for pattern in ["*.py", *table["package-data"].get(package, [])]:
            for found in folder.glob(pattern):
                if found.is_file():  # at its place under the package (schemas/*.json)
                    placed = target / found.relative_to(folder)
                    placed.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(found, placed)
    info = site / f"poundbot-{project['project']['version']}.dist-info"
    (info / "licenses").mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.4\nName: poundbot\nVersion: {project['project']['version']}\n"
    )
    shutil.copyfile(ROOT / "LICENSE", info / "licenses" / "LICENSE")


def _served(cwd: Path, pythonpath: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", LIST],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(pythonpath)},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    served: dict[str, Any] = json.loads(done.stdout)
    return served


def test_a_checkout_and_an_installed_wheel_serve_the_same_files_at_the_same_paths(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site-packages"
    _installed_wheel(site)
    (tmp_path / "elsewhere").mkdir()
    checkout = _served(ROOT, ROOT)
    wheel = _served(tmp_path / "elsewhere", site)
    assert Path(checkout["package"]).parent == ROOT / "bot"
    assert Path(wheel["package"]).parent == site / "bot"  # not the checkout's
    assert (site / "bot" / "locales").is_dir()  # the two layouts differ ...
    assert not (ROOT / "bot" / "locales").exists()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    top = f"poundbot-{version}-source/"
    assert checkout["name"] == wheel["name"] == f"poundbot-{version}-source.tar.gz"
    assert {name.removeprefix(top).split("/")[0] for name in checkout["files"]} == TOP
    assert f"{top}migrations/env.py" in checkout["files"]
    assert f"{top}locales/ml/LC_MESSAGES/messages.po" in checkout["files"]
    assert sorted(wheel["files"]) == sorted(checkout["files"])  # ... what is served not
    assert wheel["files"] == checkout["files"]  # the same bytes too
