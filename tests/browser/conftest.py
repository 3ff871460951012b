"""A real poundbot server on loopback and the system's Chromium driven by Playwright.

Every test module here is marked ``browser`` (``pytestmark``): ``make test`` leaves
them out, ``make test-browser`` runs them. They need ``/usr/bin/chromium`` (Debian's
package, with fonts-noto-core for Malayalam, Tamil and Kannada): without it they fail;
they are never skipped.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from starlette.applications import Starlette

from bot.bootstrap import open_app
from bot.config.settings import Settings
from bot.entry.app import build_app
from bot.services.runtime import App
from bot.support.clock import FixedClock

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
T = TypeVar("T")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """poundbot serving on loopback in a thread of its own, with a clock the test moves."""

    base: str
    clock: FixedClock
    asgi: Starlette
    loop: asyncio.AbstractEventLoop
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def app(self) -> App:
        poundbot: App = self.asgi.state.poundbot
        return poundbot

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the server's event loop (where its database engine lives)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    def watch(self, page: Page) -> Page:
        """Record console errors, failed pages and requests to any other host."""
        host = urlsplit(self.base).hostname

        def on_request(request: Any) -> None:
            target = urlsplit(request.url)
            if target.scheme in ("http", "https") and target.hostname != host:
                self.foreign.append(request.url)

        page.on("request", on_request)
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    clock = FixedClock(datetime(2026, 3, 1, 4, 30, tzinfo=UTC))  # 10:00 in Kerala
    url = f"sqlite+aiosqlite:///{tmp_path / 'browser.sqlite3'}"
    settings = Settings(public_url=base, link_secret="browser-test-secret-of-the-desk")
    asgi = build_app(lambda: open_app(url=url, clock=clock), settings=settings)
    config = uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(uv.serve(),), daemon=True)
    thread.start()
    for _ in range(200):
        if uv.started:
            break
        threading.Event().wait(0.05)
    assert uv.started, "the server did not start"
    try:
        yield Server(base, clock, asgi, loop)
    finally:
        uv.should_exit = True
        thread.join(timeout=30)
        loop.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: apt-get install -y chromium fonts-noto-core (see .ci/run)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Any]:
    """Opens browser contexts (one per person signed in) and closes them afterwards."""
    made: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 800) -> BrowserContext:
        context = browser.new_context(viewport={"width": width, "height": height})
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()
