"""How a command line refuses: what it says in one line on stderr (``poundbot: error:
...``, exit status 1) rather than with a traceback, and the line it says."""

from __future__ import annotations

__all__ = ["one_line", "refusals"]


def refusals() -> tuple[type[BaseException], ...]:
    """What an administrative command reports as one line on stderr (exit status 1): the
    refusals of the use cases and of the Act, a bad configuration, a database or file that
    cannot be reached. Anything else is a bug and keeps its traceback."""
    import sqlite3

    from bot.config import ConfigError
    from bot.entry.cli_admin import CommandError
    from bot.store.engine import DatabaseError
    from bot.store.schema import SchemaRefused
    from bot.support.errors import AppError
    from domain.errors import DomainError

    return (
        AppError,
        DomainError,
        ConfigError,
        CommandError,
        SchemaRefused,
        DatabaseError,
        sqlite3.Error,
        OSError,
    )


def one_line(exc: BaseException) -> str:
    """A refusal as one line: its message, then its facts or provision in brackets."""
    import socket
    import sqlite3

    from bot.config import ConfigError
    from bot.store.engine import DatabaseError
    from bot.support.errors import AppError
    from domain.errors import DomainError

    if isinstance(exc, ConfigError):
        return (
            f"the configuration {exc.name} has {len(exc.faults)} fault(s); "
            f"run: poundbot config check {exc.name}"
        )
    if isinstance(exc, AppError):
        facts = "; ".join(
            f"{key}: {'not given' if value is None else value}" for key, value in exc.facts.items()
        )
        return f"{exc} ({facts})" if facts else str(exc)
    if isinstance(exc, DomainError):
        return f"{exc} ({exc.provision})" if exc.provision else str(exc)
    if isinstance(exc, DatabaseError | sqlite3.Error):
        cause = getattr(exc, "orig", None) or exc
        return f"database: {(str(cause).strip().splitlines() or [type(cause).__name__])[0]}"
    if isinstance(exc, ConnectionError | TimeoutError | socket.gaierror):
        return f"cannot reach the database: {exc}"
    return str(exc)
