"""Restoring the embedded database from a backup (``poundbot restore FILE``).

1. The backup is copied (SQLite's backup API) to a file beside the database and the
   copy is checked: an SQLite database that passes ``PRAGMA quick_check`` and is a
   poundbot database at a migration revision this poundbot knows (an older one is
   upgraded when the server starts).
2. Refused while a server uses the database (``bot.adapters.serverlock``) unless forced.
3. The database in place is kept: copied, checked, to
   ``<database>.replaced-YYYYmmddTHHMMSS`` beside it.
4. The checked copy is written into the database with the backup API, under SQLite's
   own locks: a forced restore under a running server gives it the restored database
   (never a file renamed away under its write-ahead log).
"""

from __future__ import annotations

import sqlite3
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from alembic.script import ScriptDirectory

from bot.adapters.backups import BackupError, copy_database
from bot.adapters.serverlock import ServerRunning, alone
from bot.store.migrate import alembic_config

__all__ = ["RestoreError", "Restored", "check_backup", "restore"]


class RestoreError(Exception):
    """A backup that cannot be restored, or a database that may not be replaced now."""


@dataclass(frozen=True, slots=True)
class Restored:
    revision: str
    kept: Path | None  # the database replaced, kept beside it (None: there was none)
    forced: bool  # a server was using the database


def _known_revisions() -> set[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return {rev.revision for rev in script.walk_revisions()}


def check_backup(path: Path) -> str:
    """The migration revision of the poundbot database ``path``; raises RestoreError
    saying what is wrong with it."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        try:
            (check,) = connection.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise RestoreError(f"{path} is not an SQLite database ({exc})") from None
        if check != "ok":
            raise RestoreError(f"{path} is damaged: quick_check says {check}")
        try:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError:
            row = None
    finally:
        connection.close()
    if row is None:
        raise RestoreError(f"{path} is not a poundbot database (no migration revision)")
    revision = str(row[0])
    if revision not in _known_revisions():
        raise RestoreError(
            f"{path} is at migration revision {revision}, which this poundbot does not know "
            "(made by a newer version?)"
        )
    return revision


def _write_into(source: Path, database: Path) -> None:
    """Write the database ``source`` into ``database`` (the backup API: under SQLite's
    locks, so a server's connections see the restored pages)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dest = sqlite3.connect(database, timeout=30)
        try:
            src.backup(dest)
        finally:
            dest.close()
    finally:
        src.close()


def restore(backup: Path, database: Path, now: datetime, *, force: bool = False) -> Restored:
    """Replace the embedded database ``database`` with the checked ``backup``."""
    if not backup.is_file():
        raise RestoreError(f"no file {backup}")
    database.parent.mkdir(parents=True, exist_ok=True)
    staged = database.with_name(f".{database.name}.restoring")
    staged.unlink(missing_ok=True)
    try:
        try:
            copy_database(backup, staged)
        except (BackupError, sqlite3.DatabaseError) as exc:
            raise RestoreError(f"{backup} cannot be restored: {exc}") from None
        revision = check_backup(staged)
        with ExitStack() as stack:
            forced = False
            try:
                stack.enter_context(alone(database))
            except ServerRunning as exc:
                if not force:
                    raise RestoreError(
                        f"{exc}: stop it first (e.g. systemctl stop poundbot), "
                        "or restore with --force"
                    ) from None
                forced = True
            kept = None
            if database.is_file():
                kept = database.with_name(f"{database.name}.replaced-{now:%Y%m%dT%H%M%S}")
                copy_database(database, kept)
            _write_into(staged, database)
    finally:
        staged.unlink(missing_ok=True)
    return Restored(revision, kept, forced)
