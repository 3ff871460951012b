"""The configuration's page of the web desk: a state admin reads the version in force,
every version and each one's changes; an authority's administrator is sent to their
authority's places and changes (no version's text: it is every authority's); nobody else
reads it, nor sees the link to it.
Over HTTP into the app, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.services.config_versions import import_text
from bot.store.models import User
from tests.conftest import ENGINES
from tests.integration.test_config_versions import NEW_COW, OLD_COW, with_new_fine
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, rig


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    """The desk on a database whose first start imported the sample (version 1), and
    a new dated fine imported by a state admin named Suma (version 2)."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        suma = await r.user("admin", name="Suma")
        await import_text(
            r.app.store,
            with_new_fine(),
            source="web",
            reason="G.O. 12/2026: the fine of a cow",
            by_user_id=suma.id,
        )
        yield r


async def _as(r: Rig, user: User, path: str) -> httpx.Response:
    await r.client.post("/web/signout")  # whoever was signed in (refused without CSRF)
    r.client.cookies.clear()
    assert (await r.sign_in(user)).status_code in (200, 303)
    return await r.client.get(path)


async def test_a_state_admin_reads_the_version_in_force_every_version_and_its_changes(
    desk: Rig,
) -> None:
    r = desk
    suma = await r.user("admin", name="Suma Nair")
    page = await _as(r, suma, "/web/config")
    assert page.status_code == 200
    assert "Version 2 is in force" in page.text
    assert "G.O. 12/2026: the fine of a cow" in page.text
    assert ">Suma<" in page.text  # who imported it
    assert "the web desk" in page.text
    assert f"the first start, from {sample_config_path()}" in page.text
    assert "the configuration file, at the first start" in page.text
    assert "the operator" in page.text  # version 1: no user imported it
    assert 'href="/web/config/2"' in page.text
    for link in ("tariffs", "dlt-ids", "dlt", "authorities"):  # its forms, each a link
        assert f'href="/web/config/{link}"' in page.text
    assert 'href="/web/config/1"' in page.text
    today = await r.client.get("/web/")
    assert 'href="/web/config"' in today.text  # the link in the menu

    changes = await r.client.get("/web/config/2")
    assert changes.status_code == 200
    assert "Changes from version 1" in changes.text
    added = NEW_COW.removeprefix(OLD_COW).rstrip("\n").replace('"', "&#34;")
    assert f"<ins>+{added}</ins>" in changes.text
    assert changes.text.count("<ins>") == 1
    assert "<del>" not in changes.text
    first = await r.client.get("/web/config/1")
    assert "The first version: the whole configuration." in first.text
    assert "[tariffs.KNM-GP.fines]" in first.text
    for missing in ("/web/config/3", "/web/config/x", "/web/config/0"):
        assert (await r.client.get(missing)).status_code == 404


@pytest.mark.parametrize(
    "role",
    [
        pytest.param({"role": "admin", "authority": "KNM-GP"}, id="authority-admin"),
        pytest.param({"role": "officer", "authority": "KNM-GP"}, id="officer"),
        pytest.param({"role": "keeper", "pound": "KNM"}, id="keeper"),
    ],
)
async def test_nobody_but_a_state_admin_reads_the_configuration(
    desk: Rig, role: dict[str, str]
) -> None:
    r = desk
    someone = await r.user(name="Latha", phone="+919847000020", **role)
    admin = role["role"] == "admin"
    for path in ("/web/config", "/web/config/2"):
        page = await _as(r, someone, path)
        moved = admin and path == "/web/config"
        assert page.status_code == (303 if moved else 403), path
        assert "G.O. 12/2026" not in page.text
        if moved:
            assert page.headers["location"] == "/web/config/authorities"
    today = await r.client.get("/web/")
    assert today.status_code == 200
    assert ('href="/web/config"' in today.text) == admin
