"""``poundbot config import|export|history|diff``: the configuration in the database.

The first server started on a database imports its configuration file; from then on
the database's version is in force on every instance, and a file is put in force by
``config import`` (checked as ``config check`` checks it), which every running
instance picks up within seconds (``bot.services.config_versions``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.entry.config_store import database_url, database_version, store_version

if TYPE_CHECKING:
    from bot.store.config_versions import VersionRow

__all__ = ["add_config_commands", "check_in_force", "note_file_differs", "read_in_force"]


def read_in_force() -> VersionRow | None:
    """The database's version in force for a command that reads the file without one
    (``config check``, ``config show``): None when the database holds none, or cannot
    be read (said on stderr: such a command needs no database)."""
    try:
        return database_version()
    except Exception as exc:  # said, and the file read: these commands need no database
        print(f"note: the database could not be read ({exc}): reading the file", file=sys.stderr)
        return None


def note_file_differs(row: VersionRow) -> None:
    """On stderr, when the configuration file in use says otherwise than ``row``, the
    version in force: that it is not read, and how to put it in force."""
    from bot.config import ConfigError, config_path, read_config_text

    path = config_path()
    try:
        differs = read_config_text(path) != row.text
    except (ConfigError, OSError):
        differs = True
    if differs:
        print(
            f"note: version {row.id} of the database is in force; the file {path} differs "
            f"from it and is not read (to put it in force: poundbot config import {path})",
            file=sys.stderr,
        )


def check_in_force(strict: bool) -> int | None:
    """``config check`` without a FILE: the database's version in force, as ``config
    check`` checks a file, with a note when the configuration file differs from it; None
    when the database holds no version (the file is checked, as before a first start)."""
    from bot.config import parse_config
    from bot.entry.cli_check import check_loaded

    found = read_in_force()
    if found is None:
        return None
    row = found
    name = f"configuration version {row.id}"
    done = check_loaded(name, lambda: parse_config(row.text, name), strict=strict)
    note_file_differs(row)
    return done


def _import(args: argparse.Namespace) -> int:
    """Check FILE as ``config check`` does; stored as a new version when it passes and
    differs from the version in force."""
    from bot.config import load_config, read_config_text
    from bot.entry.cli_check import check_loaded

    name = args.file
    if check_loaded(name, lambda: load_config(name), strict=False):
        print(f"{name}: not imported (its faults above)", file=sys.stderr)
        return 1
    text = read_config_text(name)
    reason = args.reason or f"imported from {name}"
    version_id, new = store_version(text, source="cli", reason=reason)
    if new:
        print(f"imported {name} as version {version_id}: in force on every instance within seconds")
    else:
        print(f"{name} is version {version_id}, in force already: nothing imported")
    return 0


def _no_version() -> int:
    print(
        "poundbot: error: the database holds no configuration yet: poundbot serve imports "
        "the configuration file at its first start (or: poundbot config import FILE)",
        file=sys.stderr,
    )
    return 1


def _export(args: argparse.Namespace) -> int:
    """Write the text of the version in force, to FILE or standard output."""
    found = database_version()
    if found is None:
        return _no_version()
    if args.out:
        Path(args.out).write_text(found.text, encoding="utf-8")
        print(f"wrote version {found.id} to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(found.text)
    return 0


async def _history_rows() -> list[VersionRow]:
    from bot.services.config_versions import history
    from bot.store.engine import make_engine, make_sessionmaker
    from bot.store.tx import Store
    from bot.support.clock import SystemClock

    engine = make_engine(database_url())
    try:
        return await history(Store(make_sessionmaker(engine), SystemClock()))
    finally:
        await engine.dispose()


def _who(row: VersionRow) -> str:
    if row.by_user_id is None:
        return "command line" if row.source in ("cli", "dlt") else "server"
    return f"{row.by_name} (user {row.by_user_id})"


def _history(_args: argparse.Namespace) -> int:
    """Every version, the newest (in force) first: id, when, who, source, reason."""
    from domain.calendar import LOCAL_TZ

    if database_version() is None:
        return _no_version()
    rows = asyncio.run(_history_rows())
    print("\t".join(("id", "when", "who", "source", "reason")))
    for row in rows:
        when = f"{row.created_at.astimezone(LOCAL_TZ):%Y-%m-%d %H:%M}"
        print("\t".join((str(row.id), when, _who(row), row.source, row.reason)))
    return 0


def _diff(args: argparse.Namespace) -> int:
    """The unified diff from version A to version B."""
    from bot.services.config_versions import diff

    rows = []
    for wanted in (args.a, args.b):
        found = database_version(wanted)
        if found is None:
            print(f"poundbot: error: no configuration version {wanted}", file=sys.stderr)
            return 1
        rows.append(found)
    lines = diff(rows[0], rows[1])
    print("\n".join(lines) if lines else f"versions {args.a} and {args.b} are the same")
    return 0


def _refusing(command: Any) -> Any:
    """``command``, with a refusal (a database that cannot be reached, a URL poundbot
    cannot run on) said in one line, as the administrative commands say it."""

    def run(args: argparse.Namespace) -> int:
        from bot.entry.cli_admin import check_url
        from bot.entry.cli_refusals import one_line, refusals

        try:
            check_url(database_url())
            return int(command(args))
        except refusals() as exc:
            print(f"poundbot: error: {one_line(exc)}", file=sys.stderr)
            return 1

    return run


def add_config_commands(config_sub: Any) -> None:
    """``config import``, ``export``, ``history`` and ``diff``."""
    imports = config_sub.add_parser(
        "import",
        help="check a configuration file as config check does and put it in force: a new "
        "version in the database, taken up by every instance within seconds",
    )
    imports.add_argument("file", metavar="FILE", help="the configuration file")
    imports.add_argument("--reason", help="why (kept with the version; default: the file)")
    imports.set_defaults(func=_refusing(_import))
    export = config_sub.add_parser(
        "export", help="write the configuration in force (the database's version) as TOML"
    )
    export.add_argument("--out", metavar="FILE", help="the file to write (default: stdout)")
    export.set_defaults(func=_refusing(_export))
    history = config_sub.add_parser(
        "history", help="list the versions of the configuration: id, when, who, source, reason"
    )
    history.set_defaults(func=_refusing(_history))
    diff = config_sub.add_parser(
        "diff", help="the changes from one version of the configuration to another"
    )
    diff.add_argument("a", metavar="A", type=int, help="the version before")
    diff.add_argument("b", metavar="B", type=int, help="the version after")
    diff.set_defaults(func=_refusing(_diff))
