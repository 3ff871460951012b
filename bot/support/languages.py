"""The languages poundbot speaks, in one place (light to import: the command line needs it)."""

from __future__ import annotations

from typing import Final

__all__ = ["LANGUAGES"]

#: Malayalam first (the official language of Kerala), then English, then Tamil and
#: Kannada for the linguistic-minority areas.
LANGUAGES: Final = ("ml", "en", "ta", "kn")
