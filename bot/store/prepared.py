"""A statement run on the driver's own connection, compiled once per dialect.

SQLAlchemy spends some 100 us of Python on each statement it executes (an execution
context, its parameters, a cursor, a result); on SQLite the statement itself takes
10-20 us. The statements every inbound SMS runs beyond storing and answering it (its
claim, with its sender and its case: ``bot.store.messages``; the count of its sender's
messages: ``bot.channels.limits``) are compiled here once and run on
the connection the transaction already holds, its parameters and results passed
through the same column types' processors SQLAlchemy would apply, and told to the
engine's ``before_cursor_execute`` listeners as any statement is.

The pages of the web desk read the same way (``Prepared.all``: every row; a list bound
to ``IN`` with ``bindparam(..., expanding=True)`` is expanded as SQLAlchemy expands it,
the SQL kept for each length of the list). What the session holds and has not yet
flushed is flushed first, as SQLAlchemy's autoflush would.

Only inside a transaction the driver says is open (SQLite's ``BEGIN IMMEDIATE``,
asyncpg's transaction, begun by an earlier statement), on the inline SQLite driver
(``bot.store.sqlite_inline``) or asyncpg; otherwise SQLAlchemy runs it as usual. The
first such statement of a transaction asks the session for its connection; the next go
to the one it found (``Tx.driver``), unless a savepoint has been begun since.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound, StatementError
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement, CompoundSelect, Select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.util.concurrency import await_

from bot.store.tx import ReadOnlyError, Tx

__all__ = ["Prepared"]

_Processor = Callable[[Any], Any] | None
_Rows = Select[*tuple[Any, ...]] | CompoundSelect[*tuple[Any, ...]]
_Statement = _Rows | UpdateBase
#: A parameter of the SQL: a value's name, or a list's name and the item's place in it.
_Slot = tuple[str, int | None]


@dataclass(frozen=True, slots=True)
class _Item:
    """An item of a list bound to ``IN``, standing for its place while SQL is made."""

    name: str
    at: int


class _Compiled:
    """The statement's SQL for one dialect, its parameters in order and the
    processors of its parameters and of the columns it returns."""

    def __init__(
        self, statement: _Statement, returns: Sequence[ColumnElement[Any]], dialect: Dialect
    ) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        assert compiled.positiontup is not None
        assert not compiled.literal_execute_params, "its SQL would depend on the values"
        self._compiled = compiled
        self.sql = str(compiled)
        #: Each parameter's name, in order (a name may come more than once).
        self.names = tuple(compiled.positiontup)
        #: The lists bound to ``IN`` (``expanding=True``): the SQL, and the names of its
        #: parameters, are those of their lengths (``_expanded``).
        self.expanding = tuple(sorted(b.key for b in compiled.post_compile_params))
        self._shapes: dict[tuple[int, ...], tuple[str, tuple[_Slot, ...]]] = {}
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
        results = [
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in returns
        ]
        #: The columns whose values are processed (``Row``'s place, processor).
        self.processed = tuple((at, process) for at, process in enumerate(results) if process)

    def bound(self, params: Mapping[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """The SQL to run with ``params`` (its lists expanded) and its arguments, in order."""
        values = {**self.fixed, **params}
        processed = {
            name: value if (process := self.binds[name]) is None else process(value)
            for name, value in values.items()
            if name in self.binds
        }
        if not self.expanding:
            return self.sql, tuple(processed[name] for name in self.names)
        sql, slots = self._expanded(values)
        for name in self.expanding:
            process = self.binds[name]
            processed[name] = [v if process is None else process(v) for v in values[name]]
        return sql, tuple(
            processed[name] if at is None else processed[name][at] for name, at in slots
        )

    def _expanded(self, values: Mapping[str, Any]) -> tuple[str, tuple[_Slot, ...]]:
        """The SQL for the lengths of the lists in ``values``, and what each of its
        parameters is: ``(name, None)`` a value, ``(name, i)`` the i-th item of a list.
        SQLAlchemy expands it (``construct_expanded_state``), once for each length."""
        lengths = tuple(len(values[name]) for name in self.expanding)
        found = self._shapes.get(lengths)
        if found is None:
            # Each item of a list stands for its place in it, to be read back below.
            marked = {name: values.get(name) for name in self.binds} | {
                name: [_Item(name, i) for i in range(len(values[name]))] for name in self.expanding
            }
            state = self._compiled.construct_expanded_state(marked)
            slots = tuple(
                (item.name, item.at)
                if isinstance(item := state.parameters[name], _Item)
                else (name, None)
                for name in state.positiontup or ()
            )
            found = self._shapes[lengths] = (state.statement, slots)
        return found

    def rows(self, raw: Iterable[Sequence[Any]], make: Callable[[Iterable[Any]], Any]) -> list[Any]:
        """The rows the driver returned, each column through its processor, each made a row
        by ``make``; only the columns with a processor are touched (dates on SQLite)."""
        if not self.processed:
            return [make(values) for values in raw]
        made = []
        for values in raw:
            row = list(values)
            for at, process in self.processed:
                row[at] = process(row[at])
            made.append(make(row))
        return made


class Prepared:
    """A statement run on the driver (see the module): an INSERT or UPDATE ... RETURNING
    (``returning``) or a SELECT (``select``), of exactly one row (``one``) or of any
    number (``all``). A row is a named tuple of the columns' names, as SQLAlchemy's
    ``Row`` would be read."""

    def __init__(self, statement: _Statement, returns: Sequence[ColumnElement[Any]]) -> None:
        self.statement = statement
        self.returns = tuple(returns)
        row = namedtuple(  # type: ignore[misc]
            "Row", [getattr(c, "key", None) or f"_{n}" for n, c in enumerate(returns)], rename=True
        )
        self._row: Callable[[Iterable[Any]], Any] = row._make
        self._by_dialect: dict[str, _Compiled] = {}

    @classmethod
    def returning(cls, statement: UpdateBase, returns: Sequence[ColumnElement[Any]]) -> Prepared:
        return cls(statement.returning(*returns), returns)

    @classmethod
    def select(cls, statement: _Rows) -> Prepared:
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
        return _only(await self.all(tx, params))

    async def all(self, tx: Tx, params: Mapping[str, Any]) -> list[Any]:
        """Run the statement in ``tx`` and return its rows."""
        # The connection an earlier statement found, unless a savepoint was begun since
        # (the session emits its SAVEPOINT only when next asked for the connection), or
        # the session holds changes to flush first.
        if tx.reading and isinstance(self.statement, UpdateBase):
            raise ReadOnlyError("a reading transaction was given a statement that writes")
        session = tx.session
        if (
            tx.driver is not None
            and not session.in_nested_transaction()
            and not (session.new or session.dirty or session.deleted)
        ):
            connection, driver = tx.driver
            if _open(driver):
                if isinstance(driver, sqlite3.Connection):
                    return self._on_sqlite(connection, driver, params)
                return await self._on_asyncpg(connection, driver, params)
        return await session.run_sync(self._all, params, tx)

    def _all(self, session: Session, params: Mapping[str, Any], tx: Tx) -> list[Any]:
        if session.new or session.dirty or session.deleted:
            session.flush()  # as SQLAlchemy's autoflush would before the statement
        connection = session.connection()  # begins the transaction if it is not begun
        driver: Any = connection.connection.driver_connection
        if not _open(driver):
            return list(session.execute(self.statement, dict(params)).all())
        tx.driver = (connection, driver)
        if isinstance(driver, sqlite3.Connection):
            return self._on_sqlite(connection, driver, params)
        return await_(self._on_asyncpg(connection, driver, params))

    def _on_sqlite(
        self, connection: Connection, driver: sqlite3.Connection, params: Mapping[str, Any]
    ) -> list[Any]:
        compiled = self._compiled(connection.dialect)
        sql, arguments = _announced(connection, compiled, params)
        try:
            rows = driver.execute(sql, arguments).fetchall()
        except sqlite3.Error as error:
            raise _as_sqlalchemy_raises(sql, arguments, error) from error
        return compiled.rows(rows, self._row)

    async def _on_asyncpg(
        self, connection: Connection, driver: Any, params: Mapping[str, Any]
    ) -> list[Any]:
        compiled = self._compiled(connection.dialect)
        sql, arguments = _announced(connection, compiled, params)
        try:
            records = await driver.fetch(sql, *arguments)
        except Exception as error:
            raise _as_sqlalchemy_raises(sql, arguments, error) from error
        return compiled.rows(records, self._row)


def _open(driver: Any) -> bool:
    """Whether ``driver`` is one this module runs statements on (the inline SQLite's
    ``sqlite3`` connection, asyncpg's) and its transaction is open."""
    if isinstance(driver, sqlite3.Connection):
        return driver.in_transaction
    return type(driver).__module__.startswith("asyncpg") and bool(driver.is_in_transaction())


def _as_sqlalchemy_raises(sql: str, arguments: tuple[Any, ...], error: Exception) -> StatementError:
    """The driver's error as SQLAlchemy would raise it from a statement (by the error's
    class: ``OperationalError`` for a full disk or a lock, ``IntegrityError``...)."""
    return DBAPIError.instance(sql, arguments, error, Exception)


def _only(rows: Sequence[Sequence[Any]]) -> Sequence[Any]:
    """The one row, or the error SQLAlchemy's ``Result.one()`` raises."""
    if not rows:
        raise NoResultFound("No row was found when one was required")
    if len(rows) > 1:
        raise MultipleResultsFound("Multiple rows were found when exactly one was required")
    return rows[0]


def _announced(
    connection: Connection, compiled: _Compiled, params: Mapping[str, Any]
) -> tuple[str, tuple[Any, ...]]:
    """The statement's SQL and arguments, the statement told first to whoever listens for
    the statements the engine runs (``before_cursor_execute``: what counts them, in the
    tests and the benchmarks, sees this one too)."""
    sql, arguments = compiled.bound(params)
    for listener in connection.dispatch.before_cursor_execute:
        listener(connection, None, sql, arguments, None, False)
    return sql, arguments
