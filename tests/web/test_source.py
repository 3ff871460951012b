"""The source of the running server is offered to everyone who uses it (AGPL-3.0 s.13):
a link on every page of the web desk, and ``/source``."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

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
