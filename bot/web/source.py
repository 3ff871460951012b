"""``GET /source``: the source of the running server, offered to everyone who uses it
(AGPL-3.0 section 13). With ``POUNDBOT_SOURCE_URL`` set (the authority's published copy
of its version), a redirect there; else the code that runs, as a ``.tar.gz``.

The tarball is laid out as the repository is, whether the server runs from a checkout or
from an installed wheel (which keeps the repository's top inside the package:
``bot.support.resources``): ``bot/``, ``domain/``, ``locales/``, ``migrations/``,
``LICENSE`` and ``pyproject.toml``, each file at the same path either way. Compiled files
(``__pycache__``, ``.pyc``, ``.mo``) and hidden ones are left out: the sources they are
made from are there."""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import io
import tarfile
from collections.abc import Iterator
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

import bot
import domain
from bot.support.links import SOURCE_PATH
from bot.support.resources import DATA_DIRS, PROJECT_DIR, PROJECT_FILES, data_dir, project_file

__all__ = ["SOURCE_PATH", "source_files", "source_route", "source_tarball"]

#: What is made from a source, not written: left out.
_COMPILED = (".pyc", ".pyo", ".mo")


def _version() -> str:
    try:
        return importlib.metadata.version("poundbot")
    except importlib.metadata.PackageNotFoundError:
        return "0"


def _folder(path: Path, name: str, skip: tuple[str, ...] = ()) -> Iterator[tuple[str, Path]]:
    """The source files under ``path``, named ``name/...``; the folders ``skip`` (at the
    top of ``path``) left out."""
    for item in sorted(path.iterdir()):
        if item.name.startswith(".") or item.name == "__pycache__" or item.name in skip:
            continue
        if item.is_dir():
            yield from _folder(item, f"{name}/{item.name}")
        elif item.is_file() and not item.name.endswith(_COMPILED):
            yield f"{name}/{item.name}", item


def source_files() -> list[tuple[str, Path]]:
    """The files of the running code: (its path in the repository, where it is here)."""
    package = Path(next(iter(bot.__path__))).resolve()
    files = list(_folder(package, "bot", skip=(*DATA_DIRS, PROJECT_DIR)))
    files += _folder(Path(next(iter(domain.__path__))).resolve(), "domain")
    for name in DATA_DIRS:
        files += _folder(data_dir(name), name)
    files += [(name, project_file(name)) for name in PROJECT_FILES if project_file(name).is_file()]
    return sorted(files)


@functools.cache
def source_tarball() -> tuple[str, bytes]:
    """The file name and bytes of the running code's tarball (made once a process)."""
    name = f"poundbot-{_version()}-source"
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for path, found in source_files():
            tar.add(found, arcname=f"{name}/{path}", recursive=False)
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
