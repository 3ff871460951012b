"""Free disk space where poundbot writes: the data folder (photos, backups, the embedded
database) and the folder of a SQLite database named elsewhere.

A database that can be written but has no room left answers every message "try again
later", while a rolled-back probe (``bot.store.writable``) still succeeds: it never
needs a page. ``/healthz`` is therefore 503 when free space on any of these folders is
under ``POUNDBOT_MIN_FREE_MB`` (default ``MIN_FREE_MB``), and ``/metrics`` shows the free
space of each (``poundbot_disk_free_bytes``).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL

from bot.store.engine import data_dir

__all__ = ["MIN_FREE_MB", "Space", "min_free_bytes", "space_fault", "spaces"]

#: Megabytes that must stay free: a burst of photos (10 MB each at the most), the SQLite
#: journal of a large transaction, a backup being written.
MIN_FREE_MB = 100


@dataclass(frozen=True, slots=True)
class Space:
    """A folder poundbot writes to, and the bytes free on its file system."""

    what: str
    folder: Path
    free: int


def min_free_bytes(env: dict[str, str] | None = None) -> int:
    """``POUNDBOT_MIN_FREE_MB`` (a whole number of megabytes), else ``MIN_FREE_MB``."""
    raw = (os.environ if env is None else env).get("POUNDBOT_MIN_FREE_MB", "").strip()
    megabytes = int(raw) if raw.isdecimal() else MIN_FREE_MB
    return megabytes * 1024 * 1024


def _existing(folder: Path) -> Path:
    """The nearest folder of ``folder`` that exists (the data folder may not yet)."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def spaces(url: URL) -> list[Space]:
    """The data folder, and the SQLite database's folder when it is another file system."""
    folders = {"data": data_dir()}
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        database = Path(url.database.removeprefix("file:")).expanduser().absolute().parent
        folders["database"] = database
    found: list[Space] = []
    devices: set[int] = set()
    for what, folder in folders.items():
        real = _existing(folder)
        device = real.stat().st_dev
        if device in devices:
            continue
        devices.add(device)
        found.append(Space(what, folder, shutil.disk_usage(real).free))
    return found


def space_fault(url: URL, env: dict[str, str] | None = None) -> str | None:
    """Why poundbot may soon be unable to write (a folder under the floor), or None."""
    floor = min_free_bytes(env)
    for space in spaces(url):
        if space.free < floor:
            return (
                f"{space.free // (1024 * 1024)} MB free on the {space.what} folder "
                f"{space.folder}, under the {floor // (1024 * 1024)} MB it needs"
            )
    return None
