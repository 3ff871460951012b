"""A restore never numbers a case again: ``poundbot restore FILE`` keeps each pound's last
case number of the database it replaces (never lower), lists the cases numbered after
the backup so staff can enter them again, and, when the database it replaces is missing
or cannot be read, asks for each pound's next number (``--next-number POUND=N``)."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.bootstrap import open_app
from bot.services.admin import add_user
from bot.services.keeper import record_seizure
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.databases import migrated_url
from tests.e2e.sms_harness import KEEPER_PHONE, sms_rig
from tests.integration.test_cli import refused, run
from tests.integration.test_migrations import fresh_pg_database
from tests.service.helpers import seizure

SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"
POUNDS = ("KNM", "PTM", "ENM", "VTV")  # the sample configuration's
KEEPERS = {
    "KNM": Caller(role="keeper", channel="cli", pound="KNM", authority="KNM-GP"),
    "VTV": Caller(role="keeper", channel="cli", pound="VTV", authority="VTV-GP"),
}


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The embedded database in the data folder ``tmp_path/data``, sample configuration."""
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "poundbot.sqlite3"


def url(db: Path) -> str:
    return f"sqlite+aiosqlite:///{db}"


async def seize(db: Path, pound: str = "KNM", day: int = 2) -> str:
    """A seizure recorded by the keeper's use case; the number it was given."""
    clock = FixedClock(datetime(2026, 3, day, 11, 0, tzinfo=LOCAL_TZ))
    async with open_app(url=url(db), clock=clock) as app, app.store.transaction() as tx:
        done = await record_seizure(
            tx, app.deps, KEEPERS[pound], seizure(pound=pound, place="Kovilur")
        )
    return done.case.number


def numbers(db: Path) -> list[str]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT number FROM cases ORDER BY pound_code, seq").fetchall()
    connection.close()
    return [number for (number,) in rows]


def counters(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT code, last_case_seq FROM pounds").fetchall()
    connection.close()
    return dict(rows)


def left_beside(db: Path) -> list[str]:
    """What a restore left in the data folder besides the database, its lock and the
    server's daily backups."""
    own = {db.name, f"{db.name}.lock", f"{db.name}-wal", f"{db.name}-shm", "backups"}
    return sorted(p.name for p in db.parent.iterdir() if p.name not in own)


@pytest.fixture
async def after_backup(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """KNM-1 and KNM-2 reported by the keeper's SMS, then a backup, then KNM-3 (on 1
    March) and KNM-4 (on 2 March) by SMS too: the SMS with KNM-3 and KNM-4 are on the
    keeper's phone, and the backup knows nothing of them."""
    backup = tmp_path / "before.sqlite3"
    async with sms_rig(tmp_path, migrated_url(db)) as rig:  # a copy of the migrated schema
        for n in (1, 2):
            assert f"KNM-{n}" in (await rig.sms(KEEPER_PHONE, SEIZE, f"SM-{n}")).text
        status, _, err = await asyncio.to_thread(run, capsys, "backup", str(backup))
        assert (status, err) == (0, "")
        assert "KNM-3" in (await rig.sms(KEEPER_PHONE, SEIZE, "SM-3")).text
        rig.clock.set(datetime(2026, 3, 2, 9, 0, tzinfo=LOCAL_TZ))
        assert "KNM-4" in (await rig.sms(KEEPER_PHONE, SEIZE, "SM-4")).text
    return backup


async def test_after_a_restore_the_next_seizure_is_numbered_after_the_last_one_issued(
    db: Path, after_backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = await asyncio.to_thread(run, capsys, "restore", str(after_backup))
    assert (status, err) == (0, "")
    assert numbers(db) == ["KNM-1", "KNM-2"]
    assert await seize(db) == "KNM-5"
    assert await seize(db) == "KNM-6"
    lines = out.splitlines()
    assert (
        "case numbers: KNM goes on from KNM-4, the last number of the database replaced "
        "(the backup's last is KNM-2)"
    ) in lines
    at = lines.index(
        "2 cases were numbered after the backup and are not in it: enter them again "
        "(they get new numbers)"
    )
    assert lines[at + 1 : at + 4] == [
        "case\tpound\timpounded on\trecorded by",
        f"KNM-3\tKNM\t2026-03-01\tVelayudhan {KEEPER_PHONE}",
        f"KNM-4\tKNM\t2026-03-02\tVelayudhan {KEEPER_PHONE}",
    ]


async def test_a_restore_never_lowers_a_counter_and_says_when_nothing_was_numbered_after(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await seize(db)
    backup = tmp_path / "same.sqlite3"
    assert run(capsys, "backup", str(backup))[0] == 0
    status, out, _ = run(capsys, "restore", str(backup))
    assert status == 0
    assert (
        "case numbers: as in the backup (the database replaced has no higher number)"
        in out.splitlines()
    )
    assert "numbered after the backup" not in out
    assert counters(db)["KNM"] == 1
    assert await seize(db) == "KNM-2"


async def test_a_pound_the_backup_does_not_know_keeps_its_numbers_too(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pound added to the configuration after the backup was taken."""
    await seize(db)
    backup = tmp_path / "before-vtv.sqlite3"
    assert run(capsys, "backup", str(backup))[0] == 0
    with sqlite3.connect(backup) as connection:  # as a backup taken before VTV was added
        connection.execute("DELETE FROM pounds WHERE code = 'VTV'")
        connection.execute("DELETE FROM authorities WHERE code = 'VTV-GP'")
    connection.close()
    assert [await seize(db, "VTV"), await seize(db, "VTV")] == ["VTV-1", "VTV-2"]
    status, out, _ = run(capsys, "restore", str(backup))
    assert status == 0
    assert (
        "case numbers: VTV goes on from VTV-2, the last number of the database replaced "
        "(the backup has no pound VTV)"
    ) in out.splitlines()
    assert "VTV-1\tVTV\t2026-03-01\tnot known" in out.splitlines()
    assert await seize(db, "VTV") == "VTV-3"


async def test_a_next_number_past_the_database_replaced_is_honoured(
    db: Path, after_backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "restore", "--next-number", "knm=10", str(after_backup))
    assert status == 0
    assert (
        "case numbers: KNM goes on from KNM-9, as --next-number says (the backup's last is KNM-2)"
    ) in out.splitlines()
    assert await seize(db) == "KNM-10"


# -- the database replaced cannot be read ----------------------------------------------

EVERY_POUND = ("--next-number", "KNM=7", "--next-number", "PTM=1")
REST = ("--next-number", "ENM=1", "--next-number", "VTV=1")


def unreadable(db: Path) -> bytes:
    """The database turned to garbage (a disk that failed); its bytes."""
    garbage = b"not a database: the disk failed here\n" * 300
    db.write_bytes(garbage)
    for name in (f"{db.name}-wal", f"{db.name}-shm"):
        (db.parent / name).unlink(missing_ok=True)
    return garbage


def removed(db: Path) -> None:
    """The database gone (a disk replaced, nothing of it left)."""
    db.unlink()


def content(db: Path) -> bytes | None:
    return db.read_bytes() if db.exists() else None


@pytest.mark.parametrize("how", ["unreadable", "missing"])
async def test_when_the_database_replaced_cannot_be_read_restore_asks_for_each_next_number(
    how: str, db: Path, after_backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if how == "unreadable":
        garbage = unreadable(db)
        why = f"the database at {db} cannot be read (file is not a database)"
    else:
        removed(db)
        why = f"there is no database at {db}"
    expected = (
        f"{why}, so the case numbers issued after the backup are not known: give each "
        "pound's next case number (the backup's next, or past the last number the keepers "
        "were sent since): --next-number KNM=3 --next-number PTM=1 --next-number ENM=1 "
        "--next-number VTV=1"
    )
    assert refused(capsys, "restore", str(after_backup)) == expected
    # Some given, not all: the rest are asked for.
    assert refused(capsys, "restore", *EVERY_POUND, str(after_backup)).endswith(
        "were sent since): --next-number ENM=1 --next-number VTV=1"
    )
    if how == "unreadable":
        assert content(db) == garbage
        assert left_beside(db) == []
    else:
        assert content(db) is None
    status, out, err = run(capsys, "restore", *EVERY_POUND, *REST, str(after_backup))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert f"{why}: the next case numbers are those given" in lines
    assert (
        "case numbers: KNM goes on from KNM-6, as --next-number says (the backup's last is KNM-2)"
    ) in lines
    assert not any(line.startswith(("PTM", "ENM", "VTV", "case numbers: PTM")) for line in lines)
    assert "the cases numbered after the backup are not known: ask the keepers" in out
    if how == "unreadable":
        (kept,) = db.parent.glob("poundbot.sqlite3.replaced-*")
        assert kept.read_bytes() == garbage
        assert f"kept the database it replaced as {kept}" in lines
    else:
        assert "there was no database before" in lines
    assert await seize(db) == "KNM-7"


async def test_an_unreadable_database_under_a_running_server_is_not_replaced(
    db: Path, after_backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.adapters.serverlock import serving

    garbage = unreadable(db)
    with serving(db):
        line = refused(capsys, "restore", "--force", *EVERY_POUND, *REST, str(after_backup))
    assert line == (
        f"the database at {db} cannot be read (file is not a database) and a poundbot server "
        "is using it: stop it first (e.g. systemctl stop poundbot)"
    )
    assert content(db) == garbage
    assert left_beside(db) == []


def test_the_pounds_asked_for_come_from_a_configuration_that_can_be_read(
    db: Path,
    after_backup: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    garbage = unreadable(db)
    monkeypatch.setenv("POUNDBOT_CONFIG", str(tmp_path / "missing.toml"))
    line = refused(capsys, "restore", *EVERY_POUND, *REST, str(after_backup))
    assert line == (
        f"cannot read the configuration {tmp_path / 'missing.toml'}: No such file or directory"
    )
    assert content(db) == garbage
    assert left_beside(db) == []


def test_the_pounds_come_from_the_version_in_force_of_the_database_replaced(
    db: Path,
    after_backup: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The database holds the configuration: the file is not read, even when it cannot be."""
    from bot.config import sample_config_path

    assert run(capsys, "config", "import", str(sample_config_path()))[0] == 0
    monkeypatch.setenv("POUNDBOT_CONFIG", str(tmp_path / "missing.toml"))
    assert refused(capsys, "restore", "--next-number", "XYZ=3", str(after_backup)) == (
        "--next-number XYZ=3: XYZ is not a pound of the configuration (ENM, KNM, PTM, VTV)"
    )
    status, out, err = run(capsys, "restore", "--next-number", "KNM=10", str(after_backup))
    assert (status, err) == (0, "")
    assert "case numbers: KNM goes on from KNM-9, as --next-number says" in out


# -- bad --next-number values ----------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "answer"),
    [
        (
            ["XYZ=3"],
            "--next-number XYZ=3: XYZ is not a pound of the configuration (ENM, KNM, PTM, VTV)",
        ),
        (["KNM=five"], "--next-number KNM=five: say POUND=N, N a whole number from 1"),
        (["KNM=3.5"], "--next-number KNM=3.5: say POUND=N, N a whole number from 1"),
        (["KNM=-1"], "--next-number KNM=-1: say POUND=N, N a whole number from 1"),
        (["KNM=0"], "--next-number KNM=0: say POUND=N, N a whole number from 1"),
        (["KNM"], "--next-number KNM: say POUND=N, N a whole number from 1"),
        (["=5"], "--next-number =5: say POUND=N, N a whole number from 1"),
        (["KNM=１２"], "--next-number KNM=１２: say POUND=N, N a whole number from 1"),
        (["KNM=99999999"], "--next-number KNM=99999999: a case number has at most 7 digits"),
        (
            ["KNM=" + "9" * 5000],
            f"--next-number KNM={'9' * 5000}: a case number has at most 7 digits",
        ),
        (
            ["KNM=2"],
            "--next-number KNM=2: the backup already has KNM-2; the next is KNM-3 or later",
        ),
        (
            ["KNM=4"],
            "--next-number KNM=4: the database replaced already has KNM-4; the next is KNM-5 "
            "or later",
        ),
        (["KNM=8", "knm=9"], "--next-number KNM is given twice"),
    ],
    ids=[
        "unknown-pound",
        "word",
        "fraction",
        "negative",
        "zero",
        "no-number",
        "no-pound",
        "wide-digits",
        "too-long",
        "five-thousand-digits",
        "below-the-backup",
        "below-the-database-replaced",
        "twice",
    ],
)
async def test_a_bad_next_number_is_refused_and_changes_nothing(
    values: list[str],
    answer: str,
    db: Path,
    after_backup: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = (numbers(db), counters(db))
    argv = [word for value in values for word in ("--next-number", value)]
    assert refused(capsys, "restore", *argv, str(after_backup)) == answer
    assert (numbers(db), counters(db)) == before
    assert left_beside(db) == []


async def test_a_next_number_below_the_backups_own_is_refused_when_nothing_can_be_read(
    db: Path, after_backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = unreadable(db)
    line = refused(
        capsys,
        "restore",
        "--next-number",
        "KNM=2",
        "--next-number",
        "PTM=1",
        *REST,
        str(after_backup),
    )
    assert line == "--next-number KNM=2: the backup already has KNM-2; the next is KNM-3 or later"
    assert content(db) == garbage
    assert left_beside(db) == []


# -- PostgreSQL: the documented pg_dump and pg_restore --------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operator" / "backup.md"
PG_URL = os.environ.get("POUNDBOT_TEST_PG_URL")


def documented(containing: str) -> str:
    """The shell block of the Backups page that holds ``containing``."""
    blocks = re.findall(r"```sh\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    (block,) = (block for block in blocks if containing in block)
    return block


def as_run_here(block: str, database: str, folder: Path, dump: Path) -> str:
    """The documented commands on the test's database, files and dump (no systemctl)."""
    lines = [line for line in block.splitlines() if not line.startswith("systemctl ")]
    text = "\n".join(lines) + "\n"
    for documented_text, here in (
        ("cd /var/backups ", f"cd {folder} "),
        ("-d poundbot ", f"-d {database} "),
        ("/var/backups/poundbot-2026-11-29.dump", str(dump)),
    ):
        assert documented_text in text
        text = text.replace(documented_text, here)
    return text


def shell(script: str, url: str, folder: Path) -> str:
    """Run ``script`` with bash, libpq pointed at the server of ``url``; its stdout."""
    address = make_url(url)
    env = {
        **os.environ,
        "PGHOST": address.host or "127.0.0.1",
        "PGPORT": str(address.port or 5432),
        "PGUSER": address.username or "postgres",
        "PGPASSWORD": address.password or "",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


async def pg_seize(url: str, keeper: Caller) -> str:
    clock = FixedClock(datetime(2026, 3, 2, 11, 0, tzinfo=LOCAL_TZ))
    async with open_app(url=url, clock=clock) as app, app.store.transaction() as tx:
        done = await record_seizure(tx, app.deps, keeper, seizure())
    return done.case.number


async def pg_keeper(url: str) -> Caller:
    """Velayudhan, keeper of KNM, registered in the database at ``url`` (migrated)."""
    async with open_app(url=url, migrate=True) as app, app.store.transaction() as tx:
        user = await add_user(
            tx,
            app.deps,
            Caller.system(),
            role="keeper",
            pound="KNM",
            phone=KEEPER_PHONE,
            name="Velayudhan",
        )
    return replace(KEEPERS["KNM"], user_id=user.id, phone=KEEPER_PHONE, name="Velayudhan")


@pytest.mark.pg
@pytest.mark.skipif(not PG_URL, reason="POUNDBOT_TEST_PG_URL is not set")
def test_the_documented_pg_restore_keeps_the_case_numbers(tmp_path: Path) -> None:
    with fresh_pg_database() as url:
        database = make_url(url).database
        assert database is not None
        keeper = asyncio.run(pg_keeper(url))
        assert [asyncio.run(pg_seize(url, keeper)), asyncio.run(pg_seize(url, keeper))] == [
            "KNM-1",
            "KNM-2",
        ]
        dump = tmp_path / "before.dump"
        shell(f"pg_dump -Fc -f {dump} {database}", url, tmp_path)
        assert [asyncio.run(pg_seize(url, keeper)), asyncio.run(pg_seize(url, keeper))] == [
            "KNM-3",
            "KNM-4",
        ]
        script = as_run_here(documented("pg_restore --clean"), database, tmp_path, dump)
        out = shell(script, url, tmp_path)
        assert re.search(r"^ KNM +\| +4 \| +2$", out, re.M), out
        found = re.findall(r"^ (KNM-\d) +\| KNM +\| 2026-03-01 +\| (.*?) *$", out, re.M)
        assert found == [
            ("KNM-3", f"Velayudhan {KEEPER_PHONE}"),
            ("KNM-4", f"Velayudhan {KEEPER_PHONE}"),
        ], out
        assert asyncio.run(pg_seize(url, keeper)) == "KNM-5"


@pytest.mark.pg
@pytest.mark.skipif(not PG_URL, reason="POUNDBOT_TEST_PG_URL is not set")
def test_when_the_pg_database_is_gone_the_documented_next_number_is_kept(
    tmp_path: Path,
) -> None:
    dump = tmp_path / "before.dump"
    with fresh_pg_database() as url:
        database = make_url(url).database
        assert database is not None
        keeper = asyncio.run(pg_keeper(url))
        asyncio.run(pg_seize(url, keeper))
        shell(f"pg_dump -Fc -f {dump} {database}", url, tmp_path)
    with fresh_pg_database() as url:  # a new server: the database in place is gone
        database = make_url(url).database
        assert database is not None
        restore = as_run_here(documented("pg_restore --clean"), database, tmp_path, dump)
        (step_2,) = (line for line in restore.splitlines() if line.startswith("pg_restore "))
        shell(step_2, url, tmp_path)
        by_hand = documented("VALUES ('KNM'").replace("-d poundbot ", f"-d {database} ")
        shell(by_hand, url, tmp_path)
        assert asyncio.run(pg_seize(url, keeper)) == "KNM-7"
