"""``deploy/poundbot-admin`` runs a command with the settings the service has: the
environment file read by systemd's rules (``poundbot env-run``), never by the shell, as
the ``poundbot`` user, in ``/``, with the data folder of the unit."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADMIN = ROOT / "deploy" / "poundbot-admin"
POUNDBOT = Path(sys.executable).parent / "poundbot"

#: Values an operator writes, each as the file holds it and as the service gets it.
WRITTEN = {
    "MSEVA_KEYWORD": ("KL POUND", "KL POUND"),
    "MSEVA_PASSWORD": ("p@ss$HOME;x&y|z#1", "p@ss$HOME;x&y|z#1"),
    "MSEVA_SECURE_KEY": ("'  two spaces  '", "  two spaces  "),
    "EXOTEL_API_TOKEN": (r'"say \"hi\" for \$5"', 'say "hi" for $5'),
    "EXOTEL_API_KEY": ("it's `quoted`", "it's `quoted`"),
    "TWILIO_AUTH_TOKEN": ("first \\\n  second", "first   second"),
    "POUNDBOT_WEBHOOK_SECRET": ("a\\\\b", "a\\b"),
}


def env_file(tmp_path: Path) -> Path:
    lines = ["# the settings", "", "; another comment"]
    lines += [f"  {name}={text}" for name, (text, _) in WRITTEN.items()]
    path = tmp_path / "env"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def admin(tmp_path: Path, program: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),  # the code of this checkout
        "POUNDBOT_ENV_FILE": str(env_file(tmp_path)),
        "POUNDBOT_USER": pwd.getpwuid(os.getuid()).pw_name,  # runuser to oneself
        "POUNDBOT_PROGRAM": str(program),
        "POUNDBOT_ADMIN_DATA_DIR": str(tmp_path / "data"),
    }
    return subprocess.run(
        ["sh", str(ADMIN), *argv],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_each_value_reaches_the_command_as_the_service_gets_it(tmp_path: Path) -> None:
    """A program standing for poundbot: ``env-run`` goes to the real one, anything
    else prints the environment and the folder it runs in."""
    program = tmp_path / "program"
    program.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = env-run ]; then exec {POUNDBOT} "$@"; fi\n'
        f"exec {sys.executable} -c "
        "'import json, os, sys; print(json.dumps([dict(os.environ), os.getcwd(), sys.argv[1:]]))'"
        ' "$@"\n',
        encoding="utf-8",
    )
    program.chmod(0o755)
    done = admin(tmp_path, program, "users", "list")
    assert done.returncode == 0, done.stderr
    environ, cwd, argv = json.loads(done.stdout)
    assert {name: environ.get(name) for name in WRITTEN} == {
        name: value for name, (_, value) in WRITTEN.items()
    }
    assert environ["POUNDBOT_DATA_DIR"] == str(tmp_path / "data")
    assert (cwd, argv) == ("/", ["users", "list"])
    assert done.stderr == ""


def test_an_admin_command_runs_with_a_keyword_that_holds_a_space(tmp_path: Path) -> None:
    done = admin(tmp_path, POUNDBOT, "env")
    assert done.returncode == 0, done.stderr
    assert "  MSEVA_KEYWORD=KL POUND\n" in done.stdout
    assert "  MSEVA_PASSWORD=(set, hidden)\n" in done.stdout
    assert done.stderr == ""


def test_a_file_systemd_would_refuse_stops_the_command_in_one_line(tmp_path: Path) -> None:
    env = tmp_path / "env"
    env.write_bytes(b"A=\xff\n")
    refused = subprocess.run(
        [str(POUNDBOT), "env-run", str(env), "--", "echo", "ran"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr.strip() == f"poundbot env-run: error: {env}: not UTF-8 text (byte 2)"
