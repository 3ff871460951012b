"""A SQLite schema is read once per process for the statements that made it: a database
made by other statements (a column added, an index dropped) is read again, never
answered with the schema kept for another."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Connection, create_engine, text

from bot.store import schema


def test_a_changed_schema_is_read_again_and_the_same_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE pens (id INTEGER PRIMARY KEY, name VARCHAR(20))"))
        first = schema.read_schema(connection)
        assert first["pens"]["columns"] == {
            "id": "Integer null primary key",
            "name": "String(20) null",
        }
        reads: list[Connection] = []
        reflect = schema._reflect

        def counted(connection: Connection) -> schema.Schema:
            reads.append(connection)
            return reflect(connection)

        monkeypatch.setattr(schema, "_reflect", counted)
        assert schema.read_schema(connection) == first  # kept: not read again
        assert reads == []
        connection.execute(text("ALTER TABLE pens ADD COLUMN kept_on DATE"))
        connection.execute(text("CREATE INDEX ix_pens_name ON pens (name)"))
        changed = schema.read_schema(connection)
        assert len(reads) == 1
    assert changed["pens"]["columns"]["kept_on"] == "Date null"
    assert changed["pens"]["indexes"] == {"ix_pens_name": "name"}
    changed["pens"]["columns"].clear()  # a caller's copy: what is kept stays whole
    with engine.begin() as connection:
        assert schema.read_schema(connection)["pens"]["columns"]["kept_on"] == "Date null"
    engine.dispose()
