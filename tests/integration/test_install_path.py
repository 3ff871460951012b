"""docs/operator/install.md is one path a person follows on a fresh Debian 12 server: its
shell blocks run here, in order, in a temporary folder standing for the server's ``/``.

Every path of the server the blocks name (``/etc/poundbot``, ``/opt/poundbot``,
``/var/lib/poundbot``, ...) is moved under that folder, in the blocks and in the copy of
``deploy/`` they install from. What needs root over other users (``useradd``, owners,
``runuser``) is stood in for by small programs that do the rest of the work; the blocks
marked ``needs-systemd``, ``needs-internet`` or ``needs-postgresql`` are not run, and the
programs only those use (systemctl, nginx, certbot, apt-get ...) fail if called, so a
block that needs them and is not marked fails the test. The installation from the wheel
(``needs-internet``) is stood in for by a ``poundbot`` that runs this checkout.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "operator" / "install.md", ROOT / "docs" / "operator" / "run.md"]
#: The server's paths the blocks may write, moved under the temporary root.
SERVER_PATHS = (
    "/etc/systemd/system",
    "/etc/poundbot",
    "/etc/nginx",
    "/opt/poundbot",
    "/var/lib/poundbot",
    "/usr/local/bin",
)
#: The marks a shell block may carry; those not run here.
MARKS = {"needs-systemd", "needs-internet", "needs-postgresql"}
_BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_ATTRS = re.compile(r"^\{\s*(?P<classes>(?:\.[\w-]+\s*)+)\}$")

#: Stand-ins for what needs root over other users, or systemd, or the internet.
STAND_INS = {
    "useradd": "exit 0",
    "chown": "exit 0",
    "chgrp": "exit 0",
    # install without -o and -g (the owner), the rest as it is.
    "install": 'for a in "$@"; do\n  case "$skip$a" in\n'
    '    -o|-g) skip=1 ;;\n    1*) skip= ;;\n    *) set -- "$@" "$a" ;;\n  esac\n'
    '  shift\ndone\nexec /usr/bin/install "$@"',
    # runuser -u USER -- COMMAND ...: the command, as this user.
    "runuser": '[ "$1" = -u ] && shift 2\n[ "$1" = -- ] && shift\nexec "$@"',
}
NOT_HERE = (
    "apt-get",
    "systemctl",
    "systemd-analyze",
    "journalctl",
    "nginx",
    "certbot",
    "curl",
    "rsync",
    "psql",
    "createdb",
    "pg_dump",
)


def shell_blocks(page: Path) -> list[tuple[str, set[str], str]]:
    """(where, marks, commands) of each shell block of ``page``, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        info = match.group("info").strip()
        where = f"{page.name}:{text.count(chr(10), 0, match.start()) + 1}"
        attrs = _ATTRS.match(info)
        if attrs is None:
            assert info not in ("sh", "bash", "shell", "console"), (
                f"{where}: a shell block is written {{ .sh }} (with its marks), so that "
                "this test runs it or knows why not"
            )
            continue
        classes = set(attrs.group("classes").replace(".", " ").split())
        if "sh" in classes:
            assert classes - {"sh"} <= MARKS, f"{where}: unknown marks {classes - MARKS}"
            found.append((where, classes - {"sh"}, match.group("body")))
    return found


def sandboxed(text: str, root: Path) -> str:
    for path in SERVER_PATHS:
        text = text.replace(path, f"{root}{path}")
    return text


@pytest.fixture
def server(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The temporary root, laid out as Debian 12 with nginx lays it out, the folder the
    commands run in (a copy of deploy/ and the lock), and the environment they run in."""
    root = tmp_path / "server"
    for folder in ("etc/systemd/system", "etc/nginx/sites-available", "etc/nginx/sites-enabled"):
        (root / folder).mkdir(parents=True)
    (root / "etc/nginx/sites-enabled/default").write_text("# Debian's default site\n")
    (root / "usr/local/bin").mkdir(parents=True)
    work = root / "root"
    (work / "deploy").mkdir(parents=True)
    for source in (ROOT / "deploy").iterdir():
        if source.is_file():
            target = work / "deploy" / source.name
            target.write_text(sandboxed(source.read_text(encoding="utf-8"), root))
            target.chmod(source.stat().st_mode)
    shutil.copy(ROOT / "requirements.lock", work)
    # What deploy/install-venv would have made: a poundbot that runs this checkout.
    venv = root / "opt/poundbot/venv/bin"
    venv.mkdir(parents=True)
    (venv / "poundbot").write_text(
        f'#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m bot.entry.cli "$@"\n'
    )
    (venv / "poundbot").chmod(0o755)
    stand_ins = tmp_path / "stand-ins"
    stand_ins.mkdir()
    for name, body in STAND_INS.items():
        (stand_ins / name).write_text(f"#!/bin/bash\n{body}\n")
    for name in NOT_HERE:
        (stand_ins / name).write_text(
            f'#!/bin/sh\necho "{name} is not run here: mark the block needs-..." >&2\nexit 99\n'
        )
    for program in stand_ins.iterdir():
        program.chmod(0o755)
    env = {
        "PATH": f"{stand_ins}:{root}/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(work),
        "LANG": "C.UTF-8",
    }
    return root, env


def test_every_shell_block_of_install_and_run_is_marked() -> None:
    blocks = [block for page in PAGES for block in shell_blocks(page)]
    runnable = [where for where, marks, _ in blocks if not marks]
    assert len(runnable) >= 10, runnable
    # The path goes through every step, and the steps that cannot run here are marked.
    marked = {mark for _, marks, _ in blocks for mark in marks}
    assert marked == MARKS


def test_the_install_path_runs_in_order_in_a_temporary_root(
    server: tuple[Path, dict[str, str]],
) -> None:
    root, env = server
    work = root / "root"
    ran: list[str] = []
    for page in PAGES:
        for where, marks, commands in shell_blocks(page):
            if marks:
                continue
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", sandboxed(commands, root)],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                check=False,
                timeout=300,
            )
            assert done.returncode == 0, (
                f"{where} failed (exit {done.returncode}):\n{commands}\n"
                f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
            )
            ran.append(done.stdout)
    output = "\n".join(ran)
    settings = (root / "etc/poundbot/env").read_text(encoding="utf-8")
    assert re.search(r"^POUNDBOT_SECRET=[0-9a-f]{64}$", settings, re.M)
    assert "POUNDBOT_PUBLIC_URL=https://pound.example.org\n" in settings
    assert (root / "etc/poundbot/poundbot.toml").is_file()
    assert f"{root}/etc/poundbot/poundbot.toml: OK (" in output
    assert (root / "etc/systemd/system/poundbot.service").is_file()
    assert "server_name pound.example.org;" in (
        root / "etc/nginx/sites-available/poundbot"
    ).read_text(encoding="utf-8")
    assert not (root / "etc/nginx/sites-enabled/default").exists()
    assert (root / "var/lib/poundbot/poundbot.sqlite3").is_file()
    assert list((root / "var/lib/poundbot/backups").glob("poundbot-*.sqlite3"))
    assert "IT cell" in output
    assert "https://pound.example.org/web/" in output  # the admin's sign-in link
    templates = (work / "dlt-templates.csv").read_text(encoding="utf-8")
    assert templates.startswith("Template Name,")
    assert os.access(root / "usr/local/bin/poundbot-admin", os.X_OK)
