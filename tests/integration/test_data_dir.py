"""Where the embedded database lives: ``POUNDBOT_DATA_DIR`` (default ``./var``), made
absolute at start, so a command started from another folder finds the same database or
says it has none (instead of making a new, empty one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.photo_store import default_store
from bot.entry.cli import main
from bot.store.engine import database_url

READS = (
    ("users", "list"),
    ("export", "cases"),
    ("export", "ledger", "--csv"),
    ("deadlines",),
    ("backup", "copy.sqlite3"),
)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """POUNDBOT_DATA_DIR set to a folder; the commands run from another one."""
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    folder = tmp_path / "data"
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(folder))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return folder


def test_the_database_is_in_the_data_folder_whatever_folder_a_command_starts_in(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate"]) == 0
    assert str(data / "poundbot.sqlite3") in capsys.readouterr().out
    assert (data / "poundbot.sqlite3").is_file()
    assert main(["users", "add", "--role", "admin", "--name", "Devi"]) == 0
    capsys.readouterr()
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    assert main(["users", "list"]) == 0
    assert "Devi" in capsys.readouterr().out
    assert not (other / "var").exists()
    assert not (tmp_path / "elsewhere" / "var").exists()


def test_without_a_data_folder_the_default_is_var_here_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.delenv("POUNDBOT_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert database_url() == f"sqlite+aiosqlite:///{tmp_path / 'var' / 'poundbot.sqlite3'}"


def test_a_relative_sqlite_url_is_made_absolute_where_poundbot_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", "sqlite+aiosqlite:///db/pb.sqlite3")
    assert database_url() == f"sqlite+aiosqlite:///{tmp_path / 'db' / 'pb.sqlite3'}"


@pytest.mark.parametrize("argv", READS, ids=[" ".join(a) for a in READS])
def test_a_command_that_reads_says_there_is_no_database_instead_of_making_one(
    data: Path, argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert (status, out) == (1, "")
    assert err == (
        f"poundbot: error: no database at {data / 'poundbot.sqlite3'}: "
        "run poundbot migrate to make one, or set POUNDBOT_DATA_DIR to the folder that holds it\n"
    )
    assert not data.exists()


async def test_the_startup_report_names_the_database_by_its_absolute_path(
    data: Path,
) -> None:
    from bot.bootstrap import open_app
    from bot.entry.app import startup_report

    async with open_app() as app:
        report = startup_report(app, env={})
    assert f"Database: sqlite {data / 'poundbot.sqlite3'}" in report


def test_photos_are_kept_in_the_data_folder_of_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``~`` in POUNDBOT_DATA_DIR is the home folder for the photos as for the database
    (not a folder named ``~`` where poundbot started)."""
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("POUNDBOT_DATA_DIR", "~/pound")
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "home" / "pound"
    assert database_url() == f"sqlite+aiosqlite:///{folder / 'poundbot.sqlite3'}"
    assert default_store().root == folder / "photos"
