"""``deploy/install-venv``, the server's installer: what it leaves in the environment.

It runs here on a small wheel made by the test (a ``poundbot`` command and a ``twilio``
package with a ``rest`` folder) and an empty lock, so nothing is fetched; ``.ci/wheel-check``
runs it on the real wheel and ``requirements.lock``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

INSTALLER = Path(__file__).resolve().parents[2] / "deploy" / "install-venv"
#: The files of the test's wheel, beside its metadata.
FILES = {
    "fakebot/__init__.py": 'VERSION = "{version}"\n\n\ndef main() -> None:\n'
    '    print("poundbot", VERSION)\n',
    "twilio/__init__.py": "",
    "twilio/http.py": "TIMEOUT = 10\n",
    "twilio/rest/__init__.py": "",
    "twilio/rest/chat.py": "NAME = 'chat'\n",
}


def _wheel(folder: Path, version: str) -> Path:
    """A wheel of the files above, as setuptools writes one (metadata, entry point, RECORD)."""
    info = f"fakebot-{version}.dist-info"
    members = {name: text.format(version=version) for name, text in FILES.items()}
    members[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: fakebot\nVersion: {version}\n"
    members[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    members[f"{info}/entry_points.txt"] = "[console_scripts]\npoundbot = fakebot:main\n"
    record = []
    for name, text in members.items():
        digest = hashlib.sha256(text.encode()).digest()
        encoded = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        record.append(f"{name},sha256={encoded},{len(text.encode())}")
    members[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    path = folder / f"fakebot-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


def _install(*args: Path | str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(
        ["bash", str(INSTALLER), *map(str, args)], capture_output=True, text=True, env=env
    )


@pytest.fixture
def lock(tmp_path: Path) -> Path:
    path = tmp_path / "requirements.lock"
    path.write_text("# nothing pinned: the test's wheel needs no other package\n")
    return path


def test_the_server_environment_has_no_installer_and_its_code_byte_compiled(
    tmp_path: Path, lock: Path
) -> None:
    venv = tmp_path / "venv"
    done = _install(venv, _wheel(tmp_path, "1.0"), lock)
    assert done.returncode == 0, done.stderr
    assert "poundbot 1.0" in done.stdout
    site = Path(
        subprocess.run(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    tops = {path.name for path in site.iterdir()}
    assert not tops & {"pip", "setuptools", "pkg_resources"}, tops
    assert not (venv / "bin" / "pip").exists()
    assert list((site / "fakebot" / "__pycache__").glob("__init__.*.pyc"))
    assert list((site / "twilio" / "__pycache__").glob("http.*.pyc"))
    # twilio's REST folder is left to Python to compile when a module of it is imported.
    assert not (site / "twilio" / "rest" / "__pycache__").exists()
    ran = subprocess.run([venv / "bin" / "poundbot"], capture_output=True, text=True, check=True)
    assert ran.stdout == "poundbot 1.0\n"


def test_installing_into_an_environment_that_has_poundbot_upgrades_it(
    tmp_path: Path, lock: Path
) -> None:
    venv = tmp_path / "venv"
    assert _install(venv, _wheel(tmp_path, "1.0"), lock).returncode == 0
    again = _install(venv, _wheel(tmp_path, "1.1"), lock)
    assert again.returncode == 0, again.stderr
    assert "a new environment" not in again.stdout
    ran = subprocess.run([venv / "bin" / "poundbot"], capture_output=True, text=True, check=True)
    assert ran.stdout == "poundbot 1.1\n"


@pytest.mark.parametrize("count", [0, 1, 4])
def test_a_wrong_number_of_arguments_shows_the_usage_and_changes_nothing(
    tmp_path: Path, count: int
) -> None:
    args = [tmp_path / f"arg{n}" for n in range(count)]
    done = _install(*args)
    assert done.returncode == 2
    assert "deploy/install-venv VENV WHEEL [LOCK]" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_missing_wheel_or_lock_is_named_before_anything_is_made(
    tmp_path: Path, lock: Path
) -> None:
    venv = tmp_path / "venv"
    done = _install(venv, tmp_path / "poundbot-9.9-py3-none-any.whl", lock)
    assert done.returncode == 2
    assert "no file" in done.stderr
    assert "poundbot-9.9-py3-none-any.whl" in done.stderr
    done = _install(venv, _wheel(tmp_path, "1.0"), tmp_path / "missing.lock")
    assert done.returncode == 2
    assert "missing.lock" in done.stderr
    assert not venv.exists()
