"""Restoring the embedded database from a backup (``poundbot restore FILE``).

1. The backup is copied (SQLite's backup API) to a file beside the database and the
   copy is checked: an SQLite database that passes ``PRAGMA quick_check`` and is a
   poundbot database at a migration revision this poundbot knows, with the schema that
   revision gives (an older one is upgraded when the server starts).
2. Refused while a server uses the database (``bot.adapters.serverlock``) unless forced.
3. The database in place is copied and checked, and its case numbers are read
   (``bot.adapters.case_numbers``): each pound's counter in the copy of the backup is
   raised to the last number the database in place has issued (never lowered), and the
   cases numbered after the backup are listed. When it is missing or cannot be read,
   each pound's next number must be given (``--next-number``); a bad or missing one is
   refused before anything changes.
4. The database in place is kept, as ``<database>.replaced-YYYYmmddTHHMMSS`` beside it:
   its checked copy, or, when it cannot be read, the file itself (moved, with its
   write-ahead log; refused under a running server).
5. The checked copy is written into the database with the backup API, under SQLite's
   own locks: a forced restore under a running server gives it the restored database
   (never a file renamed away under its write-ahead log).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from alembic.script import ScriptDirectory

from bot.adapters.backups import BackupError, copy_database
from bot.adapters.case_numbers import (
    CaseNumberError,
    Counter,
    Issued,
    IssuedCase,
    Places,
    Unreadable,
    cases_after,
    keep_numbers,
    raise_counters,
    read_issued,
)
from bot.adapters.serverlock import ServerRunning, alone
from bot.store.lineage import PAST
from bot.store.migrate import alembic_config, identify_file, line
from bot.store.schema import SchemaRefused

__all__ = ["RestoreError", "Restored", "check_backup", "restore"]


class RestoreError(Exception):
    """A backup that cannot be restored, or a database that may not be replaced now."""


@dataclass(frozen=True, slots=True)
class Restored:
    revision: str
    kept: Path | None  # the database replaced, kept beside it (None: there was none)
    forced: bool  # a server was using the database
    counters: tuple[Counter, ...]  # the pounds whose counter is above the backup's
    after: tuple[IssuedCase, ...]  # the cases numbered after the backup, not in it
    unread: str | None  # why the database replaced could not be read (numbers given)


def _known_revisions() -> set[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return {rev.revision for rev in script.walk_revisions()} | {s.stamp for s in PAST}


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
    try:
        _upgradable(path)
    except SchemaRefused as exc:
        raise RestoreError(f"{path} cannot be upgraded by this poundbot: {exc}") from None
    return revision


def _upgradable(path: Path) -> None:
    """Raises ``SchemaRefused`` unless the database ``path`` has the schema of a state
    this poundbot upgrades (``bot.store.migrate``)."""
    identify_file(path, line())


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


def _no_places(_configuration: str | None) -> Places:
    return Places({}, {})


def _read_replaced(database: Path, copy: Path) -> tuple[Issued | None, str | None]:
    """What the database in place has numbered, read from its checked ``copy``; or None
    and why it cannot be read."""
    if not database.is_file():
        return None, f"there is no database at {database}"
    try:
        copy_database(database, copy)
        return read_issued(copy), None
    except (BackupError, sqlite3.DatabaseError, Unreadable) as exc:
        return None, f"the database at {database} cannot be read ({exc})"


def _set_aside(database: Path, kept: Path) -> Path | None:
    """Move the database that cannot be read, with its write-ahead log, to ``kept``;
    ``kept``, or None when there was no database file."""
    had = database.exists()
    for suffix in ("", "-wal", "-shm"):
        path = database.with_name(database.name + suffix)
        if path.exists():
            path.replace(kept.with_name(kept.name + suffix))
    return kept if had else None


def restore(
    backup: Path,
    database: Path,
    now: datetime,
    *,
    force: bool = False,
    next_numbers: Mapping[str, int] | None = None,
    places: Callable[[str | None], Places] = _no_places,
) -> Restored:
    """Replace the embedded database ``database`` with the checked ``backup``, keeping
    the case numbers the database replaced has issued, or those given in
    ``next_numbers`` (pound: next number; ``places``, the configuration, says which
    pounds there are: given the text of the version in force of the database replaced,
    None when it holds none or cannot be read)."""
    if not backup.is_file():
        raise RestoreError(f"no file {backup}")
    database.parent.mkdir(parents=True, exist_ok=True)
    staged = database.with_name(f".{database.name}.restoring")
    reading = database.with_name(f".{database.name}.replacing")
    for path in (staged, reading):
        path.unlink(missing_ok=True)
    try:
        try:
            copy_database(backup, staged)
        except (BackupError, sqlite3.DatabaseError) as exc:
            raise RestoreError(f"{backup} cannot be restored: {exc}") from None
        revision = check_backup(staged)
        try:
            backed = read_issued(staged)
        except Unreadable as exc:
            raise RestoreError(f"{backup} cannot be restored: {exc}") from None
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
            replaced, unread = _read_replaced(database, reading)
            if unread is not None and forced:
                raise RestoreError(
                    f"{unread} and a poundbot server is using it: stop it first "
                    "(e.g. systemctl stop poundbot)"
                )
            try:
                in_force = replaced.configuration if replaced is not None else None
                counters = keep_numbers(
                    backed,
                    replaced,
                    next_numbers or {},
                    lambda: places(in_force),
                    unread=unread or "",
                )
            except CaseNumberError as exc:
                raise RestoreError(str(exc)) from None
            raise_counters(staged, counters)
            named = database.with_name(f"{database.name}.replaced-{now:%Y%m%dT%H%M%S}")
            if replaced is not None:
                reading.replace(named)
                kept: Path | None = named
            else:
                kept = _set_aside(database, named)
            _write_into(staged, database)
    finally:
        for path in (staged, reading):
            path.unlink(missing_ok=True)
    after = cases_after(backed, replaced) if replaced is not None else ()
    return Restored(revision, kept, forced, counters, after, unread)
