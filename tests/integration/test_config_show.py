"""``poundbot config show``: the configuration in force, a key a line, each with the line
of the file it is on or ``default`` for a key the file leaves out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import sample_config_path
from bot.entry.cli import main

SAMPLE = sample_config_path().read_text(encoding="utf-8")


def shown(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, tuple[str, str]]:
    """``config show``'s lines as key → (value, source), its header checked."""
    assert main(["config", "show", *args]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# the configuration in force: ")
    rows = {}
    for line in out[2:]:
        found = re.fullmatch(r"(\S+) = (.*?) +# (line \d+|default)", line)
        assert found, line
        rows[found[1]] = (found[2], found[3])
    return rows


def line_of(text: str, needle: str) -> str:
    number = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(needle))
    return f"line {number}"


def test_each_key_of_the_file_is_shown_with_its_value_and_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    text = SAMPLE.replace('reminder_time = "08:00"', 'reminder_time = "07:15"', 1)
    path.write_text(text, encoding="utf-8")
    rows = shown(capsys, str(path))
    assert rows["reminders.reminder_time"] == ('"07:15"', line_of(text, "reminder_time ="))
    assert rows["reminders.timezone"] == ('"Asia/Kolkata"', line_of(text, "timezone ="))
    # An array's table is named by its code, as an operator names it.
    assert rows["pounds[KNM].authority"] == ('"KNM-GP"', line_of(text, 'authority = "KNM-GP"'))
    assert rows["pounds[KNM].code"][0] == '"KNM"'


def test_a_key_left_out_is_shown_with_the_default_in_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    without = re.sub(r"(?ms)^\[limits\]\n.*?(?=^\[)", "", SAMPLE, count=1)
    without = re.sub(r"(?m)^keep = .*\n", "", without, count=1)
    assert "[limits]" not in without
    path = tmp_path / "poundbot.toml"
    path.write_text(without, encoding="utf-8")
    rows = shown(capsys, str(path))
    assert rows["limits.window_minutes"] == ("10", "default")
    assert rows["limits.public"] == ("10", "default")
    assert rows["backups.keep"] == ("14", "default")
    assert rows["backups.time"][1] != "default"  # still in the file


def test_without_a_version_in_the_database_the_file_in_use_is_poundbot_config_else_the_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    assert main(["config", "show"]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("(the sample shipped with poundbot; the database holds none)")
    )
    path = tmp_path / "poundbot.toml"
    path.write_text(SAMPLE.replace("sms_per_second = 1", "sms_per_second = 2", 1), "utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(path))
    rows = shown(capsys)
    assert rows["reminders.sms_per_second"][0] == "2"
    assert main(["config", "show"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"# the configuration in force: {path} (POUNDBOT_CONFIG; the database holds none)"
    )


def test_a_file_with_faults_is_not_shown_but_its_faults_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poundbot.toml"
    path.write_text(SAMPLE.replace('timezone = "Asia/Kolkata"', 'timezone = "Mars"', 1), "utf-8")
    assert main(["config", "show", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert re.match(rf"{re.escape(str(path))}:\d+: ", out.err)
    assert main(["config", "show", str(tmp_path / "missing.toml")]) == 1
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "latin1.toml").write_bytes(b'x = "\xe9"\n')
    assert main(["config", "show", str(tmp_path / "latin1.toml")]) == 1
    assert "not UTF-8" in capsys.readouterr().err


def test_without_proviso_offices_the_director_in_force_is_shown_as_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = SAMPLE.index("[[proviso_offices]]")
    end = SAMPLE.index("\n\n", start)
    path = tmp_path / "poundbot.toml"
    path.write_text(SAMPLE[:start] + SAMPLE[end:], encoding="utf-8")
    value, source = shown(capsys, str(path))["proviso_offices"]
    assert source == "default"
    assert value.startswith('[{ code = "DIRECTOR", name = { en = "Director", ml = "ഡയറക്ടർ"')
