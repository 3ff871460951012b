"""``poundbot env`` lists every environment variable poundbot reads, and only those; a
secret's value is never printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.entry.cli import main
from bot.support.environment import VARIABLES, described

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = ("POUNDBOT_", "TELEGRAM_", "TWILIO_", "EXOTEL_", "MSEVA_")


def read_by_the_code() -> set[str]:
    """The variable names the running code reads: ``env.get("X"``, ``environ["X"]``,
    ``getenv("X"`` and the names handed to the helpers that read one
    (``_networks("POUNDBOT_EXOTEL_ALLOW", env)``)."""
    found: set[str] = set()
    names = "|".join(PREFIXES)
    pattern = re.compile(rf"(?:\.get|getenv|environ\[|_networks)\(?\s*\"((?:{names})[A-Z0-9_]+)\"")
    for path in (ROOT / "bot").rglob("*.py"):
        if "fakes" in path.parts or path.name == "environment.py":
            continue
        found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_variable_the_code_reads_is_listed_and_every_listed_one_is_read() -> None:
    listed = {variable.name for variable in VARIABLES}
    read = read_by_the_code()
    assert read - listed == set(), "read but not in poundbot env"
    assert listed - read == set(), "in poundbot env but read nowhere"
    assert len(listed) == len(VARIABLES)


def test_a_secret_is_shown_only_as_set_and_the_rest_as_they_are() -> None:
    text = "\n".join(
        described({"POUNDBOT_SECRET": "s3cr3t-value", "POUNDBOT_PUBLIC_URL": "https://p.example"})
    )
    assert "s3cr3t-value" not in text
    assert "POUNDBOT_SECRET=(set, hidden)" in text
    assert "POUNDBOT_PUBLIC_URL=https://p.example" in text
    assert "POUNDBOT_DATABASE_URL (unset)" in text
    assert all(v.secret for v in VARIABLES if v.name.endswith(("TOKEN", "PASSWORD")))


def test_poundbot_env_prints_each_with_what_it_is_for_and_what_unset_means(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:ABCdef")
    monkeypatch.setenv("POUNDBOT_LOG_FORMAT", "json")
    assert main(["env"]) == 0
    out = capsys.readouterr().out
    assert "123456:ABCdef" not in out
    assert "TELEGRAM_BOT_TOKEN=(set, hidden)" in out
    assert "POUNDBOT_LOG_FORMAT=json" in out
    for variable in VARIABLES:
        assert variable.name in out
    assert " ".join(out.split()).count(" Unset: ") == len(VARIABLES)


def test_poundbot_help_says_where_the_environment_variables_are_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "poundbot env lists them" in out
    assert "poundbot config show" in out
    assert "Why it is long" not in out  # the module's note to developers stays in the code
