"""Where poundbot's data folders are: in a source checkout, or inside the installed package.

The repository keeps ``locales/`` and ``migrations/`` at its top, beside ``bot/``; a wheel
ships them inside the package as ``bot/locales`` and ``bot/migrations``, and the top's
``LICENSE`` and ``pyproject.toml`` in ``bot/project`` (the mapping is in
``pyproject.toml``). Both layouts are found the same way, so a checkout, an editable
install and a normal install all read the same files.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_DIRS", "PROJECT_DIR", "PROJECT_FILES", "data_dir", "project_file"]

_PACKAGE = Path(__file__).resolve().parent.parent  # bot/
#: The folders of the repository's top that a wheel ships inside ``bot/``, by their name.
DATA_DIRS = ("locales", "migrations")
#: The files of the repository's top that a wheel ships in ``bot/project/``.
PROJECT_DIR, PROJECT_FILES = "project", ("LICENSE", "pyproject.toml")


def data_dir(name: str) -> Path:
    """The folder ``name`` (``locales`` or ``migrations``) of this installation."""
    packaged = _PACKAGE / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name


def project_file(name: str) -> Path:
    """The file ``name`` (``LICENSE`` or ``pyproject.toml``) of this installation."""
    packaged = _PACKAGE / PROJECT_DIR / name
    if packaged.is_file():
        return packaged
    return _PACKAGE.parent / name
