"""A number of things in English words for the operator's lines: ``1 authority``,
``3 authorities``. Light: the command-line tools import it without the app."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, one: str, many: str) -> str:
    """``1 authority``, ``3 authorities``."""
    return f"{n} {one if n == 1 else many}"
