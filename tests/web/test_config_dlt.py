"""The DLT portal's export uploaded on the web desk, through real HTTP and multipart
uploads, on SQLite and PostgreSQL: a state admin's dry run says which ids would be
written and which rows are not used, and stores nothing; the confirmation stores a new
version of the configuration (source dlt, by them, for their reason), as ``poundbot dlt
import`` would; another version in force meanwhile: the check again, nothing stored; a
file that is no export is refused in words; nobody else uploads one."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.services.config_versions import current, history, import_text
from bot.services.dlt_ids import plan_ids
from bot.store.models import User
from bot.support.dlt import registry
from bot.support.dlt_import import read_export
from tests import dlt_exports
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, csrf_of, rig

_HIDDEN = re.compile(r'<input type="hidden" name="([a-z]+)" value="([^"]*)">')


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    """A state admin (Suma), the admin of KNM-GP (Latheef), an officer (Latha)."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        await r.user("admin", name="Suma")
        await r.user("admin", authority="KNM-GP", name="Latheef")
        await r.user("officer", authority="KNM-GP", name="Latha")
        yield r


async def _as(r: Rig, name: str) -> str:
    async with r.app.store.transaction() as tx:
        user = await tx.session.scalar(select(User).where(User.name == name))
    assert user is not None
    r.client.cookies.clear()
    await r.sign_in(user)
    return csrf_of((await r.client.get("/web/")).text)


def _export(tmp_path: Path, layout: str = "xlsx") -> tuple[str, bytes]:
    wanted = [t for t in registry() if t.lang == "en"][:6]
    suffix = ".xlsx" if layout == "xlsx" else ".csv"
    path = getattr(dlt_exports, layout)(tmp_path / f"approved{suffix}", wanted)
    return path.name, path.read_bytes()


def _confirm_form(html: str) -> dict[str, str]:
    start = html.index('action="/web/config/dlt/apply"')
    return dict(_HIDDEN.findall(html[start : html.index("</form>", start)]))


async def test_a_state_admin_checks_the_export_then_stores_it_as_a_new_version(
    desk: Rig, tmp_path: Path
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    config = await r.client.get("/web/config")
    assert 'href="/web/config/dlt"' in config.text  # the link from the configuration
    assert (await r.client.get("/web/config/dlt")).status_code == 200
    name, data = _export(tmp_path)
    before = await current(r.app.store)
    assert before is not None
    page = await r.client.post(
        "/web/config/dlt",
        data={"csrf": csrf, "reason": "the portal approved six templates"},
        files={"file": (name, data, "application/octet-stream")},
    )
    assert page.status_code == 200, page.text
    assert "Dry run: nothing has been changed yet." in page.text
    expected = plan_ids(before.text, "v", read_export(tmp_path / name))
    assert f"Template ids new to the configuration: {len(expected.added)}" in page.text
    assert len(expected.added) == 4  # six rows: the last rejected, the one before pending
    assert "Not approved on the portal: Rejected" in page.text
    assert "Not approved on the portal: Pending" in page.text
    for template, tid in expected.added:
        assert f"<code>{template}</code>" in page.text
        assert tid in page.text
    assert (await current(r.app.store)).id == before.id  # type: ignore[union-attr]

    form = _confirm_form(page.text)
    done = await r.client.post("/web/config/dlt/apply", data=form)
    assert done.status_code == 200
    assert f"Version {before.id + 1} of the configuration is in force" in done.text
    after = await current(r.app.store)
    assert after is not None
    assert after.id == before.id + 1
    assert (after.source, after.reason, after.by_name) == (
        "dlt",
        "the portal approved six templates",
        "Suma",
    )
    assert after.text == expected.text  # the command line's import, the very same
    # The same confirmation again: another version is in force; nothing stored.
    again = await r.client.post("/web/config/dlt/apply", data=form)
    assert again.status_code == 409
    assert "The configuration changed since the file was checked" in again.text
    assert "Nothing would change" in again.text
    assert len(await history(r.app.store)) == after.id


async def test_a_version_stored_in_between_refuses_the_confirmation(
    desk: Rig, tmp_path: Path
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    name, data = _export(tmp_path, "standard_csv")
    page = await r.client.post(
        "/web/config/dlt",
        data={"csrf": csrf, "reason": "ids"},
        files={"file": (name, data, "text/csv")},
    )
    form = _confirm_form(page.text)
    before = await current(r.app.store)
    assert before is not None
    await import_text(r.app.store, before.text + "\n# a comment\n", source="cli", reason="x")
    refused = await r.client.post("/web/config/dlt/apply", data=form)
    assert refused.status_code == 409
    assert (await current(r.app.store)).source == "cli"  # type: ignore[union-attr]
    forged = await r.client.post("/web/config/dlt/apply", data={**form, "reason": "other"})
    assert forged.status_code == 403


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        pytest.param("templates.doc", b"\xd0\xcf\x11\xe0", "give a .csv or .xlsx file", id="doc"),
        pytest.param("templates.xlsx", b"not a workbook", "not an XLSX workbook", id="xlsx"),
        pytest.param("t.csv", b"a,b\n1,2\n", "no heading row with the columns", id="columns"),
        pytest.param("t.csv", "x".encode("utf-16"), "not UTF-8", id="utf16"),
    ],
)
async def test_a_file_that_is_no_export_is_refused_and_nothing_stored(
    desk: Rig, name: str, data: bytes, said: str
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    before = await current(r.app.store)
    page = await r.client.post(
        "/web/config/dlt",
        data={"csrf": csrf, "reason": "ids"},
        files={"file": (name, data, "application/octet-stream")},
    )
    assert page.status_code == 400
    assert "cannot be read as the DLT portal" in page.text
    assert said in page.text
    assert await current(r.app.store) == before


@pytest.mark.parametrize("name", ["Latheef", "Latha"])
async def test_nobody_but_a_state_admin_uploads_the_export(
    desk: Rig, tmp_path: Path, name: str
) -> None:
    r = desk
    csrf = await _as(r, name)
    assert (await r.client.get("/web/config/dlt")).status_code == 403
    file, data = _export(tmp_path)
    page = await r.client.post(
        "/web/config/dlt",
        data={"csrf": csrf, "reason": "ids"},
        files={"file": (file, data, "application/octet-stream")},
    )
    assert page.status_code == 403
    before = await current(r.app.store)
    form = {"csrf": csrf, "reason": "x", "version": "1", "sheet": "", "seal": "", "filename": ""}
    assert (await r.client.post("/web/config/dlt/apply", data=form)).status_code == 403
    assert await current(r.app.store) == before
