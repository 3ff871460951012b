"""``poundbot users import FILE [--dry-run]``: the same plan as the web desk's import
(``bot.services.user_import``): each line said, nothing changed on a dry run or while a
line is refused; then every line, with the new users' invites."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_cli import db, refused, run

__all__ = ["db"]  # the fixture, as test_cli's commands use it

SHEET = "name,phone,role,pound\nRavi,9847000001,keeper,KNM\nMini,9847000002,keeper,ENM\n"


def test_a_dry_run_says_each_line_and_the_import_adds_them_with_invites(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "users.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    status, out, _ = run(capsys, "users", "import", str(sheet), "--dry-run", "--reason", "r")
    assert status == 0
    assert out.splitlines()[0].startswith("line 2\tnew\tRavi +919847000001\t")
    assert "dry run: nothing changed" in out
    assert run(capsys, "users", "list")[1] == ""
    status, out, _ = run(capsys, "users", "import", str(sheet), "--reason", "roll-out")
    assert status == 0
    assert "imported: 2 new, 0 changed, 0 unchanged, 0 refused" in out
    assert out.count("invite line ") == 2
    listed = run(capsys, "users", "list")[1]
    assert "+919847000001" in listed
    assert "+919847000002" in listed
    again = run(capsys, "users", "import", str(sheet), "--reason", "roll-out")
    assert again[0] == 0
    assert "nothing to change" in again[1]


def test_a_refused_line_or_a_bad_file_imports_nothing(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "users.csv"
    sheet.write_text(SHEET + "Nobody,12345,keeper,KNM\n", encoding="utf-8")
    status, out, err = run(capsys, "users", "import", str(sheet), "--reason", "r")
    assert status == 1
    assert "line 4\trefused\tNobody 12345\t" in out
    assert "nothing imported" in err
    assert run(capsys, "users", "list")[1] == ""
    sheet.write_bytes(b"name,role\nRavi,keeper\n")
    assert "has no column" in refused(capsys, "users", "import", str(sheet), "--reason", "r")
