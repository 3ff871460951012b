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
    """Print the configuration in force, a key a line, with its file and line or
    "default"; a file with faults is refused as ``config check`` refuses it."""
    from bot.config import ConfigError, sample_config_path
    from bot.config.show import shown

    if args.file is not None:
        path, origin = args.file, "named on the command line"
    elif os.environ.get("POUNDBOT_CONFIG"):
        path, origin = os.environ["POUNDBOT_CONFIG"], "POUNDBOT_CONFIG"
    else:
        path, origin = str(sample_config_path()), "the sample shipped with poundbot"
    try:
        lines = shown(Path(path).read_bytes().decode("utf-8"), path)
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{path}:{fault.line}: {fault.message}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        print(f"{path}: cannot read: {reason or exc}", file=sys.stderr)
        return 1
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


def add_settings_commands(config_sub: Any, sub: Any) -> None:
    """``config show`` under ``config``; ``env`` at the top."""
    show = config_sub.add_parser(
        "show",
        help="print the configuration in force, each key with its file and line or default",
    )
    show.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="the file to show (default: the one in use: POUNDBOT_CONFIG, else the sample)",
    )
    show.set_defaults(func=_config_show)
    env = sub.add_parser(
        "env",
        help="list the environment variables poundbot reads, what each is set to now "
        "(secrets hidden) and what it is for",
    )
    env.set_defaults(func=_env)
