"""Backups that happen by themselves inside ``poundbot serve`` (a daily, checked copy in
``POUNDBOT_DATA_DIR/backups``, the newest N kept), and ``poundbot restore FILE``: it
checks the file, refuses while a server uses the database unless forced, and keeps the
database it replaces."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from bot.adapters.backups import daily_backup, prune
from bot.bootstrap import open_app
from bot.config import BackupSettings
from bot.entry.app import build_app
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.integration.test_cli import refused, run

AT_0245 = datetime(2026, 3, 1, 2, 45, tzinfo=LOCAL_TZ)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The embedded database in the data folder ``tmp_path/data``."""
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "poundbot.sqlite3"


def names(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT name FROM users WHERE active ORDER BY id").fetchall()
    connection.close()
    return [name for (name,) in rows]


def add_user(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert run(capsys, "users", "add", "--role", "admin", "--name", name)[0] == 0


@asynccontextmanager
async def serving(clock: FixedClock | None = None) -> AsyncIterator[httpx.AsyncClient]:
    """The ASGI app with its lifespan (its background tasks run), on the default database."""
    app = build_app(lambda: open_app(clock=clock))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client,
    ):
        yield client


async def wait_for(path: Path) -> None:
    for _ in range(200):
        if await asyncio.to_thread(path.exists):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


# -- the daily backup -------------------------------------------------------------------


async def test_the_server_takes_the_days_backup_by_itself_checked(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await asyncio.to_thread(add_user, capsys, "Asha")
    taken = db.parent / "backups" / "poundbot-2026-03-01.sqlite3"
    async with serving(FixedClock(AT_0245)):
        await wait_for(taken)
    assert names(taken) == ["Asha"]
    with sqlite3.connect(taken) as copy:
        assert copy.execute("PRAGMA quick_check").fetchone() == ("ok",)
    copy.close()
    assert sorted(p.name for p in taken.parent.iterdir()) == [taken.name]  # no partial left


async def test_a_database_named_by_url_elsewhere_keeps_its_backups_beside_it(
    tmp_path: Path,
) -> None:
    database = tmp_path / "elsewhere" / "pb.sqlite3"
    app = build_app(
        lambda: open_app(url=f"sqlite+aiosqlite:///{database}", clock=FixedClock(AT_0245))
    )
    async with app.router.lifespan_context(app):
        await wait_for(tmp_path / "elsewhere" / "backups" / "poundbot-2026-03-01.sqlite3")


def test_no_backup_before_the_configured_time_and_one_once_it_has_passed(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_user(capsys, "Asha")
    folder = tmp_path / "backups"
    settings = BackupSettings()  # 02:30, keep 14
    early = datetime(2026, 3, 1, 2, 29, tzinfo=LOCAL_TZ)
    assert daily_backup(db, folder, early, settings, LOCAL_TZ) is None
    assert not folder.exists()
    # 21:15 UTC on 28 February is 02:45 on 1 March in Kerala: the local date names it.
    utc = datetime.fromisoformat("2026-02-28T21:15:00+00:00")
    assert daily_backup(db, folder, utc, settings, LOCAL_TZ) == folder / (
        "poundbot-2026-03-01.sqlite3"
    )


def test_a_backup_already_taken_today_is_not_taken_again_after_a_restart(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_user(capsys, "Asha")
    folder = tmp_path / "backups"
    first = daily_backup(db, folder, AT_0245, BackupSettings(), LOCAL_TZ)
    assert first is not None
    add_user(capsys, "Bindu")
    later = datetime(2026, 3, 1, 23, 0, tzinfo=LOCAL_TZ)
    assert daily_backup(db, folder, later, BackupSettings(), LOCAL_TZ) is None
    assert names(first) == ["Asha"]
    tomorrow = datetime(2026, 3, 2, 3, 0, tzinfo=LOCAL_TZ)
    second = daily_backup(db, folder, tomorrow, BackupSettings(), LOCAL_TZ)
    assert second is not None
    assert names(second) == ["Asha", "Bindu"]


def test_only_the_newest_daily_backups_are_kept_and_nothing_else_is_touched(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_user(capsys, "Asha")
    folder = tmp_path / "backups"
    folder.mkdir()
    for day in range(20, 29):  # nine older daily copies
        (folder / f"poundbot-2026-02-{day}.sqlite3").write_bytes(b"old")
    (folder / "before-the-upgrade.sqlite3").write_bytes(b"kept by hand")
    settings = BackupSettings(keep=3)
    assert daily_backup(db, folder, AT_0245, settings, LOCAL_TZ) is not None
    assert sorted(p.name for p in folder.iterdir()) == [
        "before-the-upgrade.sqlite3",
        "poundbot-2026-02-27.sqlite3",
        "poundbot-2026-02-28.sqlite3",
        "poundbot-2026-03-01.sqlite3",
    ]
    assert prune(folder, 3) == []


def test_the_backup_settings_come_from_the_configuration(tmp_path: Path) -> None:
    from bot.config import load_config, parse_config, sample_config_path

    sample = load_config(sample_config_path())
    assert sample.backups == BackupSettings()
    text = sample_config_path().read_text(encoding="utf-8")
    changed = parse_config(
        text.replace('time = "02:30"', 'time = "04:10"').replace("keep = 14", "keep = 30")
    )
    assert (f"{changed.backups.at:%H:%M}", changed.backups.keep) == ("04:10", 30)
    from bot.config import ConfigError

    with pytest.raises(ConfigError) as bad:
        parse_config(text.replace("keep = 14", "keep = 0").replace('time = "02:30"', "time = 3"))
    messages = [fault.message for fault in bad.value.faults]
    assert "[backups]: keep: 0 is not a whole number from 1 up" in messages
    assert '[backups]: time: 3 is not a time "HH:MM" (24-hour)' in messages


# -- restore ---------------------------------------------------------------------------


@pytest.fixture
def backup_of_asha(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A backup holding the user Asha; the database then gets Bindu too."""
    add_user(capsys, "Asha")
    target = tmp_path / "asha.sqlite3"
    assert run(capsys, "backup", str(target))[0] == 0
    add_user(capsys, "Bindu")
    return target


def test_restore_puts_the_backup_back_and_keeps_the_database_it_replaced(
    db: Path, backup_of_asha: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "restore", str(backup_of_asha))
    assert (status, err) == (0, "")
    (kept,) = db.parent.glob("poundbot.sqlite3.replaced-*")
    assert out.splitlines()[0].startswith(f"restored {backup_of_asha} into {db} (migration")
    assert out.splitlines()[1] == f"kept the database it replaced as {kept}"
    assert names(kept) == ["Asha", "Bindu"]
    # The restored database answers.
    status, out, _ = run(capsys, "users", "list")
    assert status == 0
    assert [line.split("\t")[5] for line in out.splitlines()[1:]] == ["Asha"]


def test_restore_into_a_data_folder_with_no_database_yet(
    db: Path,
    backup_of_asha: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "new"))
    # The case numbers issued after the backup are nowhere here: each pound's is asked for.
    assert refused(capsys, "restore", str(backup_of_asha)).startswith(
        f"there is no database at {tmp_path / 'new' / 'poundbot.sqlite3'}, so the case "
        "numbers issued after the backup are not known"
    )
    assert not (tmp_path / "new" / "poundbot.sqlite3").exists()
    given = [f"--next-number={pound}=1" for pound in ("KNM", "PTM", "ENM", "VTV")]
    status, out, _ = run(capsys, "restore", *given, str(backup_of_asha))
    assert status == 0
    assert out.splitlines()[1] == "there was no database before"
    assert names(tmp_path / "new" / "poundbot.sqlite3") == ["Asha"]


def unchanged(db: Path) -> None:
    assert names(db) == ["Asha", "Bindu"]
    assert not list(db.parent.glob("*.replaced-*"))
    assert not list(db.parent.glob(".*restoring*"))


def test_restore_refuses_a_damaged_backup(
    db: Path, backup_of_asha: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = bytearray(backup_of_asha.read_bytes())
    for page in range(1, len(data) // 4096):  # every page but the header's: garbage
        data[page * 4096 + 8 : page * 4096 + 200] = b"\xa5" * 192
    backup_of_asha.write_bytes(bytes(data))
    line = refused(capsys, "restore", str(backup_of_asha))
    assert line.startswith(f"{backup_of_asha} ")
    assert "damaged" in line or "malformed" in line
    unchanged(db)


def test_restore_refuses_a_file_that_is_not_a_database(
    db: Path, backup_of_asha: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database at all, just some notes\n" * 200)
    line = refused(capsys, "restore", str(notes))
    assert line == f"{notes} cannot be restored: file is not a database"
    unchanged(db)
    assert refused(capsys, "restore", str(tmp_path / "missing.sqlite3")) == (
        f"no file {tmp_path / 'missing.sqlite3'}"
    )


def test_restore_refuses_a_database_that_is_not_poundbots(
    db: Path, backup_of_asha: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE cattle (name TEXT)")
    connection.close()
    line = refused(capsys, "restore", str(other))
    assert line.endswith("is not a poundbot database (no migration revision)")
    unchanged(db)


def test_restore_refuses_a_backup_at_a_revision_it_does_not_know(
    db: Path, backup_of_asha: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(backup_of_asha) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    connection.close()
    line = refused(capsys, "restore", str(backup_of_asha))
    assert "is at migration revision 9999_from_the_future, which this poundbot does not" in line
    unchanged(db)


async def test_restore_refuses_while_a_server_uses_the_database_unless_forced(
    db: Path, backup_of_asha: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serving() as client:
        status, out, err = await asyncio.to_thread(run, capsys, "restore", str(backup_of_asha))
        assert (status, out) == (1, "")
        assert err == (
            f"poundbot: error: a poundbot server is using {db}: stop it first "
            "(e.g. systemctl stop poundbot), or restore with --force\n"
        )
        unchanged(db)
        status, out, err = await asyncio.to_thread(
            run, capsys, "restore", "--force", str(backup_of_asha)
        )
        assert status == 0
        assert "a server was using the database: restart it now" in out
        assert (await client.get("/healthz")).json() == {"status": "ok"}
    assert names(db) == ["Asha"]
    # Once the server has stopped, restore needs no force.
    assert run(capsys, "restore", str(backup_of_asha))[0] == 0


def test_restore_of_postgresql_points_to_pg_restore(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", "postgresql+asyncpg://pb@127.0.0.1:5432/pound")
    line = refused(capsys, "restore", str(tmp_path / "x.dump"))
    assert line.endswith(
        "use pg_restore (e.g. pg_restore --clean --if-exists -d DBNAME FILE) and keep the "
        "case numbers issued after the backup as the operator's guide says (Backups)"
    )
