"""Record the schema each revision of the line gives: ``python -m bot.store.record_schemas``.

Run it after adding a migration. It runs the migrations one revision at a time on an
empty SQLite database and, for each revision not recorded yet, writes
``migrations/schemas/<revision>.json`` and adds the revision to
``migrations/revisions.json`` (its message and the digest of its schema). A revision
already recorded must still give the schema recorded, and a new revision may not take
an id used before: either is refused, as a revision id is used once (a change to the
schema takes a new revision). The schemas of earlier variants (``past`` in
``revisions.json``) were recorded from their databases by
``tests/fixtures/databases/build.py``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.engine import make_engine
from bot.store.migrate import alembic_config
from bot.store.schema import Schema, digest, load_schema, read_schema, save_schema
from bot.support.resources import data_dir

__all__ = ["REVISIONS", "RecordError", "line_schemas", "listed", "main", "record"]

#: Every revision id used: ``line`` (revision, message, digest of its schema) and
#: ``past`` (the revision a past state is stamped with, its schema's name and digest,
#: the commit that made it).
REVISIONS = data_dir("migrations") / "revisions.json"


class RecordError(Exception):
    """A revision that gives another schema than recorded, or takes an id used before."""


def listed(path: Path | None = None) -> dict[str, list[dict[str, str]]]:
    """``migrations/revisions.json``."""
    loaded: dict[str, list[dict[str, str]]] = json.loads(
        (path or REVISIONS).read_text(encoding="utf-8")
    )
    return loaded


async def line_schemas(engine: AsyncEngine) -> list[tuple[str, str, Schema]]:
    """(revision, message, schema) of each revision of the line, oldest first, made by
    running the migrations one at a time on the empty database of ``engine``."""
    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    found = []
    for revision in reversed(list(script.walk_revisions())):

        def step(connection: Connection, to: str = revision.revision) -> Schema:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, to)
            return read_schema(connection)

        async with engine.begin() as connection:
            schema = await connection.run_sync(step)
        message = (revision.doc or "").strip().split("\n", 1)[0]
        found.append((revision.revision, message, schema))
    return found


def record(
    schemas: list[tuple[str, str, Schema]],
    *,
    folder: Path | None = None,
    revisions: Path | None = None,
) -> list[str]:
    """Record the schemas of revisions not recorded yet; returns them. Raises
    ``RecordError`` (writing nothing) when a recorded revision now gives another schema
    or a new revision takes an id used before."""
    path = revisions or REVISIONS
    known = listed(path)
    line: list[dict[str, Any]] = known["line"]
    recorded = {entry["revision"]: entry for entry in line}
    used_before = {entry["revision"] for entry in known["past"]}
    new = []
    for revision, message, schema in schemas:
        entry = recorded.get(revision)
        if entry is not None:
            if entry["digest"] != digest(schema) or load_schema(revision, folder) != schema:
                raise RecordError(
                    f"revision {revision} now gives another schema than the one recorded: "
                    "a revision id is used once; give the change a new revision"
                )
            continue
        if revision in used_before:
            raise RecordError(
                f"revision id {revision} was used before (migrations/revisions.json, past): "
                "give the migration a new id"
            )
        new.append((revision, message, schema))
    for revision, message, schema in new:
        save_schema(revision, schema, folder)
        line.append({"revision": revision, "message": message, "digest": digest(schema)})
    if new:
        path.write_text(json.dumps(known, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return [revision for revision, _, _ in new]


async def _line_schemas_on_sqlite() -> list[tuple[str, str, Schema]]:
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite+aiosqlite:///{Path(folder) / 'schemas.sqlite3'}")
        try:
            return await line_schemas(engine)
        finally:
            await engine.dispose()


def main() -> int:
    try:
        written = record(asyncio.run(_line_schemas_on_sqlite()))
    except RecordError as exc:
        print(f"record_schemas: {exc}", file=sys.stderr)
        return 1
    if written:
        print(f"recorded the schema of {', '.join(written)} in migrations/schemas/")
    else:
        print("every revision of the line is recorded, and gives the schema recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
