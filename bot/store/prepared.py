"""A statement run on the driver's own connection, compiled once per dialect.

SQLAlchemy spends some 100 us of Python on each statement it executes (an execution
context, its parameters, a cursor, a result); on SQLite the statement itself takes
10-20 us. The statements every inbound SMS runs beyond storing and answering it (its
claim, with its sender and its case: ``bot.store.messages``; the count of its sender's
messages: ``bot.channels.limits``) are compiled here once and run on
the connection the transaction already holds, its parameters and results passed
through the same column types' processors SQLAlchemy would apply, and told to the
engine's ``before_cursor_execute`` listeners as any statement is.

Only inside a transaction the driver says is open (SQLite's ``BEGIN IMMEDIATE``,
asyncpg's transaction, begun by an earlier statement), on the inline SQLite driver
(``bot.store.sqlite_inline``) or asyncpg; otherwise SQLAlchemy runs it as usual. The
first such statement of a transaction asks the session for its connection; the next go
to the one it found (``Tx.driver``), unless a savepoint has been begun since.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound, StatementError
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement, Select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.util.concurrency import await_

from bot.store.tx import Tx

__all__ = ["Prepared"]

_Processor = Callable[[Any], Any] | None
_Statement = Select[Any] | UpdateBase


class _Compiled:
    """The statement's SQL for one dialect, its parameters in order and the
    processors of its parameters and of the columns it returns."""

    def __init__(
        self, statement: _Statement, returns: Sequence[ColumnElement[Any]], dialect: Dialect
    ) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        assert compiled.positiontup is not None
        self.sql = str(compiled)
        #: Each parameter's name, in order (a name may come more than once).
        self.names = tuple(compiled.positiontup)
        #: The values the statement itself holds (``count=1``, ``LIMIT 1``).
        self.fixed = {
            name: bind.value
            for name, bind in compiled.binds.items()
            if not bind.required and bind.value is not None
        }
        self.binds: dict[str, _Processor] = {
            name: compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in set(self.names)
        }
        self.results: tuple[_Processor, ...] = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in returns
        )

    def arguments(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        values = {**self.fixed, **params}
        processed = {
            name: value if (process := self.binds[name]) is None else process(value)
            for name, value in values.items()
            if name in self.binds
        }
        return tuple(processed[name] for name in self.names)

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(
            value if process is None else process(value)
            for process, value in zip(self.results, raw, strict=True)
        )


class Prepared:
    """A statement of exactly one row, run on the driver (see the module): an INSERT or
    UPDATE ... RETURNING (``returning``) or a SELECT (``select``). The row is a named
    tuple of the columns' names, as SQLAlchemy's ``Row`` would be read."""

    def __init__(self, statement: _Statement, returns: Sequence[ColumnElement[Any]]) -> None:
        self.statement = statement
        self.returns = tuple(returns)
        self._row = namedtuple(  # type: ignore[misc]
            "Row", [getattr(c, "key", None) or f"_{n}" for n, c in enumerate(returns)], rename=True
        )
        self._by_dialect: dict[str, _Compiled] = {}

    @classmethod
    def returning(cls, statement: UpdateBase, returns: Sequence[ColumnElement[Any]]) -> Prepared:
        return cls(statement.returning(*returns), returns)

    @classmethod
    def select(cls, statement: Select[Any]) -> Prepared:
        return cls(statement, list(statement.selected_columns))

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is None:
            found = self._by_dialect[dialect.name] = _Compiled(
                self.statement, self.returns, dialect
            )
        return found

    async def one(self, tx: Tx, params: Mapping[str, Any]) -> Any:
        """Run the statement in ``tx`` and return its one row."""
        # The connection an earlier statement found, unless a savepoint was begun since:
        # the session emits its SAVEPOINT only when next asked for the connection.
        if tx.driver is not None and not tx.session.in_nested_transaction():
            connection, driver = tx.driver
            if _open(driver):
                if isinstance(driver, sqlite3.Connection):
                    return self._on_sqlite(connection, driver, params)
                return await self._on_asyncpg(connection, driver, params)
        return await tx.session.run_sync(self._one, params, tx)

    def _one(self, session: Session, params: Mapping[str, Any], tx: Tx) -> Any:
        connection = session.connection()  # begins the transaction if it is not begun
        driver: Any = connection.connection.driver_connection
        if not _open(driver):
            return session.execute(self.statement, dict(params)).one()
        tx.driver = (connection, driver)
        if isinstance(driver, sqlite3.Connection):
            return self._on_sqlite(connection, driver, params)
        return await_(self._on_asyncpg(connection, driver, params))

    def _on_sqlite(
        self, connection: Connection, driver: sqlite3.Connection, params: Mapping[str, Any]
    ) -> Any:
        compiled = self._compiled(connection.dialect)
        arguments = _announced(connection, compiled, params)
        try:
            rows = driver.execute(compiled.sql, arguments).fetchall()
        except sqlite3.Error as error:
            raise _as_sqlalchemy_raises(compiled, arguments, error) from error
        return self._row(*compiled.row(_only(rows)))

    async def _on_asyncpg(
        self, connection: Connection, driver: Any, params: Mapping[str, Any]
    ) -> Any:
        compiled = self._compiled(connection.dialect)
        arguments = _announced(connection, compiled, params)
        try:
            record = await driver.fetchrow(compiled.sql, *arguments)
        except Exception as error:
            raise _as_sqlalchemy_raises(compiled, arguments, error) from error
        return self._row(*compiled.row(_only([] if record is None else [tuple(record)])))


def _open(driver: Any) -> bool:
    """Whether ``driver`` is one this module runs statements on (the inline SQLite's
    ``sqlite3`` connection, asyncpg's) and its transaction is open."""
    if isinstance(driver, sqlite3.Connection):
        return driver.in_transaction
    return type(driver).__module__.startswith("asyncpg") and bool(driver.is_in_transaction())


def _as_sqlalchemy_raises(
    compiled: _Compiled, arguments: tuple[Any, ...], error: Exception
) -> StatementError:
    """The driver's error as SQLAlchemy would raise it from a statement (by the error's
    class: ``OperationalError`` for a full disk or a lock, ``IntegrityError``...)."""
    return DBAPIError.instance(compiled.sql, arguments, error, Exception)


def _only(rows: Sequence[Sequence[Any]]) -> Sequence[Any]:
    """The one row, or the error SQLAlchemy's ``Result.one()`` raises."""
    if not rows:
        raise NoResultFound("No row was found when one was required")
    if len(rows) > 1:
        raise MultipleResultsFound("Multiple rows were found when exactly one was required")
    return rows[0]


def _announced(
    connection: Connection, compiled: _Compiled, params: Mapping[str, Any]
) -> tuple[Any, ...]:
    """The statement's arguments, the statement told first to whoever listens for the
    statements the engine runs (``before_cursor_execute``: what counts them, in the tests
    and the benchmarks, sees this one too)."""
    arguments = compiled.arguments(params)
    for listener in connection.dispatch.before_cursor_execute:
        listener(connection, None, compiled.sql, arguments, None, False)
    return arguments
