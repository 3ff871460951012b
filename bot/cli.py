"""The ``poundbot`` command line."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

__all__ = ["main"]

log = logging.getLogger("poundbot")


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from bot.app import build_app
    from bot.bootstrap import config_path, load, open_app
    from bot.config import ConfigError

    try:
        config = load()
    except (ConfigError, OSError) as exc:
        log.error("refusing to start: the configuration %s is not valid", config_path())
        if isinstance(exc, ConfigError):
            for fault in exc.faults:
                log.error("  %s:%d: %s", config_path(), fault.line, fault.message)
        else:
            log.error("  %s", exc)
        return 2
    app = build_app(lambda: open_app(config=config))
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


def _config_check(args: argparse.Namespace) -> int:
    """Check a configuration file: "FILE: OK (...)", or each fault as "FILE:LINE: message"."""
    from bot.config import ConfigError, load_config

    try:
        config = load_config(args.file)
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{args.file}:{fault.line}: {fault.message}")
        return 1
    except OSError as exc:
        print(f"{args.file}: cannot read: {exc.strerror or exc}")
        return 1
    counts = f"{len(config.authorities)} authorities, {len(config.pounds)} pounds"
    print(f"{args.file}: OK ({counts}, {len(config.kinds)} kinds)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="poundbot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the webhooks and run the reminder engine")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    serve.set_defaults(func=_serve)
    config = sub.add_parser("config", help="work with the configuration file")
    config_sub = config.add_subparsers(dest="config_command", required=True)
    check = config_sub.add_parser("check", help="check a configuration file and list its faults")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(func=_config_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
