"""The two lock files: ``requirements.lock`` is what a server installs (the runtime
dependencies and nothing of the tests, the linters or the docs), ``requirements-dev.lock``
is the same versions and the tools; neither carries the build machine's index URLs,
find-links or paths."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
RUNTIME = ROOT / "requirements.lock"
DEV = ROOT / "requirements-dev.lock"

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;]+)(?: ;[^\\]*)? \\$")


def pins(lock: Path) -> dict[str, str]:
    """Each package the lock pins, by its canonical name, with its version; every pin
    carries at least one hash."""
    lines = lock.read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for number, line in enumerate(lines):
        pin = _PIN.match(line)
        if pin:
            assert lines[number + 1].strip().startswith("--hash=sha256:"), line
            found[canonicalize_name(pin.group(1))] = pin.group(2)
    assert len(found) == sum("==" in line and not line.startswith("#") for line in lines)
    return found


def requirements(group: list[str]) -> dict[str, Requirement]:
    return {canonicalize_name(r.name): r for r in map(Requirement, group)}


@pytest.mark.parametrize("lock", [RUNTIME, DEV], ids=lambda p: p.name)
def test_a_lock_names_no_index_find_links_or_local_path(lock: Path) -> None:
    for line in lock.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        assert not line.lstrip().startswith(
            ("-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host")
        ), line
        for local in ("file:", "/opt/", "/home/", "/tmp/"):
            assert local not in line, line


@pytest.mark.parametrize("lock", [RUNTIME, DEV], ids=lambda p: p.name)
def test_each_pin_is_within_the_range_pyproject_declares(lock: Path) -> None:
    pinned = pins(lock)
    declared = requirements(PROJECT["dependencies"])
    if lock == DEV:
        for extra in ("dev", "docs"):
            declared |= requirements(PROJECT["optional-dependencies"][extra])
    for name, requirement in declared.items():
        assert name in pinned, f"{lock.name} does not pin {name}"
        assert requirement.specifier.contains(pinned[name]), (name, pinned[name])


def test_the_runtime_lock_holds_no_test_lint_or_docs_tool() -> None:
    pinned = pins(RUNTIME)
    for extra in ("dev", "docs"):
        for name in requirements(PROJECT["optional-dependencies"][extra]):
            assert name not in pinned, f"requirements.lock pins {name} (a tool, not a dependency)"
    for tool in ("pytest", "playwright", "mypy", "mkdocs-material"):
        assert tool not in pinned


def test_the_development_lock_runs_the_versions_a_server_runs() -> None:
    runtime, dev = pins(RUNTIME), pins(DEV)
    assert {name: dev.get(name) for name in runtime} == runtime


def _imported_tops(folder: Path) -> set[str]:
    tops: set[str] = set()
    for source in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                tops.add(node.module.split(".")[0])
    return tops


def test_every_package_the_shipped_code_imports_is_in_the_runtime_lock() -> None:
    """What bot/ and domain/ import (the wheel) is installed by requirements.lock alone."""
    distributions = importlib.metadata.packages_distributions()
    pinned = pins(RUNTIME)
    ours = {"bot", "domain"}
    third_party = {
        top
        for folder in ("bot", "domain")
        for top in _imported_tops(ROOT / folder)
        if top not in sys.stdlib_module_names and top not in ours
    }
    assert third_party, "no third-party import found: the scan is broken"
    for top in sorted(third_party):
        names = {canonicalize_name(d) for d in distributions.get(top, [])}
        assert names, f"{top} is imported by the shipped code but no installed package has it"
        assert names & pinned.keys(), f"{top} ({', '.join(names)}) is not in requirements.lock"


def test_make_installs_the_dev_lock_and_the_wheel_check_the_runtime_lock() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(STAMP): pyproject.toml requirements-dev.lock" in makefile
    assert "--require-hashes -r requirements-dev.lock" in makefile
    assert "--no-emit-index-url --no-emit-find-links" in makefile
    wheel_check = (ROOT / ".ci" / "wheel-check").read_text(encoding="utf-8")
    assert 'deploy/install-venv "$work/venv" "$wheel" requirements.lock' in wheel_check
    assert "requirements-dev.lock" not in wheel_check
    installer = (ROOT / "deploy" / "install-venv").read_text(encoding="utf-8")
    assert '--require-hashes -r "$lock"' in installer
