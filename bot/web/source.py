"""``GET /source``: the source of the running server, offered to everyone who uses it
(AGPL-3.0 section 13). With ``POUNDBOT_SOURCE_URL`` set (the authority's published copy
of its version), a redirect there; else the code that runs, as a ``.tar.gz``: the
``bot`` and ``domain`` packages as installed, and the licence."""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import io
import tarfile
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

import bot
import domain
from bot.support.links import SOURCE_PATH

__all__ = ["SOURCE_PATH", "source_route", "source_tarball"]

_CHECKOUT_LICENCE = Path(next(iter(bot.__path__))).resolve().parent / "LICENSE"


def _version() -> str:
    try:
        return importlib.metadata.version("poundbot")
    except importlib.metadata.PackageNotFoundError:
        return "0"


def _licence() -> bytes | None:
    """The licence text: the checkout's, or the one the wheel installed."""
    if _CHECKOUT_LICENCE.is_file():
        return _CHECKOUT_LICENCE.read_bytes()
    try:
        text = importlib.metadata.distribution("poundbot").read_text("licenses/LICENSE")
    except importlib.metadata.PackageNotFoundError:
        return None
    return text.encode() if text else None


def _skipped(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return None if "__pycache__" in info.name or info.name.endswith(".pyc") else info


@functools.cache
def source_tarball() -> tuple[str, bytes]:
    """The file name and bytes of the running code's tarball (made once a process)."""
    name = f"poundbot-{_version()}-source"
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for package in (bot, domain):
            folder = Path(next(iter(package.__path__))).resolve()
            tar.add(folder, arcname=f"{name}/{folder.name}", filter=_skipped)
        licence = _licence()
        if licence is not None:
            info = tarfile.TarInfo(f"{name}/LICENSE")
            info.size = len(licence)
            tar.addfile(info, io.BytesIO(licence))
    return f"{name}.tar.gz", out.getvalue()


def source_route(source_url: str = "") -> Route:
    """``GET /source``: a redirect to ``source_url``, or the running code."""

    async def source(request: Request) -> Response:
        if source_url:
            return RedirectResponse(source_url, status_code=302)
        # Made once, on a worker thread: gzip of the whole package would hold the loop.
        filename, data = await asyncio.to_thread(source_tarball)
        return Response(
            data,
            media_type="application/gzip",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    return Route(SOURCE_PATH, source, methods=["GET", "HEAD"])
