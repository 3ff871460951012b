"""Where poundbot's data folders are: in a source checkout, or inside the installed package.

The repository keeps ``locales/`` and ``migrations/`` at its top, beside ``bot/``; a wheel
ships them inside the package as ``bot/locales`` and ``bot/migrations`` (the mapping is in
``pyproject.toml``). Both layouts are found the same way, so a checkout, an editable
install and a normal install all read the same files.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["data_dir"]

_PACKAGE = Path(__file__).resolve().parent.parent  # bot/


def data_dir(name: str) -> Path:
    """The folder ``name`` (``locales`` or ``migrations``) of this installation."""
    packaged = _PACKAGE / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name
