"""The schema each revision gives is recorded (``migrations/schemas``), the same on
SQLite and PostgreSQL, and a revision id is used once (``migrations/revisions.json``).

After adding a migration: ``python -m bot.store.record_schemas``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store.engine import make_engine
from bot.store.lineage import PAST
from bot.store.migrate import line
from bot.store.record_schemas import REVISIONS, RecordError, line_schemas, listed, record
from bot.store.schema import SCHEMAS, digest, load_schema
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.integration.test_old_databases import FIXTURES

RECORD = "python -m bot.store.record_schemas"


@pytest.fixture(params=ENGINES)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


async def test_each_revision_of_the_line_gives_the_schema_recorded_for_it(empty_url: str) -> None:
    engine = make_engine(empty_url)
    try:
        made = await line_schemas(engine)
    finally:
        await engine.dispose()
    for revision, _, schema in made:
        recorded = load_schema(revision)
        assert recorded is not None, f"no schema recorded for {revision}: run {RECORD}"
        assert schema == recorded, f"revision {revision} gives another schema than recorded"


def test_every_revision_of_the_line_is_listed_in_order_with_its_schemas_digest() -> None:
    entries = listed()["line"]
    assert [e["revision"] for e in entries] == line(), f"run {RECORD}"
    for entry in entries:
        schema = load_schema(entry["revision"])
        assert schema is not None
        assert digest(schema) == entry["digest"], entry["revision"]


def test_the_upgrade_page_names_every_revision_and_every_earlier_name() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs/operator/upgrade.md").read_text()
    for revision in line():
        assert f"| `{revision}` |" in page, revision
    for state in PAST:
        assert f"| `{state.stamp}`" in page, state.stamp


def test_a_revision_id_is_never_used_for_two_contents() -> None:
    entries = listed()
    ids = [e["revision"] for e in entries["line"]]
    assert len(set(ids)) == len(ids)
    past = {e["revision"] for e in entries["past"]}
    # Before ids were kept here, 0012 and 0013 first numbered the snapshots of cases (on a
    # branch, then on main until reverted); those databases are told apart by their schema.
    # No other id of the line may be one used before.
    assert set(ids) & past == {"0012", "0013"}
    schemas = [e["schema"] for e in entries["past"]]
    assert len(set(schemas)) == len(schemas)
    for entry in entries["past"]:
        schema = load_schema(entry["schema"])
        assert schema is not None
        assert digest(schema) == entry["digest"], entry["schema"]


def test_every_past_state_is_listed_with_its_revision_and_has_a_database_to_test() -> None:
    listed_past = {(e["schema"], e["revision"]) for e in listed()["past"]}
    assert listed_past == {(state.schema, state.stamp) for state in PAST}
    for state in PAST:
        assert (FIXTURES / f"{state.schema}.sqlite.sql").is_file()
        assert (FIXTURES / f"{state.schema}.pg.sql").is_file()
        assert state.base in line()
        assert set(state.has) | set(state.repairs) <= set(line())
    assert sorted(p.stem for p in SCHEMAS.glob("*.json")) == sorted(
        [*line(), *(state.schema for state in PAST)]
    )


@pytest.fixture
def copies(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the recorded schemas and of the list of revisions."""
    folder = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, folder)
    revisions = tmp_path / "revisions.json"
    shutil.copy(REVISIONS, revisions)
    return folder, revisions


def _recorded(folder: Path) -> list[tuple[str, str, dict[str, object]]]:
    return [
        (e["revision"], e["message"], json.loads((folder / f"{e['revision']}.json").read_text()))
        for e in listed()["line"]
    ]


def test_recording_writes_a_new_revision_and_refuses_a_changed_one_or_a_used_id(
    copies: tuple[Path, Path],
) -> None:
    folder, revisions = copies
    schemas = _recorded(folder)
    assert record(schemas, folder=folder, revisions=revisions) == []  # all recorded already

    grown = {**schemas[-1][2], "stamps": {"columns": {"id": "Integer primary key"}}}
    changed = [*schemas[:-1], (schemas[-1][0], schemas[-1][1], grown)]
    with pytest.raises(RecordError, match=rf"revision {schemas[-1][0]} now gives another"):
        record(changed, folder=folder, revisions=revisions)  # type: ignore[arg-type]
    for used in ("h8_phones", "h10_web"):
        with pytest.raises(RecordError, match=rf"revision id {used} was used before"):
            record([*schemas, (used, "stamps", grown)], folder=folder, revisions=revisions)  # type: ignore[list-item]
    assert json.loads(revisions.read_text()) == json.loads(REVISIONS.read_text())  # unchanged

    new = [*schemas, ("9999_new", "stamps", grown)]
    assert record(new, folder=folder, revisions=revisions) == ["9999_new"]  # type: ignore[arg-type]
    assert json.loads((folder / "9999_new.json").read_text()) == grown
    assert listed(revisions)["line"][-1] == {
        "revision": "9999_new",
        "message": "stamps",
        "digest": digest(grown),  # type: ignore[arg-type]
    }
