"""``poundbot config show`` and ``poundbot env``: the settings in force and where each
comes from, for an operator checking a server."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_settings_commands"]


def _config_show(args: argparse.Namespace) -> int:
    """Print the configuration in force, a key a line, with its line or "default": the
    database's version in force, else (the database holds none, or FILE is named) the
    file; a configuration with faults is refused as ``config check`` refuses it."""
    from bot.config import ConfigError, sample_config_path
    from bot.config.show import shown

    found = None
    if args.file is None:
        from bot.entry.cli_config import read_in_force

        found = read_in_force()
    if found is not None:
        path = f"configuration version {found.id}"
        origin = "the database's version in force: poundbot config history"
    elif args.file is not None:
        path, origin = args.file, "named on the command line"
    elif os.environ.get("POUNDBOT_CONFIG"):
        path, origin = os.environ["POUNDBOT_CONFIG"], "POUNDBOT_CONFIG; the database holds none"
    else:
        path = str(sample_config_path())
        origin = "the sample shipped with poundbot; the database holds none"
    try:
        text = found.text if found is not None else Path(path).read_bytes().decode("utf-8")
        lines = shown(text, path)
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{path}:{fault.line}: {fault.message}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        print(f"{path}: cannot read: {reason or exc}", file=sys.stderr)
        return 1
    if found is not None:
        from bot.entry.cli_config import note_file_differs

        note_file_differs(found)
    print(f"# the configuration in force: {path} ({origin})")
    print("# the environment's settings: poundbot env")
    print("\n".join(lines))
    return 0


def _env(_args: argparse.Namespace) -> int:
    """Print every environment variable poundbot reads, what it is set to (secrets
    hidden), what it is for and what happens when it is unset."""
    from bot.support.environment import described

    print("\n".join(described(os.environ)))
    return 0


def _env_run(args: argparse.Namespace) -> int:
    """Run COMMAND with the settings of an environment file, read as systemd reads the
    service's ``EnvironmentFile=`` (``bot.support.envfile``): ``--default`` values
    first (the unit's ``Environment=``), the file's over them, as systemd has it."""
    from bot.support.envfile import EnvFileError, parse_env_file

    command = args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line
    if not command:
        print("poundbot env-run: error: no command to run (FILE -- COMMAND ...)", file=sys.stderr)
        return 2
    try:
        read = parse_env_file(Path(args.file).read_bytes(), args.file)
    except OSError as exc:
        print(f"poundbot env-run: error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except EnvFileError as exc:
        print(f"poundbot env-run: error: {exc}", file=sys.stderr)
        return 2
    for note in read.notes:
        print(f"poundbot env-run: {args.file}: {note}", file=sys.stderr)
    env = dict(os.environ)
    for default in args.default:
        name, _, value = default.partition("=")
        env[name] = value
    env.update(read.values)
    try:
        os.execvpe(command[0], command, env)
    except OSError as exc:
        print(f"poundbot env-run: error: {command[0]}: {exc.strerror or exc}", file=sys.stderr)
        return 127
    return 0  # not reached: exec replaces this process


def _assignment(text: str) -> str:
    name, equals, _ = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    return text


def add_settings_commands(config_sub: Any, sub: Any) -> None:
    """``config show`` under ``config``; ``env`` at the top."""
    show = config_sub.add_parser(
        "show",
        help="print the configuration in force (the database's version, else the file), "
        "each key with its line or default",
    )
    show.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="the file to show (default: the database's version in force, else the file in "
        "use: POUNDBOT_CONFIG, else the sample)",
    )
    show.set_defaults(func=_config_show)
    env = sub.add_parser(
        "env",
        help="list the environment variables poundbot reads, what each is set to now "
        "(secrets hidden) and what it is for",
    )
    env.set_defaults(func=_env)
    run = sub.add_parser(
        "env-run",
        help="run a command with the settings of an environment file, read as systemd "
        "reads the service's EnvironmentFile= (deploy/poundbot-admin uses it)",
    )
    run.add_argument("file", metavar="FILE", help="the environment file (/etc/poundbot/env)")
    run.add_argument(
        "--default",
        action="append",
        default=[],
        type=_assignment,
        metavar="NAME=VALUE",
        help="a setting the file may override, as the unit's Environment= (again for each; "
        "before FILE)",
    )
    run.add_argument(
        "command_line",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ...",
        help="the command to run, with its arguments",
    )
    run.set_defaults(func=_env_run, logs=False)
