"""A statement run on the driver's own connection, compiled once per dialect.

SQLAlchemy spends some 100 us of Python on each statement it executes (an execution
context, its parameters, a cursor, a result); on SQLite the statement itself takes
10-20 us. A statement that every inbound message runs beyond storing and answering it
(the count of its sender's messages: ``bot.limits``) is compiled here once and run on
the connection the transaction already holds, its parameters and results passed
through the same column types' processors SQLAlchemy would apply.

Only inside a transaction the driver says is open (SQLite's ``BEGIN IMMEDIATE``,
asyncpg's transaction, begun by an earlier statement), on the inline SQLite driver
(``bot.store.sqlite_inline``) or asyncpg; otherwise SQLAlchemy runs it as usual.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.util.concurrency import await_

from bot.store.tx import Tx

__all__ = ["Prepared"]

_Processor = Callable[[Any], Any] | None


class _Compiled:
    """The statement's SQL for one dialect, its parameters in order and the
    processors of its parameters and of the columns it returns."""

    def __init__(
        self, statement: UpdateBase, returns: Sequence[ColumnElement[Any]], dialect: Dialect
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
    """An INSERT or UPDATE ... RETURNING ``returns`` of exactly one row, run on the
    driver (see the module)."""

    def __init__(self, statement: UpdateBase, returns: Sequence[ColumnElement[Any]]) -> None:
        self.statement = statement.returning(*returns)
        self.returns = tuple(returns)
        self._by_dialect: dict[str, _Compiled] = {}

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is None:
            found = self._by_dialect[dialect.name] = _Compiled(
                self.statement, self.returns, dialect
            )
        return found

    async def one(self, tx: Tx, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """Run the statement in ``tx`` and return its one row."""
        return await tx.session.run_sync(self._one, params)

    def _one(self, session: Session, params: Mapping[str, Any]) -> tuple[Any, ...]:
        connection = session.connection()
        driver: Any = connection.connection.driver_connection
        if isinstance(driver, sqlite3.Connection) and driver.in_transaction:
            compiled = self._compiled(connection.dialect)
            (raw,) = driver.execute(compiled.sql, compiled.arguments(params)).fetchall()
            return compiled.row(raw)
        if type(driver).__module__.startswith("asyncpg") and driver.is_in_transaction():
            compiled = self._compiled(connection.dialect)
            record = await_(driver.fetchrow(compiled.sql, *compiled.arguments(params)))
            assert record is not None
            return compiled.row(tuple(record))
        return tuple(session.execute(self.statement, dict(params)).one())
