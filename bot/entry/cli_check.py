"""``poundbot config check``'s checks of a configuration, whichever way it was read (a
file, a version in the database): shared by ``config check`` and ``config import``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Config

__all__ = ["check_loaded"]


def check_loaded(name: str, load: Callable[[], Config], *, strict: bool) -> int:
    """``config check`` of the configuration ``load`` reads, named ``name`` in what it
    prints; 0 when it passes (``strict``: without a warning either), else 1."""
    from bot.config import ConfigError

    try:
        config = load()
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{name}:{fault.line}: {fault.message}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{name}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 1
    from bot.config.settings import Settings

    try:  # the SMS provider named in the environment, with all it needs
        refusal = Settings.from_env().sms_refusal()
    except ValueError as exc:
        refusal = str(exc)
    if refusal:
        print(f"environment: {refusal}", file=sys.stderr)
        return 1
    from bot.config.production import dlt_fault, place_names_warning, sample_warning

    no_dlt = dlt_fault(config, Settings.from_env())
    if no_dlt:
        print(f"{name}: {no_dlt}", file=sys.stderr)
        return 1
    from bot.support.counted import counted

    counts = (
        f"{counted(len(config.authorities), 'authority', 'authorities')}, "
        f"{counted(len(config.pounds), 'pound', 'pounds')}"
    )
    from bot.entry.cli_dlt import dlt_report

    lines, unsent = dlt_report(config)
    if unsent:  # DLT on, and messages a configured language needs have no id
        print(f"{name}: {lines[0]}", file=sys.stderr)
        print(f"{name}: {unsent[0]}", file=sys.stderr)
        print("\n".join(unsent[1:]), file=sys.stderr)
        return 1
    print(f"{name}: OK ({counts}, {len(config.kinds)} kinds)")
    from bot.config.acts import act_lines

    for line in (*lines, *act_lines(config)):  # the Acts, and what to confirm of them
        print(f"{name}: {line}")
    warnings = [w for w in (sample_warning(config), place_names_warning(config)) if w]
    for warning in warnings:
        print(f"{name}: WARNING {warning}", file=sys.stderr)
    return 1 if warnings and strict else 0
