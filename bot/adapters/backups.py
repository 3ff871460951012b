"""Backups of the embedded SQLite database: one checked copy (``poundbot backup FILE``),
and the daily copy ``poundbot serve`` takes by itself.

A copy is made with SQLite's online backup in one step: it reads every page in one read
transaction, so in WAL mode the server's writers go on and the copy is the database as
of that moment. The copy is written beside its final name, checked (``PRAGMA
quick_check``) and only then renamed into place: a half-written or damaged copy never
carries a backup's name.

The daily copies are ``backups/poundbot-YYYY-MM-DD.sqlite3`` beside the database (so in
``POUNDBOT_DATA_DIR`` for the default one), named by the local date in the reminders'
time zone: a day whose copy exists is not copied again after a restart, and a server
that was down at the configured time takes the day's copy when it starts. The newest
``[backups] keep`` are kept; older daily copies are deleted (no other file in the folder
is touched). PostgreSQL is backed up with ``pg_dump`` (docs/operator/backup.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.config import BackupSettings
from bot.store.engine import database_file

if TYPE_CHECKING:
    from bot.support.clock import Clock

__all__ = [
    "BackupError",
    "backup_due",
    "backups_dir",
    "copy_database",
    "daily_backup",
    "daily_name",
    "prune",
    "run_backups",
]

log = logging.getLogger("poundbot.backups")

#: The name of a daily copy; only files named so are ever pruned.
_DAILY = re.compile(r"poundbot-(\d{4}-\d{2}-\d{2})\.sqlite3")


class BackupError(Exception):
    """A copy that could not be made, or failed its check."""


def backups_dir(database: Path) -> Path:
    """Where the daily copies of ``database`` go: ``backups`` beside it, so
    ``POUNDBOT_DATA_DIR/backups`` for the default database (a database named by
    ``POUNDBOT_DATABASE_URL`` elsewhere keeps its backups beside it)."""
    return database.parent / "backups"


def copy_database(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to the new file ``target``, checked; safe
    while a server writes to ``source``. Raises BackupError if the copy is damaged."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        check = _copy(source, partial)
        if check != "ok":
            raise BackupError(f"the copy failed its integrity check: {check}")
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)


def _copy(source_path: Path, target: Path) -> str:
    """Copy with SQLite's online backup; the result of ``PRAGMA quick_check`` on the copy."""
    if not source_path.is_file():  # connecting would make an empty one
        raise BackupError(f"no database at {source_path}")
    source = sqlite3.connect(source_path, timeout=30)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)  # one step (pages=-1): one read transaction
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            (check,) = copy.execute("PRAGMA quick_check").fetchone()
            return str(check)
        finally:
            copy.close()
    finally:
        source.close()


def daily_name(now: datetime, zone: ZoneInfo) -> str:
    """The file name of the daily copy taken at ``now``: its local date."""
    return f"poundbot-{now.astimezone(zone).date().isoformat()}.sqlite3"


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete the daily copies in ``folder`` beyond the newest ``keep``; the deleted."""
    daily = sorted(p for p in folder.iterdir() if _DAILY.fullmatch(p.name))
    old = daily[:-keep] if keep > 0 else daily
    for path in old:
        path.unlink(missing_ok=True)
    return old


def backup_due(folder: Path, now: datetime, settings: BackupSettings, zone: ZoneInfo) -> bool:
    """Whether the day's copy is due: the configured time has passed today and today's
    copy is not in ``folder`` yet."""
    if now.astimezone(zone).time() < settings.at:
        return False
    return not (folder / daily_name(now, zone)).exists()


def daily_backup(
    source: Path, folder: Path, now: datetime, settings: BackupSettings, zone: ZoneInfo
) -> Path | None:
    """Take the day's copy of ``source`` into ``folder`` if it is due (the configured
    time has passed today) and not taken yet, then prune; the new copy, or None."""
    if not backup_due(folder, now, settings, zone):
        return None
    target = folder / daily_name(now, zone)
    folder.mkdir(parents=True, exist_ok=True)
    copy_database(source, target)
    pruned = prune(folder, settings.keep)
    log.info(
        "backup: %s (%d bytes, quick_check ok)%s",
        target,
        target.stat().st_size,
        f"; deleted {len(pruned)} older" if pruned else "",
    )
    return target


async def run_backups(
    url: str,
    settings: Callable[[], BackupSettings],
    zone: Callable[[], ZoneInfo],
    clock: Clock,
    stop: asyncio.Event,
    *,
    folder: Path | None = None,
    interval: float = 60.0,
) -> None:
    """Inside ``poundbot serve``: take the daily copy of the embedded database at ``url``
    when it is due (``settings()``, local time in ``zone()``: as configured at each check),
    checking every ``interval``
    seconds until ``stop`` is set; a failed copy is logged and tried again. Nothing to do
    on PostgreSQL."""
    source = database_file(url)
    if source is None:
        return
    folder = folder or backups_dir(source)
    loop = asyncio.get_running_loop()
    # A thread of its own for the copy (it may take a while on a large file), ended with
    # the task: nothing is left running once serve stops.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="poundbot-backup") as pool:
        while not stop.is_set():
            try:
                now = clock.now()
                kept, local = settings(), zone()
                if backup_due(folder, now, kept, local):
                    await loop.run_in_executor(pool, daily_backup, source, folder, now, kept, local)
            except Exception:
                log.exception("backup failed; trying again in %.0f s", interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval)
