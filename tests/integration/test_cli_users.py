"""``poundbot users edit|disable|enable|reinvite|history`` and ``poundbot export audit``:
every change to a user, for a reason, kept in the audit and exported per authority."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_cli import db, refused, rows_of, run

__all__ = ["db"]  # the fixture, as test_cli's commands use it

KEEPER = ("users", "add", "--role", "keeper", "--pound", "KNM", "--phone", "+919847000001")


def test_a_user_is_edited_for_a_reason_and_the_history_lists_each_change(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *KEEPER, "--name", "Ravi", "--reason", "new keeper")[0] == 0
    status, out, err = run(
        capsys,
        *("users", "edit", "1", "--phone", "09847000002", "--lang", "ml"),
        *("--pound", "ENM", "--reason", "moved to Ernakulam"),
    )
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "edited user 1 (keeper of pound ENM (ENM-GP)):",
        "  lang: - -> ml",
        "  phone: +919847000001 -> +919847000002",
        "  pound_code: KNM -> ENM",
        "  authority_code: KNM-GP -> ENM-GP",
    ]
    status, out, err = run(capsys, "users", "history", "1")
    lines = [line.split("\t")[1:] for line in out.splitlines()]
    assert lines[0] == ["user", "by", "field", "old", "new", "reason"]
    assert ["1", "cli", "role", "-", "keeper", "new keeper"] in lines
    assert lines[-4:] == [
        ["1", "cli", "lang", "-", "ml", "moved to Ernakulam"],
        ["1", "cli", "phone", "+919847000001", "+919847000002", "moved to Ernakulam"],
        ["1", "cli", "pound_code", "KNM", "ENM", "moved to Ernakulam"],
        ["1", "cli", "authority_code", "KNM-GP", "ENM-GP", "moved to Ernakulam"],
    ]


def test_an_edit_without_a_reason_or_with_a_role_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *KEEPER)[0] == 0
    with pytest.raises(SystemExit):
        run(capsys, "users", "edit", "1", "--name", "X")  # argparse: --reason is required
    with pytest.raises(SystemExit):
        run(capsys, "users", "edit", "1", "--role", "officer", "--reason", "r")
    capsys.readouterr()
    assert refused(capsys, "users", "edit", "1", "--reason", "r") == (
        "nothing to change (user_id: 1)"
    )
    assert refused(capsys, "users", "edit", "1", "--authority", "ENM-GP", "--reason", "r") == (
        "only an officer has an authority of their own (role: keeper)"
    )


def test_a_user_is_disabled_enabled_and_invited_again(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *KEEPER, "--name", "Ravi")[0] == 0
    assert run(capsys, "users", "disable", "1", "--reason", "left the post") == (
        0,
        "disabled user 1 (keeper of pound KNM (KNM-GP), Ravi): their web sessions are "
        "ended; their phone and Telegram id are free again (the audit keeps them)\n",
        "",
    )
    assert run(capsys, "users", "list")[1] == ""
    assert refused(capsys, "users", "disable", "1", "--reason", "again") == (
        "no such user (user_id: 1)"
    )
    assert run(capsys, "users", "enable", "1", "--reason", "back") == (
        0,
        "enabled user 1 (keeper of pound KNM (KNM-GP)): give them a phone (users edit 1 "
        "--phone) or a Telegram account (users reinvite 1)\n",
        "",
    )
    status, out, err = run(capsys, "users", "reinvite", "1", "--reason", "new phone")
    assert (status, err) == (0, "")
    assert out.splitlines()[1] == "for: user 1, keeper of pound KNM (KNM-GP), name Ravi"
    code = out.splitlines()[0].removeprefix("invite code: ")
    history = run(capsys, "users", "history", "1")[1]
    assert code not in history
    fields = [line.split("\t")[3:] for line in history.splitlines()[-4:]]
    assert fields[0] == ["active", "true", "false", "left the post"]
    assert fields[1] == ["phone", "+919847000001", "-", "left the post"]
    assert fields[2] == ["active", "false", "true", "back"]
    assert fields[3][0] == "invite"


def test_the_audit_of_one_authority_is_exported_as_csv(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *KEEPER, "--reason", "new")[0] == 0
    officer = ("--role", "officer", "--authority", "ENM-GP", "--name", "Latha")
    assert run(capsys, "users", "add", *officer)[0] == 0
    assert run(capsys, "users", "edit", "1", "--name", "=cmd()", "--reason", "typo")[0] == 0
    target = tmp_path / "audit.csv"
    status, out, err = run(
        capsys, "export", "audit", "--csv", "--authority", "KNM-GP", "--out", str(target)
    )
    assert (status, out, err) == (0, f"wrote 6 changes to {target}\n", "")
    rows = rows_of(target.read_bytes().decode("utf-8"))
    assert rows[0] == ["at", "user", "authority", "by", "field", "old", "new", "reason"]
    assert {row[1] for row in rows[1:]} == {"1"}  # not the officer of ENM-GP
    assert rows[-1][1:] == ["1", "KNM-GP", "cli", "name", "", "'=cmd()", "typo"]
    assert rows[1][0].endswith("+05:30")
    assert refused(capsys, "export", "audit", "--authority", "NOPE") == (
        "unknown authority (authority: NOPE)"
    )


def test_an_admin_with_an_authority_is_its_admin_and_without_one_a_state_admin(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "users", "add", "--role", "admin", "--name", "Suma") == (
        0,
        "added user 1: state admin, name Suma\n",
        "",
    )
    assert run(
        capsys, "users", "add", "--role", "admin", "--authority", "KNM-GP", "--name", "Latheef"
    ) == (0, "added user 2: admin of KNM-GP, name Latheef\n", "")
    assert refused(capsys, "users", "add", "--role", "admin", "--authority", "XYZ-GP") == (
        "an authority admin needs a known authority (authority: XYZ-GP)"
    )
    status, out, _ = run(capsys, "users", "edit", "2", "--authority", "ENM-GP", "--reason", "moved")
    assert (status, out.splitlines()) == (
        0,
        ["edited user 2 (admin of ENM-GP):", "  authority_code: KNM-GP -> ENM-GP"],
    )
    status, out, _ = run(capsys, "users", "edit", "2", "--state", "--reason", "the whole state")
    assert (status, out.splitlines()) == (
        0,
        ["edited user 2 (state admin):", "  authority_code: ENM-GP -> -"],
    )
    assert run(capsys, *KEEPER)[0] == 0
    assert refused(capsys, "users", "edit", "3", "--state", "--reason", "r") == (
        "only an officer has an authority of their own (role: keeper)"
    )
    status, out, _ = run(capsys, "invite", "--role", "admin", "--authority", "KNM-GP")
    assert "for: admin of KNM-GP" in out
