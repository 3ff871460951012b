"""Loading a configuration file: bytes to text to TOML to a checked Config.

Every fault is raised at once, in one ConfigError, each with its line.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config.lines import Lines
from bot.config.model import Config, ConfigError, Fault
from bot.config.reader import Reader

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "config_path",
    "load_config",
    "parse_config",
    "read_config_text",
    "sample_config_path",
]

#: The sample configuration, inside the package in a checkout and in a wheel alike (as
#: ``bot.support.resources`` finds the catalogs; importlib.resources would cost ``config check``
#: a tenth of its start).
_SAMPLE = Path(__file__).resolve().parent.parent / "sample_config.toml"


def sample_config_path() -> Path:
    """The sample configuration shipped in the package (``bot/sample_config.toml``)."""
    return _SAMPLE


def config_path() -> str:
    """The configuration in use: ``POUNDBOT_CONFIG``, else the sample shipped with poundbot."""
    return os.environ.get("POUNDBOT_CONFIG") or str(sample_config_path())


def load_config(path: str | os.PathLike[str] | Traversable) -> Config:
    """Read and check the configuration file at ``path``.

    Raises ConfigError listing every fault, or OSError when the file cannot be read.
    """
    name = os.fspath(path) if isinstance(path, str | os.PathLike) else str(path)
    return parse_config(read_config_text(path), name)


def read_config_text(path: str | os.PathLike[str] | Traversable) -> str:
    """The text of the configuration file at ``path``, unchecked.

    Raises ConfigError when it is not UTF-8, OSError when it cannot be read.
    """
    source = Path(path) if isinstance(path, str | os.PathLike) else path
    name = os.fspath(path) if isinstance(path, str | os.PathLike) else str(path)
    data = source.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError([Fault(line, "not UTF-8 text")], name) from None


def parse_config(text: str, name: str = "<string>") -> Config:
    """Parse and check configuration ``text``; ``name`` names it in faults.

    Raises ConfigError listing every fault found. A checked configuration is immutable,
    so the last few are kept for the process by their text: a process that opens the
    application many times (the demo, a test) reads the same file once.
    """
    return _parsed(text, name)


@functools.lru_cache(maxsize=8)
def _parsed(text: str, name: str) -> Config:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r" \(at line (\d+), column \d+\)", str(exc))
        line = int(found.group(1)) if found else max(1, len(text.splitlines()))  # at the end
        message = str(exc).replace(found.group(), "") if found else str(exc)
        raise ConfigError([Fault(line, f"TOML syntax: {message}")], name) from None
    reader = Reader(raw, Lines(text))
    config = reader.read()
    if config is None:
        raise ConfigError(reader.faults, name)
    return config
